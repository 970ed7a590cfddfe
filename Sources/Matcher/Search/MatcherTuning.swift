/// The stream matcher's fixed tuning, in one place: each constant with its unit and why it has its value.
///
/// Settings a station may change per channel are in `MatcherSettings`; these are properties of the method.
enum MatcherTuning {
  /// A hash with more postings than this is common in the catalog: its matches are searched for new plays only when a
  /// second anchor places the same broadcast peak at the same reference frame (`TargetAgreement`). Below it, every
  /// match votes, as it always has for catalogs of a few hours (whose stop-hash cap keeps every list this short), so
  /// their latency is unchanged; a catalog of hundreds of hours has hundreds of postings per hash, nearly all chance.
  static let maxPostingsSearchedAlone = 16

  /// A triplet index with more postings than this per key, on average, has its hits confirmed in the pair index
  /// before they vote (`StreamMatcher.confirmingTripletHits`): a probe reads the postings of other keys that share
  /// its directory slot and residual bits, this many on average, and unconfirmed, each would vote as a chance match.
  /// Measured on one hour of `dev-radio-s1` ch01: at 1,000 hours (0.09 a key) hits taken unconfirmed cost 0.88 times
  /// the CPU, and the plays of `radio` seeds 1–5 and `hard` s1 were as good or better; at 10,000 hours (1.9 a key)
  /// the same CPU either way, as the chance matches cost what the confirmation saved. Postings per key.
  static let maxTripletPostingsPerKeyUnconfirmed = 0.5

  /// Whether the search confirms the hits of `triplets` (`maxTripletPostingsPerKeyUnconfirmed`).
  static func confirmsHits(of triplets: TripletIndex) -> Bool { isCrowded(triplets) }

  /// Whether `triplets` has more than `maxTripletPostingsPerKeyUnconfirmed` postings per key, on average.
  static func isCrowded(_ triplets: TripletIndex) -> Bool {
    Double(triplets.index.postings.count) > maxTripletPostingsPerKeyUnconfirmed * Double(1 << triplets.index.hashBits)
  }

  /// In a crowded triplet index (`isCrowded`), a probe with more hits than this is a stop key, as a common word is to
  /// a text search: its hits are dropped before they are confirmed or searched. Nearly all of them are other
  /// recordings that share the two pairs by chance, and they are most of the search's work. One hour of `dev-radio-s1`
  /// ch01 at 10,000 hours: 8.6 million probes with 75.8 million hits (8.8 a probe); the quarter of the probes with more
  /// than 12 hold 63 % of them. Capped at 12, the hour took 9.3 s of CPU instead of 22.3 s (14: 10.3 s; 16: 11.9 s),
  /// and its plays were as good or better (the one distractor play is gone) but later, since the dropped keys carry
  /// true matches too: median latency on `radio` s1–s3 4.32 / 4.45 / 3.95 → 5.69 / 4.54 / 4.66 s (held out, s4 and s5:
  /// 5.28 / 4.16 → 5.79 / 5.15 s), and `hard` s1 9.44 → 13.46 s (14: 5.69 / 4.54 / 4.59 s and 12.83 s). A sparse index
  /// is left alone: at 1,000 hours (0.09 postings per key) one probe in 2,000 has more than 12 hits, with 0.9 % of
  /// them, so a cap saves nothing there. In a crowded index, a recording that the catalog holds 13 times or more has
  /// only stop keys and is not found (a catalog holds each recording once; the README says so). Hits.
  static let maxTripletKeyHits = 12

  /// The most hits a probe of `triplets` may have before it is a stop key (`maxTripletKeyHits`), or `Int.max`.
  static func tripletKeyHitCap(of triplets: TripletIndex) -> Int { isCrowded(triplets) ? maxTripletKeyHits : .max }

  /// A play whose line has had no sustained matches for `maxGapSeconds` stays open this long (while its line is still
  /// inside the track and no other item has come on), so that an airing hidden by noise, a dropout or a voice-over
  /// for up to two minutes and then heard again on the same line is one play, never two. Seconds.
  static let maxSilentLineSeconds = 120.0

  /// A play of an ad, a jingle or other non-song item is extended to its track's audible start or end over at most
  /// this share of the track's audible length, or one pair span (`maxPairFrames`, 1.28 s) if that is more, and never
  /// over more than `snapToEdgeSeconds`. Spots are billed by airing whole: proof of play and traffic reconciliation
  /// call an airing shorter than 90 % of its item partial, and a reach under 10 % of the length never makes such an
  /// airing whole (8 s of snap made a 14 s spot cut after 6 s whole). The pair span is the matcher's resolution at an
  /// edge: the last match's anchor lies up to one pair span before the audio's end, since its target peak aired too
  /// (a 5.7 s spot aired whole had its last match 0.84 s before its end), so on spots shorter than 14 s a cut of less
  /// than 1.28 s can still read as whole. Songs keep the full snap: their fade-outs and crossfades lose the last
  /// matches seconds before the audible end, and a 5 % cap on them moved song ends on the dev yardstick away from the
  /// truth (ends more than 2 s off: 13 to 16 of 98 on radio, 25 to 32 of 100 on hard). Fraction of the audible length.
  static let maxSpotSnapToEdgeFraction = 0.09

  /// A song's play is judged on its opening: the matches anchored in this many second-long buckets
  /// (`RunningPlay.bucketFrames`, 32 frames) from the first match of the line it was found on, against those of as
  /// long again after them at least. Ten seconds average over a phrase of the song. Buckets.
  static let openingBuckets: Int32 = 10

  /// A song's opening that matched at under this share of the rate of the rest of its play (matches per second) is
  /// sparse: the song's first seconds on the air were masked, by noise or a voice over its intro, which is often its
  /// quietest part, so that the seconds before them may have been the song too
  /// (`MatcherSettings.noisyOpeningSnapSeconds`). A song joined in the middle matches at about the same rate from its
  /// first second. Both rates fall alike where the catalog's stop hashes drop matches, so the share holds at every
  /// catalog size, where the track's own hash rate did not. Counted with a throwaway build (`hard` s1–s4 and `radio`
  /// s1–s4 with the dev catalog; `hard` s1–s4 and `radio` s2 and s4–s7 at 1,000 h): 27 of 33 songs aired from their
  /// start but first matched 8–25 s in had 0.11–0.56 (the other six 0.63–1.04), and 9 of 10 songs joined 12–25 s in
  /// had 0.72–1.21 (one, 39 s of a song under heavy noise, 0.15). A share of the later rate.
  static let maxSparseOpeningRateShare = 0.6

  /// An opening judged sparse stays so until its share of the later rate (`maxSparseOpeningRateShare`) reaches this:
  /// the later rate is that of every match since the opening, so it drifts as the song goes on, and a share near 0.6
  /// crossed the bar back and forth, moving the start that the console, the API and each progress event show by up
  /// to 20 s at every report (`Loyalists` on `radio` s4 ch02 at 1,000 h: 749.4 and 739.2 s, four times). Replayed on
  /// the reports of both channels of `radio` s1–s8 and `hard` s1–s6 (a throwaway build printed each report's share
  /// and both starts): plays whose start moved more than once 4 / 5 / 6 → 2 / 3 / 2 with the dev / 100 h / 1,000 h
  /// catalogs; logged starts more than 2 s late / early 21 / 4, 42 / 3, 48 / 3 → 20 / 5, 41 / 4, 47 / 3: three songs
  /// that started 17–20 s late now start right, and one airing joined 12.8 s in (dev and 100 h), dense only at its last
  /// report, starts 12 s early. Not tuned on, `radio` s9 and `hard` s7: 3 / 1 → 2 / 1 with the dev catalog, the same
  /// at 100 h and 1,000 h. A band on both sides (0.5 to judge sparse after judging not) made one start more early with
  /// the dev and 100 h catalogs. A share of the later rate.
  static let minResumedOpeningRateShare = 0.7

  /// A song's start moved back over a masked opening (`MatcherSettings.noisyOpeningSnapSeconds`) stops this long before
  /// the end of the play before it on the channel. Two songs overlap by a crossfade at most, and a song joined in its
  /// middle right after another item can look masked (its opening sparser than the rest) and would otherwise start
  /// inside that item, up to 20 s early. Half of the longest segue overlap expected (8 s, `snapToEdgeSeconds`) keeps
  /// the error within 4 s either way: a masked song crossfaded in over 8 s starts 4 s late, a song joined right at the
  /// end of the item before starts 4 s early. Measured (`radio` s1–s8 and `hard` s1–s6, whose crossfades are 1–6 s,
  /// at the dev, 100 h and 1,000 h catalogs): at 1,000 h a song joined 14 s in after a crossfade of 2.4 s, which
  /// started 13.7 s early, starts 1.6 s early; six starts of masked songs crossfaded in over 4.2–5.3 s (three at
  /// 100 h, three at 1,000 h) move 0.2–0.9 s later; nothing else moves. 0 s made ten masked songs 1.2–4.9 s late (dev
  /// and 1,000 h). Seconds.
  static let maxCrossfadeSeconds = 4.0

  /// The longest quiet tail (`CatalogTrack.loudEndSeconds` to the audible end) over which a play whose matches stop at
  /// it is extended to the audible end. A fade-out or a reverb's decay that the air's noise masks lasts seconds (the
  /// dev songs' tails are 0–21.5 s, and their early ends 8–19 s); a recording that stays 12 dB under itself for longer
  /// ends in a soft coda, music a station may cut into, and is ended where its matches end. Seconds of reference.
  static let maxQuietTailSeconds = 30.0

  /// Vote counters per matcher (`VoteTable`): one byte per 128 postings of the catalog, between 256 KB and 4 MB. The
  /// counters in use are two per unclaimed match of the vote window, and with common hashes searched through the
  /// triplet index those grow far slower than the catalog: about 37,000 matches (74,000 counters) at 1,000 hours,
  /// which 512 KB holds at one in seven, small enough to stay in a core's L2 cache (each vote and each expiry touches
  /// two counters at random: 4 MB there cost a tenth more of the scan's CPU, in misses). Unrelated cells that share a
  /// counter only make the search verify a cell for nothing.
  static func voteSlots(postings: Int) -> Int { powerOfTwo(atLeast: postings / 128, from: 1 << 18, to: 1 << 22) }

  /// Cell lists of the match queue (`MatchQueue`): each mixes cells, and verifying a cell walks its list, so lists must
  /// stay short as the catalog's matches grow: one list per 1,024 postings, between 32 KB (L1) and 1 MB; 256 KB at
  /// 1,000 hours, about one live match per list.
  static func queueCellLists(postings: Int) -> Int {
    powerOfTwo(atLeast: postings / 1024, from: 1 << 13, to: 1 << 18)
  }

  /// A stretch of a sorted posting list this long (4 KB, 64 cache lines) is scanned rather than halved when a running
  /// play looks for its window in it (`LockstepLowerBound.lowerBound`): a binary search waits for a memory miss at each
  /// step, and the scan's loads are in flight together. A common hash of a 1,000 h catalog has a few hundred postings
  /// (at most its stop-hash cap, 1,876). Postings.
  static let scannedPostings = 1024

  /// Matches of one broadcast peak that `TargetAgreement` makes room for at start: the peak's lookups (fan-out ×
  /// hypotheses) return on average about half the stop-hash cap each; a peak with more grows the buffers once.
  static func agreementCapacity(lookupsPerPeak: Int, stopHashCap: Int) -> Int {
    min(1 << 20, lookupsPerPeak * max(12, stopHashCap) / 2)
  }

  private static func powerOfTwo(atLeast n: Int, from low: Int, to high: Int) -> Int {
    var p = low
    while p < n && p < high { p <<= 1 }
    return p
  }

  /// Verification gathers the matches of common hashes that did not vote (`CommonLookupHistory`) only around a
  /// cluster with at least this many target peaks that two anchors place on its diagonal: true matches of an airing
  /// agree so (the triplet index passes common matches only in such pairs); the chance clusters of rare hashes that
  /// make most candidates at 1,000 hours do not, and searching the window's lookups for each of them doubled the scan's
  /// CPU. Target peaks.
  static let minAgreeingTargetsToGatherCommon = 2

  /// A line confirmed with such matches needs this many target peaks that two of its anchors place on it, unless its
  /// matches are dense (`denseLineMatchesPerSecond`): a chance line of a distractor has few (5 s of `subcities x1.4809`
  /// over a dev song at 1,000 hours had 2 when this was set). Target peaks.
  static let minAgreeingTargetsOfLine = 3

  /// A line with at least this many aligned matches per second of its span (first anchor to last target) needs only
  /// `minAgreeingTargetsOfDenseLine`: chance matches spread thinly along a line, an airing's crowd on it. Traced on
  /// `radio` and `hard` seeds 1 and 2 at 100 h and 1,000 h, 904 checks of true lines failed on 3 (873 of them with 2
  /// such targets, 10–27 matches over 1.4–8 s) and held 89 plays back 0.3–6 s; the only chance line with 2 that reached
  /// the check, at 10,000 h (`subcities x1.4749` over a dev song), had 11 matches over 7.8 s: 1.4 a second. With the
  /// dense rule the 12 dev-catalog scans are byte-identical, no distractor is logged at 100, 1,000 or 10,000 h, and
  /// `radio`'s median latency is 0–0.44 s lower at 100 h and 1,000 h (seeds 1–3; 1.0 s at 10,000 h on seed 1), for no
  /// measurable CPU. Matches per second.
  static let denseLineMatchesPerSecond = 2.0

  /// Target peaks that two anchors place on a dense line (`denseLineMatchesPerSecond`). Target peaks.
  static let minAgreeingTargetsOfDenseLine = 2

  /// A sparse line (under `denseLineMatchesPerSecond`) confirmed with such matches needs this many aligned matches
  /// more than `MatcherSettings.minMatches`. A chance line and a true one look the same when they are first confirmed,
  /// and differ in what comes next: 7.4 s of the reversed copy of `Eastern_Dreams` over an unknown song, with the
  /// stop-hash cap keeping 70 % of the postings at 100 h (`CatalogBuilder.minKeptPostingShare`), had 10 matches, 7
  /// anchors and 3 agreeing targets over 7.4 s and no match after; `The Dangerous Symphony` on `radio` s2 was first
  /// confirmed with 10, 7 and 3 over 8.3 s, and kept growing. With 2 more, no distractor was logged at 100 h on
  /// `radio` seeds 1–5 and `hard` s1, and no median latency moved there; the dev-catalog scans are byte-identical
  /// (every match votes); at 1,000 h two plays of `radio` s1 and s3 were found 0.8 and 3.8 s later. Matches.
  static let sparseLineExtraMatches = 2

  /// Whether a line of `matches` aligned matches over `spanSeconds` is dense (`denseLineMatchesPerSecond`).
  static func isDense(lineWithMatches matches: Int, spanningSeconds spanSeconds: Double) -> Bool {
    Double(matches) >= denseLineMatchesPerSecond * spanSeconds
  }

  /// The target peaks that two anchors must place on a line of `matches` aligned matches over `spanSeconds`, when some
  /// of them did not vote.
  static func minAgreeingTargets(ofLineWithMatches matches: Int, spanningSeconds spanSeconds: Double) -> Int {
    isDense(lineWithMatches: matches, spanningSeconds: spanSeconds)
      ? minAgreeingTargetsOfDenseLine : minAgreeingTargetsOfLine
  }

  /// A new line of one track whose broadcast pairs (anchor and target peak) a running play of another track has
  /// matched already, at least this share of them, is that play's audio heard through a second catalog copy
  /// (`PlayedPairs`). A dev song and its copy 3 % faster, both in a catalog, shared 52–58 % of the copy's line's
  /// pairs as it was confirmed over the song's airing on `radio` s1; the 121 new lines confirmed while another
  /// track's play ran (crossfades, songs after talk) on the six `radio` and `hard` dev simulations shared at most 9 %.
  /// Fraction of the line's matches.
  static let minSharedPairShare = 0.25

  /// A cell that failed verification is verified again after this many more votes, so that a cluster that grows
  /// slowly (a sparse or quiet intro, a voice over it) is reported as soon as it passes. Every 6 votes left such a
  /// cluster unreported for up to 5 more matches (median latency on `hard` 0.1–0.8 s later); every vote gave the same
  /// latency as every 2, for twice the verifications of clusters that never pass (a repeated section beside a running
  /// play).
  static let reverifyEveryVotes = 2

  // MARK: Verification (`StreamMatcher+Verification`)

  /// Matches within this many frames of a candidate's diagonal are gathered as its cluster: its 8-frame vote cell and a
  /// little more on each side, so that a cluster split across cell edges, or drifting because the air's speed lies
  /// between two hypotheses (1 % moves the diagonal a frame every 100 frames), is gathered whole. Frames.
  static let clusterRadiusFrames = 12

  /// Slack added to `MatcherSettings.alignmentToleranceFrames` while the line is provisional (its intercept the median
  /// residual, its slope the hypothesis's, not fitted): inliers are chosen generously there, and the fitted line then
  /// keeps those within the tolerance itself. Frames.
  static let provisionalLineSlackFrames = 1.0

  /// The unmodified hypothesis (speed 1) wins over the best-supported one when it has at least this share of its
  /// support and the best is the next speed step: a young cluster barely tells those slopes apart, and most broadcasts
  /// are not sped up (a later refit corrects a small difference).
  static let unmodifiedSpeedShareNextStep = 0.8

  /// The same share against a speed two steps or more away: 0.8 there let a song stretched 4 % settle at speed 1,
  /// beyond what a refit of its line corrects, once refined peak times made clusters reach `minMatches` sooner.
  static let unmodifiedSpeedShareFurther = 0.95

  /// The line's slope is fitted by least squares only when its inliers spread this far (standard deviation) along the
  /// broadcast, about ±1 s; a narrower cluster keeps the hypothesis's speed, which it cannot measure better. Frames.
  static let slopeFitMinSpreadFrames = 30.0

  /// A confirmed line this close to a running play's line of the same track (at the middle of its matches) is that
  /// play's line: its matches came before the play started, or the play's line is still settling. Frames.
  static let sameLineFrames = 8.0

  /// A running play of another track with this many times the matches over the same stretch explains a new line as
  /// shared material (a similar track); a weaker one is a crossfade, and the new line is a play.
  static let crossfadeStrengthRatio = 8

  /// A play of the same track whose matches stopped less than this before a new, stronger line of it began, short of
  /// the track's end, had locked onto a repeated section: the new line takes it over. Seconds.
  static let handOverSeconds = 3.0

  /// A play of the same track detected less than this long ago, on a nearby line or at the track's opening, is young:
  /// a stronger line takes it over instead of starting a second play. A young play does not end an older play of its
  /// track that waits for its line to resume (`StreamMatcher.mayResume`). Seconds.
  static let youngPlaySeconds = 20.0

  /// A line within this distance of a young play's line (at the new line's middle) is nearby. Seconds of reference.
  static let nearbyLineSeconds = 10.0

  /// An early inlier more than this before the next, further into the reference than its start can reach, is a stray,
  /// not the play's start. The vote window remembers 8 s, and a few matches from before a song sit on its line by
  /// chance (talk or a jingle hashing like some reference pair). For a song joined in the middle, no reference edge
  /// bounds the start, and the earliest such match moved it 2–5 s early (9 plays of the `radio` and `hard`
  /// simulations, seeds 1–3; 8 of them now start within 1 s, the ninth 1.1 s early). Near the reference's start,
  /// isolated early matches are the song's own quiet intro, and the play snaps to that start anyway: without that
  /// condition, true matches of quiet intros under heavy noise were dropped and three `hard` plays started 9–11 s
  /// late. A 1 s gap instead of 2 s moved five `hard` plays that were found late anyway a further 1.6–2.3 s late
  /// (2 s: two, by 2.3 s). Seconds.
  static let strayGapSeconds = 2.0

  // MARK: Running plays (`RunningPlay`)

  /// A play's end moves to a match only where its support is sustained: the 3 latest distinct anchor peaks of its
  /// matches within this many second-long buckets (`RunningPlay.bucketFrames`, 32 frames). Counting matches alone let
  /// one anchor whose pairs hit a held note of the reference (up to 8 matches from one peak) stretch a song cut short
  /// 10–40 s into the next song.
  static let sustainedSupportBuckets: Int32 = 2

  /// The same, while another track's play has sustained support more than a second past this one's (the next song).
  static let contestedSustainedSupportBuckets: Int32 = 1

  /// Or, uncontested, at least this many matches in the current and previous bucket (dense support): distinct anchors
  /// alone cut the sparse true endings of songs under heavy noise 10–13 s short (`hard` simulations). A play's first
  /// matches move its end whatever their support.
  static let denseSupportMatches = 3

  /// Dense support counts only while the play's last sustained support is under this many buckets old; after that,
  /// matches that come back must be strong.
  static let denseSupportMaxAgeBuckets: Int32 = 6

  /// A play whose line has had no sustained support for longer than `MatcherSettings.maxGapSeconds` is held open for
  /// its airing to be heard again (`maxSilentLineSeconds`); matches that come back move its end only when its last
  /// `sustainedSupportBuckets` seconds hold at least this share of the play's mean match rate. The line's acceptance
  /// widens as it is extrapolated, and other audio can put three chance matches on it within two seconds: a chord pad
  /// under an ad stretched `Vengeful` on `radio` s2 58 s past its cut with the dev catalog; another song and unknown
  /// music stretched two more by 50 and 109 s; each at 0.03–0.04 of its play's mean rate. The ten airings heard again
  /// after 20–32 s came back at 0.34 or more (traced on `radio` s1–s9 and `hard` s1–s7 at the dev, 100 h and 1,000 h
  /// catalogs). Unknown music that took up a song's line 85 s after it ended, at 0.35 (`hard` s7, 100 h and 1,000 h),
  /// passes this share: `minResumedAnchors` stops it. A share of the mean rate.
  static let minResumedSupportShare = 0.1

  /// Matches that come back on a held line (above) move its end only once they come from this many distinct anchor
  /// peaks within `resumedSupportBuckets` seconds: what a new play's line needs from its matches (two thirds of
  /// `MatcherSettings.minMatches`, 10) within the vote window (8 s). The chance matches that stretched a play over
  /// unknown music came from 3–5 distinct anchors, most of them several matches of one peak (as a note held in both
  /// recordings gives; `sustainedSupportBuckets`): the 85 s above, a cut `Knolls` 114 s on `hard` s8 and a cut
  /// `Weight Of Revenge` 23 s on `radio` s10. The six airings heard again after 20–46 s (twelve resumptions over the
  /// dev, 100 h and 1,000 h catalogs) reached 7 within 1.8–4.5 s of the first match that moved their end before, and
  /// ended where they did (traced on `radio` s1–s10 and `hard` s1–s8). At most 7: `RunningPlay.recentAnchors` keeps the
  /// 7 latest.
  static let minResumedAnchors = 7
  static let resumedSupportBuckets: Int32 = 8

  /// A running play refits its line by least squares from this many matches on, and again whenever its matches have
  /// grown by half that or a quarter (`refitGrowthDivisor`) since the last fit: often enough to follow a line that
  /// started on a neighbouring speed hypothesis before it loses its matches, rarely enough to cost nothing.
  static let firstRefitMatches = 16
  static let refitGrowthDivisor = 4

  /// A refitted slope outside this range (bounds excluded) is not a speed change a station makes (the search covers ±6 %); the line
  /// keeps its slope.
  static let refitSlopeRange = 0.85...1.15

  /// A running play's slope is uncertain by about this many frames over the spread of its matches (at least
  /// `slopeFitMinSpreadFrames`), so `RunningPlay.accepts` widens its tolerance by that slope times the distance from
  /// its matches. Frames.
  static let slopeUncertaintyFrames = 3.0

  /// And by at most this slope: the speed grid's step, within which the verifier's line already is.
  static let maxSlopeUncertainty = 0.02
}
