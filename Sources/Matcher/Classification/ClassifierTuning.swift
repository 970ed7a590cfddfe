/// The air classifier's constants, each with its unit and why it has its value, gathered here (see README
/// "Unknown music").
enum ClassifierTuning {
  // MARK: Features (AirFeatureExtractor)

  /// Frames per classification window: 32 frames of 32 ms, about 1 s, the resolution of the labelled timeline.
  static let windowFrames = 32
  /// Frames of level history for pauses and syllable modulation: 64 frames, about 2 s, enough for eight syllables
  /// and for the 0.5 Hz steps of the modulation spectrum.
  static let envelopeFrames = 64
  /// Flatness and harmonicity are measured on every 8th frame (4 per window): their window means hardly move, and
  /// they are the dearest features (a logarithm per bin, a comb of 42 lags).
  static let sampledFrameStride = 8
  /// Flux compares the amplitude spectra of every 2nd frame (64 ms apart), which halves its square roots; a
  /// phoneme lasts longer than that.
  static let fluxFrameStride = 2
  /// Power below this (|X|², about -100 dB) counts as this: keeps the logarithms of digital silence finite.
  static let powerFloor: Float = 1e-10
  /// A frame this far (dB) below the mean power of the last 2 s is a pause: a gap between words falls 15–30 dB,
  /// a compressed song rarely more than 10.
  static let lowEnergyDropDB = 12.0
  /// Syllable rate band of the level's modulation spectrum: 2–8 Hz around speech's 4 Hz.
  static let syllableMinHz = 2.0
  static let syllableMaxHz = 8.0
  /// Harmonicity looks at the band up to 2 kHz (where voices and instruments keep their partials resolved at 7.8 Hz
  /// per bin) for fundamentals from 80 to 400 Hz.
  static let harmonicityMaxHz = 2000.0
  static let minFundamentalHz = 80.0
  static let maxFundamentalHz = 400.0

  // MARK: Window labels (AirClassifier)

  /// Windows quieter than this (mean band power, dB re a full-scale sine) are silence: the noise floor of a quiet
  /// studio or a dropout, 30 dB or more below programme level.
  static let silenceLevelDB = -55.0
  /// Each speech feature is scaled from 0 at its usual value in music to 1 at its usual value in speech, and the
  /// window's speech score is their mean. The ends are the medians measured on the dev simulation
  /// `dev-radio-s1` (broadcast-processed music against synthetic talk, ads and jingles; README "Unknown music"):
  /// syllable modulation 1.0 dB in music, 4.0 dB and more in talk (speech's level rises and falls with each
  /// syllable, a mixed song's hardly);
  static let musicModulationDB = 1.0
  static let speechModulationDB = 4.0
  /// spectral flux (frames 64 ms apart) 0.27 in music, 0.43 in talk and ads (a voice's formants move from phoneme
  /// to phoneme; instruments hold their notes);
  static let musicFlux = 0.27
  static let speechFlux = 0.43
  /// harmonicity 0.30 in music (many notes at once blur one comb), 0.50 in talk (one voice, one comb).
  static let musicHarmonicity = 0.30
  static let speechHarmonicity = 0.50
  /// A window scoring at least this is speech; at most `musicMaxScore`, music; between the two, `mixed` (a voice
  /// over music scores in between). On dev-radio-s1, 97 % of music windows score at most 0.4 and under 1 % at least
  /// 0.6; 99 % of talk and 93 % of ad windows score at least 0.6.
  static let speechMinScore = 0.6
  static let musicMaxScore = 0.4

  // MARK: Stretches (AirSegmenter)

  /// Windows on each side whose labels vote on a window's smoothed label: ±4 s bridges a pause in music and a
  /// sung phrase in talk.
  static let voteRadiusWindows = 4
  /// Seconds a window waits before it is labelled for good: the stream matcher reports a play 5–20 s after it
  /// starts and dates it back; waiting this long lets the catalog claim its stretch first. A song whose opening was
  /// masked moves its start later still: judged once the play has matched 20 s (its opening of
  /// `MatcherTuning.openingBuckets` seconds and as long again; later when its matches are sparse), reported at the
  /// next progress report (5 s), and moved back by up to `MatcherSettings.noisyOpeningSnapSeconds` (20 s): at the
  /// soonest, 45 s after the earliest second it claims. On `hard` s3–s6, with the dev and the 1,000 h catalogs, no
  /// unknown-music stretch overlaps a play by more than half a second (a window's edge).
  static let holdSeconds = 45.0
  /// Other music shorter than this is `mixed`, not an unknown segment: the 20 s (jingles, beds and the
  /// tails of catalog plays are shorter).
  static let minUnknownSeconds = 20.0
  /// A `mixed` run at most this long between two runs of other music is part of that music: a quiet or sparse
  /// passage scores between music and speech for a few seconds (6 s in a song of dev-radio-s1), while talk between
  /// two songs lasts longer or scores as speech.
  static let maxBridgeSeconds = 10.0
  /// A catalog play covering at least this share of a window labels it `catalog`.
  static let catalogCoverShare = 0.5
}

extension ClassifierTuning {
  /// Query peaks kept for fingerprinting unknown segments: 20 min, longer than almost any song plus the hold; a
  /// longer segment is fingerprinted over its last 20 min (about 20 peaks a second, 16 bytes each: 0.4 MB).
  static let peakHistorySeconds = 1200.0
}

extension ClassifierTuning {
  /// A new unknown segment joins an earlier one's cluster when the matcher finds it there over at least 10 s: the
  /// matcher's own bar for a catalog play is lower, and two songs share no 10 s stretch of pair hashes by chance.
  static let clusterMinMatchSeconds = 10.0
  /// Two matches of one unknown segment that overlap by more than this share of the shorter are two takes on one
  /// stretch (the stronger is kept); less is a crossfade between two recordings (5 s at most on the dev
  /// simulations, against matches of 10 s and more).
  static let maxMatchOverlapShare = 0.5
  /// The airings of each stretch of a cluster's recording that the unknown-music search holds (`UnknownClusters`):
  /// a new airing is searched for later ones only where fewer than this many searched airings of its cluster cover
  /// a stretch of it at least `clusterMinMatchSeconds` long. Each airing's reference is its own noisy copy, so a few
  /// give a noisy new airing more than one chance of a match; every one more is matched again by every later airing
  /// (with every airing searched, an airing of a recording heard 16 times before took 10-19 s to place:
  /// `Benchmarks unknown-clusters 120 6`), and a station repeats its music for months.
  static let searchedAiringsPerStretch = 3
}

extension ClassifierTuning {
  /// Unknown music stays on air (for a console) through at most this many seconds of windows labelled otherwise: a
  /// quiet passage or a word over the music, as the ±4-window vote bridges them.
  static let onAirBreakSeconds = 5.0
  /// Unknown music on air is matched against the earlier unknown segments every this many seconds, over its last
  /// this many seconds, until its cluster is found: twice the 10 s a cluster match needs, and one match of a few
  /// milliseconds every 20 s.
  static let onAirIdentifySeconds = 20.0
}

extension ClassifierTuning {
  /// Two unknown segments that start or end at the same point of a cluster (within `splitStartToleranceSeconds`),
  /// while an earlier segment of it runs at least this many seconds on each side of that point, split that cluster
  /// there (`UnknownClusters`): they show that a recording starts there (two unknown songs aired back to back the
  /// first time made the earlier segment). 30 s: more than the 20 s a segment needs, and than a voice over an intro
  /// (at most 3.7 s in the 55 of the dev simulations), which can move a segment's start later. One airing joined
  /// mid-song splits nothing (it starts anywhere; two seldom start at one point); a radio edit that starts later than
  /// the first airing's version does, once it has aired twice: see README "Unknown music".
  static let minSplitHeadSeconds = 30.0
  /// Two segments start (or end) at the same point of their cluster when their edges differ by at most this: the
  /// classifier's labels are ±1 s windows smoothed over ±4, and a voice over the start moves it a few seconds.
  static let splitStartToleranceSeconds = 4.0
}
