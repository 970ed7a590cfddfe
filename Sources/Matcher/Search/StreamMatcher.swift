import CPrefetch
import Foundation

/// Finds catalog plays in one channel's audio, continuously (ShazamKit's managed session, for broadcast).
///
/// Feed it audio in buffers of any size, sample rate and channel count; it reports plays as they start, while they
/// continue, and when they end, to its `MatchEventSink`. The same matcher runs live and in `scan`, so a scan predicts
/// what the live monitor logs.
///
/// How: peaks of the incoming audio are paired and hashed once per speed hypothesis (see `SpeedHypothesis`). Each
/// hash found in the catalog is a match: one on a running play's line extends that play; any other votes for a
/// diagonal (reference frame minus speed × broadcast frame), a match of a common hash only where a second anchor
/// agrees (`TargetAgreement`). A diagonal with enough votes is verified by fitting a line through its matches; a line
/// with enough aligned matches is a play. A play ends when its line has had no matches for `maxGapSeconds`, unless
/// it may still resume on that line (`mayResume`).
///
/// One thread at a time: the worker that owns the channel.
public final class StreamMatcher {
  /// Like ShazamKit's session states.
  public enum State: String, Sendable {
    /// No audio yet, or the stream was flushed.
    case idle
    /// Listening, nothing from the catalog on the air.
    case prerecording
    /// At least one play is running.
    case matching
  }

  public let catalog: Catalog
  public let settings: MatcherSettings
  public private(set) var state: State = .idle
  let parameters: FingerprintParameters
  let hasher: PairHasher
  let hypotheses: [SpeedHypothesis]
  private var frontEnd: FingerprintFrontEnd!
  private let relay = PeakRelay()
  weak var sink: (any MatchEventSink)?
  /// Labels the air from the same spectra and peaks (see `AirWatch`); it receives the events first and passes them
  /// on to the sink.
  public let air: AirWatch?

  // Time.
  private var originSeconds: Double?
  var framesPerSecond: Double { parameters.framesPerSecond }

  // Recent peaks, for pairing.
  var peakFrames: [Int32] = []
  var peakPitches: [Float] = []
  /// Where the same peaks lie between frames (`Peak.frameOffset`): a pair's refined time is its whole frames apart
  /// plus their difference, as `Peak.frames(after:)` reckons it.
  var peakFrameOffsets: [Float] = []
  var peakPairCounts: [UInt8] = []
  var peakStart = 0
  let maxQueryPairFrames: Int32

  // The search for new plays.
  let votes: VoteTable
  /// Cell lists are far fewer than vote slots (`MatcherTuning.queueCellLists`); a list mixes cells, and `gather`
  /// checks each match it walks.
  let queue: MatchQueue
  var candidates: [(hypothesis: Int, diagonal: Int)] = []
  let windowFrames: Int32
  /// `MatcherSettings.maxGapSeconds` in frames: a play whose line goes this long without sustained support ends, or is
  /// only held open for its airing to resume (`mayResume`).
  let maxGapFrames: Int32

  // Plays.
  var active: [RunningPlay] = []
  /// The last few plays that ended, to recognise a repeated section that outlived the play it belongs to.
  var recentlyEnded: [RunningPlay] = []
  var nextPlayID = 1
  var newestFrame: Int32 = -1
  var lastNoMatchSeconds: Double = 0
  /// The postings of the hash looked up last (reused while the next hypothesis gives the same hash).
  private let postingScratch = PostingScratch()
  private var currentPostings = UnsafeBufferPointer<UInt32>(start: nil, count: 0)
  /// The current peak's matches of common hashes that no running play took, until `agreement` passes those that
  /// another anchor backs to the search (a catalog without a triplet index).
  let agreement: TargetAgreement
  /// The current peak's lookups of common hashes, one per anchor and hash, to be searched in pairs in the catalog's
  /// triplet index.
  var commonLookups: ScratchList<CommonLookup>
  /// The common lookups of the vote window, for verification to gather the matches on a line that did not vote.
  let commonHistory: CommonLookupHistory
  /// Indices of `commonLookups` by hypothesis (a lookup under each of its hypotheses), and where each hypothesis's run
  /// starts (`searchTriplets`).
  var lookupsByHypothesis: [Int32] = []
  var hypothesisRunStarts: [Int] = []
  /// Frames of the catalog's reference axis (its tracks laid end to end), at least 1.
  let catalogFrames: UInt64
  /// `guessMultiplier(axisFrames: catalogFrames)`, for `guess`.
  let guessMultiplier: UInt64
  /// The current peak's lookups, planned before any is looked up (`lookUpPlanned`).
  var plannedLookups: ScratchList<PlannedLookup>
  /// The windows of reference frames the running plays accept for one lookup (`offerToPlays(postingsOf:)`).
  var playWindows: [ClosedRange<UInt32>] = []
  /// The current peak's pairs of common lookups, their hits in the triplet index, the searches that confirm those
  /// hits, and the matches they give (`searchTriplets`), as keys (`tripletMatchKey`).
  var tripletProbes = ScratchList<TripletProbe>(capacity: 1024)
  /// Whether triplet hits are confirmed in the pair index before they are searched: as the catalog's size decides
  /// (`MatcherTuning.confirmsHits`), or as a test sets it, to run the other way on the same catalog.
  var confirmsTripletHits: Bool
  /// The most hits a triplet probe may have before its key is a stop key (`MatcherTuning.tripletKeyHitCap`), or as a
  /// test sets it.
  var tripletKeyHitCap: Int
  var tripletHits = ScratchList<TripletHit>(capacity: 1024)
  let lowerBounds = FencedLowerBounds()
  /// The searches of `forEachPosting(inRanges:)` in long posting lists, and where each of its ranges starts.
  let rangeBounds = FencedLowerBounds()
  var rangeStarts: [Int] = []
  var tripletMatchKeys = ScratchList<UInt64>(capacity: 2048)
  /// The distinct matches of `tripletMatchKeys` that no running play takes (`searchingTripletMatches`).
  var tripletMatches = ScratchList<TripletMatch>(capacity: 1024)
  /// The matches of `tripletMatchKeys` taken so far, to take each once.
  let distinctTripletMatches = ScratchKeySet(capacity: 1024)
  /// Verification's bookkeeping, kept from call to call (`StreamMatcher+Verification`): the cells a batch verified, the
  /// vote slots a gathering walked, the count of its targets that two anchors agree on, the matches it holds, and the
  /// common lookups whose postings it searches.
  let verifiedCells = ScratchKeySet()
  /// The broadcast pairs each running play matched lately, to tell a second catalog copy of its audio from another
  /// item over it (`PlayedPairs`).
  let playedPairs = PlayedPairs()
  var gatheredSlots: [Int] = []
  let agreeingTargetCounter = AgreeingTargetCounter()
  let gatheredMatches = ScratchKeySet()
  var gatheringEntries: [CommonLookupHistory.Entry] = []
  var gatheringRequests: [PostingRangeRequest] = []
  /// The buffers that `support` gathers each other hypothesis's matches into.
  var supportGathering = GatheredMatches()
  /// `scaledFrames[dt · hypotheses + h]` = round(dt × speed of h): a broadcast pair distance on the reference's scale.
  let scaledFrames: UnsafeMutableBufferPointer<Int>
  /// Each hypothesis's speed, for refined pair times.
  let hypothesisSpeeds: [Float]
  /// 2 when pairs near a rounding boundary are also looked up with the other rounding, else 1.
  let pairTimePasses: Int
  let pairTimeMargin: Float

  /// - Parameters:
  ///   - catalog: the catalog to match against; its fingerprint parameters are used.
  ///   - settings: search and segmentation settings (per-channel overrides).
  ///   - sink: receives the events; held weakly.
  ///   - air: when given, classifies the air from the matcher's own spectra and peaks, and sees the events on their
  ///     way to `sink` (held by the matcher).
  public init(
    catalog: Catalog, settings: MatcherSettings = MatcherSettings(), sink: (any MatchEventSink)?,
    air: AirWatch? = nil
  ) {
    self.catalog = catalog
    self.settings = settings
    parameters = catalog.parameters
    hasher = PairHasher(parameters: parameters)
    hypotheses = SpeedHypothesis.grid(maxDeviation: settings.maxSpeedDeviation, step: settings.speedStep)
      .sorted { ($0.pitchShifted ? 1 : 0, $0.speed) < ($1.pitchShifted ? 1 : 0, $1.speed) }
    maxQueryPairFrames = Int32((Double(parameters.maxPairFrames) / (1 - settings.maxSpeedDeviation)).rounded(.up))
    windowFrames = Int32(settings.voteWindowSeconds * parameters.framesPerSecond)
    maxGapFrames = Int32(settings.maxGapSeconds * parameters.framesPerSecond)
    hypothesisSpeeds = hypotheses.map { Float($0.speed) }
    pairTimeMargin = Float(settings.pairTimeMarginFrames)
    pairTimePasses = parameters.interpolatePeakTimes && settings.pairTimeMarginFrames > 0 ? 2 : 1
    scaledFrames = .allocate(capacity: (Int(maxQueryPairFrames) + 1) * hypotheses.count)
    for dt in 0...Int(maxQueryPairFrames) {
      for (h, hypothesis) in hypotheses.enumerated() {
        scaledFrames[dt * hypotheses.count + h] = Int((Double(dt) * hypothesis.speed).rounded())
      }
    }
    let lookupsPerPeak = parameters.queryFanOut * hypotheses.count * pairTimePasses
    agreement = TargetAgreement(
      capacity: MatcherTuning.agreementCapacity(lookupsPerPeak: lookupsPerPeak, stopHashCap: catalog.stopHashCap))
    commonLookups = ScratchList(capacity: 4 * lookupsPerPeak)
    lookupsByHypothesis.reserveCapacity(4 * lookupsPerPeak)
    hypothesisRunStarts = [Int](repeating: 0, count: hypotheses.count + 1)
    precondition(maxQueryPairFrames < 1 << 23 && hypotheses.count <= 256, "a triplet match key holds them")
    confirmsTripletHits = catalog.triplets.map(MatcherTuning.confirmsHits(of:)) ?? true
    tripletKeyHitCap = catalog.triplets.map(MatcherTuning.tripletKeyHitCap(of:)) ?? .max
    playWindows.reserveCapacity(16)
    catalogFrames = max(1, catalog.tracks.last.map { UInt64($0.globalStartFrame) + UInt64($0.frameCount) } ?? 1)
    guessMultiplier = Self.guessMultiplier(axisFrames: catalogFrames)
    plannedLookups = ScratchList(capacity: 4 * lookupsPerPeak)
    commonHistory = CommonLookupHistory(hypotheses: hypotheses.count)
    votes = VoteTable(slots: MatcherTuning.voteSlots(postings: catalog.index.postings.count))
    queue = MatchQueue(cells: MatcherTuning.queueCellLists(postings: catalog.index.postings.count))
    self.air = air
    air?.downstream = sink
    self.sink = air ?? sink
    relay.matcher = self
    makeFrontEnd()
  }

  private func makeFrontEnd() {
    let bins = SpectrumAnalyzer.binRange(parameters)
    frontEnd = FingerprintFrontEnd(
      parameters: parameters, peaksPerBlock: parameters.queryPeaksPerBlock, consumer: relay,
      spectrumTap: air?.startStream(firstBin: bins.first, binCount: bins.count), audioRing: air?.audioRing)
  }

  deinit {
    commonLookups.deallocate()
    plannedLookups.deallocate()
    tripletProbes.deallocate()
    tripletHits.deallocate()
    tripletMatchKeys.deallocate()
    tripletMatches.deallocate()
    scaledFrames.deallocate()
  }

  /// Stream time of the end of the audio consumed so far.
  public var streamSeconds: Double {
    (originSeconds ?? 0)
      + Double(frontEnd.samplesAtFingerprintRate + signatureSamples) / Double(parameters.sampleRateHz)
  }

  /// Samples of a signature that `match(_:)` replays: audio the front end did not see, which the stream's time
  /// counts.
  var signatureSamples = 0

  /// Plays running now.
  public var currentPlays: [MatchedPlay] { active.map { snapshot(of: $0, final: false) } }

  /// Consumes interleaved audio.
  /// - Parameter time: stream time of the first sample; only the first call's value is used (default 0), later
  ///   buffers are taken to follow without a gap.
  public func append(
    _ samples: UnsafeBufferPointer<Float>, channels: Int = 1, sampleRate: Double, at time: Double? = nil
  ) throws(AudioError) {
    if originSeconds == nil {
      originSeconds = time ?? 0
      air?.originSeconds = originSeconds!
      lastNoMatchSeconds = originSeconds!
      state = .prerecording
    }
    try frontEnd.append(samples, channels: channels, sampleRate: sampleRate)
  }

  /// Ends the stream: every running play ends at its last match. The matcher is idle afterwards and can be `reset`.
  public func flush() {
    frontEnd.flush()
    let ending = active
    for play in ending { end(play) }
    active.removeAll()
    state = .idle
    air?.finish()
  }

  /// Forgets everything (plays are dropped without events): ready for a new stream.
  public func reset() {
    makeFrontEnd()
    originSeconds = nil
    signatureSamples = 0
    peakFrames.removeAll()
    peakPitches.removeAll()
    peakFrameOffsets.removeAll()
    peakPairCounts.removeAll()
    peakStart = 0
    queue.removeAll()
    votes.removeAll()
    commonHistory.removeAll()
    candidates.removeAll()
    active.removeAll()
    playedPairs.removeAll()
    recentlyEnded.removeAll()
    newestFrame = -1
    state = .idle
  }

  /// Stream time of a (fractional) frame centre.
  func seconds(ofFrame frame: Double) -> Double { (originSeconds ?? 0) + parameters.seconds(ofFrame: frame) }

  // MARK: - Peaks to matches

  func consume(peaks: ArraySlice<Peak>, throughFrame: Int) {
    let maxInterval = Float(parameters.maxPairSemitones)
    let fanOut = UInt8(parameters.queryFanOut)
    for peak in peaks {
      let frame = peak.frame
      let pitch = hasher.pitch(ofBin: peak.bin)
      newestFrame = max(newestFrame, frame)
      while peakStart < peakFrames.count && frame - peakFrames[peakStart] > maxQueryPairFrames { peakStart += 1 }
      agreement.begin()
      plannedLookups.removeAll()
      commonLookups.removeAll()
      var j = peakStart
      while j < peakFrames.count {
        let dtq = frame - peakFrames[j]
        let interval = pitch - peakPitches[j]
        if dtq >= 1 && abs(interval) <= maxInterval && peakPairCounts[j] < fanOut {
          peakPairCounts[j] += 1
          let anchorFrame = peakFrames[j]
          let anchorPitch = peakPitches[j]
          if parameters.interpolatePeakTimes {
            // The refined time difference on each hypothesis's scale, rounded as the reference rounded it; close to
            // a rounding boundary, the other rounding too (a second pass, so that each pass reuses its postings).
            let refined = Float(dtq) + (peak.frameOffset - peakFrameOffsets[j])
            for pass in 0..<pairTimePasses {
              for h in hypotheses.indices {
                let scaled = refined * hypothesisSpeeds[h]
                let nearest = scaled.rounded()
                var dt = Int(nearest)
                if pass == 1 {
                  let rest = scaled - nearest
                  guard abs(rest) >= 0.5 - pairTimeMargin else { continue }
                  dt += rest > 0 ? 1 : -1
                }
                planLookUp(
                  hypothesis: h, frames: dt, anchorPitch: anchorPitch, interval: interval, anchorFrame: anchorFrame)
              }
            }
          } else {
            let dts = scaledFrames.baseAddress! + Int(dtq) * hypotheses.count
            for h in hypotheses.indices {
              planLookUp(
                hypothesis: h, frames: dts[h], anchorPitch: anchorPitch, interval: interval, anchorFrame: anchorFrame)
            }
          }
        }
        j += 1
      }
      lookUpPlanned(targetFrame: frame)
      if let triplets = catalog.triplets {
        searchTriplets(triplets, targetFrame: frame)
        commonHistory.append(commonLookups, targetFrame: frame)
      } else {
        searchAgreedMatches(targetFrame: frame)
      }
      peakFrames.append(frame)
      peakFrameOffsets.append(peak.frameOffset)
      peakPitches.append(pitch)
      peakPairCounts.append(0)
    }
    newestFrame = max(newestFrame, Int32(clamping: throughFrame))
    if peakStart > 4096 {
      peakFrames.removeFirst(peakStart)
      peakFrameOffsets.removeFirst(peakStart)
      peakPitches.removeFirst(peakStart)
      peakPairCounts.removeFirst(peakStart)
      peakStart = 0
    }
    afterBatch()
  }

  /// One lookup of the current peak: a pair (anchor to the peak) under hypothesis `hypothesis`, its distance `frames`
  /// on the reference's scale, and where its hash's postings lie in the pair index (when its directory holds whole
  /// hashes).
  struct PlannedLookup {
    var hypothesis: UInt8
    var anchorFrame: Int32
    var frames: Int32
    var hash: UInt32
    var postingsStart: UInt32 = 0
    var postingsEnd: UInt32 = 0
  }

  /// Plans the lookup of a broadcast pair under hypothesis `h`, with `dt` on the reference's scale.
  @inline(__always)
  private func planLookUp(hypothesis h: Int, frames dt: Int, anchorPitch: Float, interval: Float, anchorFrame: Int32) {
    guard dt >= 1 && dt <= parameters.maxPairFrames,
      let hash = hasher.layout.hash(
        anchorPitch: anchorPitch - hypotheses[h].pitchShift, interval: interval, frames: dt)
    else { return }
    if catalog.index.residualBits == 0 {
      cprefetch_read(catalog.index.directory.baseAddress! + Int(hash))
    }
    plannedLookups.append(
      PlannedLookup(hypothesis: UInt8(h), anchorFrame: anchorFrame, frames: Int32(dt), hash: hash))
  }

  /// Looks the current peak's planned lookups up, in order; each posting is a match. Three steps, each over all of
  /// them before the next, so that the memory misses of a step overlap instead of following one another: the
  /// directory slots of their hashes (asked for already as each lookup was planned, `cprefetch_read`); the first
  /// postings that each lookup will read (all of a short list; the first running play's window in a long one), asked
  /// for ahead; then the lookups themselves.
  private func lookUpPlanned(targetFrame: Int32) {
    let index = catalog.index
    if index.residualBits == 0 {
      let directory = index.directory
      for i in plannedLookups.indices {
        let slot = Int(plannedLookups[i].hash)
        plannedLookups[i].postingsStart = directory[slot]
        plannedLookups[i].postingsEnd = directory[slot + 1]
      }
      let postings = index.postings
      let play = active.first
      for l in plannedLookups where l.postingsStart < l.postingsEnd {
        let count = Int(l.postingsEnd - l.postingsStart)
        var at = -1
        if count <= MatcherTuning.maxPostingsSearchedAlone {
          at = Int(l.postingsStart)
        } else if let play,
          let window = play.acceptedReferences(anchorFrame: l.anchorFrame, tolerance: settings.alignmentToleranceFrames)
        {
          at = Int(l.postingsStart) + min(count - 1, guess(of: window.lowerBound, count: count))
        }
        if at >= 0 { cprefetch_read(postings.baseAddress! + at) }
      }
    }
    var previousHash: UInt32 = .max
    for l in plannedLookups {
      if index.residualBits == 0 {
        currentPostings = UnsafeBufferPointer(
          rebasing: index.postings[Int(l.postingsStart)..<Int(l.postingsEnd)])
      } else if l.hash != previousHash {
        currentPostings = postingScratch.postings(of: l.hash, in: index)
        previousHash = l.hash
      }
      lookUp(l, targetFrame: targetFrame)
    }
  }

  /// Where `reference` is likely to lie among `count` postings of a common hash: they spread over the catalog's
  /// frames about evenly. A guess only says where a search starts.
  @inline(__always)
  func guess(of reference: UInt32, count: Int) -> Int {
    Self.guess(of: reference, count: count, multiplier: guessMultiplier)
  }

  /// ⌊(2^64 − 1) / `axisFrames`⌋ (`axisFrames` ≥ 1): `guess(of:count:multiplier:)` multiplies by it rather than
  /// dividing by `axisFrames`, since a 64-bit division waits tens of cycles and a scan at 1,000 hours makes millions of
  /// guesses an hour (each triplet hit's confirmation makes one).
  static func guessMultiplier(axisFrames: UInt64) -> UInt64 { UInt64.max / axisFrames }

  /// `reference` × `count` / `axisFrames`, rounded down, or one less (the multiplier is rounded down, and the product
  /// is below 2^64); so below `count` for a reference below `axisFrames`. `count` is a posting count (below 2^32).
  @inline(__always)
  static func guess(of reference: UInt32, count: Int, multiplier: UInt64) -> Int {
    Int((UInt64(reference) &* UInt64(count)).multipliedFullWidth(by: multiplier).high)
  }

  /// A planned lookup, whose postings are `currentPostings`; each posting is a match.
  @inline(__always)
  private func lookUp(_ l: PlannedLookup, targetFrame: Int32) {
    let h = Int(l.hypothesis)
    let (anchorFrame, hash, dt) = (l.anchorFrame, l.hash, Int(l.frames))
    // A hash with few postings is evidence by itself; one with many is mostly chance, and searched only where
    // another anchor agrees: through the triplet index, where running plays only take their matches here, or else
    // by `TargetAgreement`.
    let common = currentPostings.count > MatcherTuning.maxPostingsSearchedAlone
    if common && catalog.triplets != nil {
      if !active.isEmpty { offerCurrentPostingsToPlays(anchorFrame: anchorFrame, targetFrame: targetFrame) }
      noteCommonLookup(hypothesis: h, anchorFrame: anchorFrame, hash: hash)
      return
    }
    for position in currentPostings {
      if offerToPlays(anchorFrame: anchorFrame, targetFrame: targetFrame, reference: position) { continue }
      if !common {
        search(hypothesis: h, anchorFrame: anchorFrame, targetFrame: targetFrame, reference: position)
        continue
      }
      agreement.append(
        PeakMatch(hypothesis: UInt8(h), anchorFrame: anchorFrame, reference: position, target: position &+ UInt32(dt)))
    }
  }

  /// Adds a common lookup to `commonLookups`, or its hypothesis to the same anchor's lookup of the same hash: a
  /// peak's lookups come anchor by anchor, so that lookup, if any, is among the last few.
  @inline(__always)
  private func noteCommonLookup(hypothesis h: Int, anchorFrame: Int32, hash: UInt32) {
    var i = commonLookups.count - 1
    while i >= 0 && commonLookups[i].anchorFrame == anchorFrame {
      if commonLookups[i].hash == hash {
        commonLookups[i].hypotheses.insert(h)
        return
      }
      i -= 1
    }
    commonLookups.append(CommonLookup(anchorFrame: anchorFrame, hash: hash, hypotheses: HypothesisSet(h)))
  }

  /// Offers the running plays the postings of the current lookup (`currentPostings`, in frame order) on their lines:
  /// those in the windows they accept, found by search in a long posting list (windows that overlap are merged, so
  /// that no posting is offered twice).
  private func offerCurrentPostingsToPlays(anchorFrame: Int32, targetFrame: Int32) {
    playWindows.removeAll(keepingCapacity: true)
    for i in active.indices {
      if let w = active[i].acceptedReferences(anchorFrame: anchorFrame, tolerance: settings.alignmentToleranceFrames) {
        playWindows.append(w)
      }
    }
    // By insertion: there are as many windows as running plays, rarely more than two.
    for i in playWindows.indices.dropFirst() {
      let w = playWindows[i]
      var j = i
      while j > 0 && playWindows[j - 1].lowerBound > w.lowerBound {
        playWindows[j] = playWindows[j - 1]
        j -= 1
      }
      playWindows[j] = w
    }
    var k = 0
    while k < playWindows.count {
      var window = playWindows[k]
      k += 1
      while k < playWindows.count && playWindows[k].lowerBound <= window.upperBound {
        window = window.lowerBound...max(window.upperBound, playWindows[k].upperBound)
        k += 1
      }
      var i = LockstepLowerBound.lowerBound(
        of: window.lowerBound, in: currentPostings, guess: guess(of: window.lowerBound, count: currentPostings.count))
      while i < currentPostings.count && currentPostings[i] <= window.upperBound {
        _ = offerToPlays(anchorFrame: anchorFrame, targetFrame: targetFrame, reference: currentPostings[i])
        i += 1
      }
    }
  }

  /// Passes the current peak's matches that another anchor agrees with to the search for new plays.
  private func searchAgreedMatches(targetFrame: Int32) {
    agreement.forEachAgreed { m in
      search(
        hypothesis: Int(m.hypothesis), anchorFrame: m.anchorFrame, targetFrame: targetFrame, reference: m.reference)
    }
  }

  private func afterBatch() {
    expireVotes()
    verifyCandidates()
    advancePlays()
    let now = streamSeconds
    if active.isEmpty {
      state = .prerecording
      if now - lastNoMatchSeconds >= settings.noMatchIntervalSeconds {
        lastNoMatchSeconds = now
        sink?.receive(.noMatch(atSeconds: now))
      }
    } else {
      state = .matching
      lastNoMatchSeconds = now
    }
  }
}

/// Forwards peaks from the front end to the matcher without a reference cycle.
///
/// The reference is unowned, not weak: the matcher alone holds the relay (its front end holds it weakly), so the relay
/// never outlives it; and a weak reference would give the matcher a side table, through which every retain and release
/// of it goes (verification's closures retain it: 2.6 % of a dev-catalog scan's CPU).
final class PeakRelay: PeakConsumer {
  unowned var matcher: StreamMatcher?
  func consume(peaks: ArraySlice<Peak>, throughFrame: Int) {
    matcher?.air?.note(peaks: peaks)
    matcher?.consume(peaks: peaks, throughFrame: throughFrame)
  }
  func flush() {}
}
