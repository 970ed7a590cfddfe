/// A running play inside a stream matcher: the line through its matches (reference frame = α + β · broadcast
/// frame, on the catalog's global axis) and what is needed to report it.
struct RunningPlay {
  let id: Int
  let trackIndex: Int
  let pitchShifted: Bool
  /// The track's span on the catalog's global frame axis.
  let referenceRange: Range<UInt32>
  var detectedAtSeconds: Double
  /// Line: reference = alpha + beta · broadcast (frames).
  var alpha: Double
  var beta: Double
  var firstFrame: Int32
  /// Last frame with sustained support (not a stray match).
  var lastFrame: Int32
  var matchCount = 0
  /// Matches anchored before `openingEndFrame`: how well the song's first seconds came through
  /// (`StreamMatcher.judgeOpening`).
  private(set) var openingMatchCount = 0
  /// Whether the song's opening was judged masked at the last report (`StreamMatcher.judgeOpening`); nil until its
  /// matches span twice the opening, and again on a corrected line (`realigned`).
  var openingMasked: Bool?
  /// `openingFrames` after the first match of the line the play was found on.
  let openingEndFrame: Int32
  /// The opening's length: `MatcherTuning.openingBuckets` second-long buckets.
  static let openingFrames = MatcherTuning.openingBuckets * bucketFrames
  /// Latest anchor frame of any match.
  var lastAnchorFrame: Int32
  var lastReportedSeconds: Double
  var lastReportedLastFrame: Int32
  /// Least-squares sums, relative to the first match, for refitting the line.
  private let x0: Double
  private let y0: Double
  private var sx = 0.0
  private var sy = 0.0
  private var sxx = 0.0
  private var sxy = 0.0
  private var fitted = 0
  /// Matches per second-long bucket (32 frames) over the last 64 buckets, to compare with a rival and to tell
  /// sustained support from stray matches. Stored inline, so that a play holds no reference: copying one (the search
  /// offers each lookup's postings to every running play) costs no retain or release.
  private var buckets = InlineArray<64, UInt16>(repeating: 0)
  private var bucketIDs = InlineArray<64, Int32>(repeating: -1)
  static let bucketFrames: Int32 = 32
  /// The latest distinct anchor frames of its matches, newest first (-1: none yet): the third for sustained support,
  /// the seventh (`MatcherTuning.minResumedAnchors`) for a held line heard again.
  private var recentAnchors = InlineArray<7, Int32>(repeating: -1)
  /// After this long without sustained support, matches that come back must be strong to move the play's end.
  static let resumeFrames: Int32 = MatcherTuning.denseSupportMaxAgeBuckets * bucketFrames

  init(
    id: Int, trackIndex: Int, referenceRange: Range<UInt32>, alpha: Double, beta: Double, firstFrame: Int32,
    pitchShifted: Bool, detectedAtSeconds: Double
  ) {
    self.id = id
    self.referenceRange = referenceRange
    self.trackIndex = trackIndex
    self.alpha = alpha
    self.beta = beta
    self.firstFrame = firstFrame
    openingEndFrame = firstFrame + Self.openingFrames
    self.pitchShifted = pitchShifted
    lastFrame = firstFrame
    lastAnchorFrame = firstFrame
    self.detectedAtSeconds = detectedAtSeconds
    lastReportedSeconds = detectedAtSeconds
    lastReportedLastFrame = firstFrame
    x0 = Double(firstFrame)
    y0 = alpha + beta * Double(firstFrame)
  }

  /// The same play (id, detection time, start) on a corrected line, with no matches yet.
  func realigned(alpha: Double, beta: Double, firstFrame: Int32) -> RunningPlay {
    var p = RunningPlay(
      id: id, trackIndex: trackIndex, referenceRange: referenceRange, alpha: alpha, beta: beta,
      firstFrame: min(firstFrame, self.firstFrame),
      pitchShifted: pitchShifted, detectedAtSeconds: detectedAtSeconds)
    p.lastReportedSeconds = lastReportedSeconds
    return p
  }

  @inline(__always)
  func predictedReference(at frame: Int32) -> Double { alpha + beta * Double(frame) }

  /// Whether a match lies on the line. The tolerance widens away from the matches seen so far, by how uncertain the
  /// slope still is (`MatcherTuning.slopeUncertaintyFrames` over the spread of the matches, at most
  /// `MatcherTuning.maxSlopeUncertainty`).
  @inline(__always)
  func accepts(anchorFrame: Int32, reference: UInt32, tolerance: Double) -> Bool {
    guard referenceRange.contains(reference) else { return false }
    return abs(Double(reference) - predictedReference(at: anchorFrame)) <= reach(at: anchorFrame, tolerance: tolerance)
  }

  /// How far from the line `accepts` takes a match anchored at `anchorFrame`, in reference frames.
  @inline(__always)
  private func reach(at anchorFrame: Int32, tolerance: Double) -> Double {
    let spread = Double(max(Int32(MatcherTuning.slopeFitMinSpreadFrames), lastAnchorFrame - firstFrame))
    let outside = Double(max(0, anchorFrame - lastAnchorFrame, firstFrame - anchorFrame))
    let slopeUncertainty = min(MatcherTuning.maxSlopeUncertainty, MatcherTuning.slopeUncertaintyFrames / spread)
    return tolerance + outside * slopeUncertainty
  }

  /// The reference frames `accepts` may take for a match anchored at `anchorFrame`, a frame wider on each side; nil
  /// when none is in the track. A lookup narrows a long posting list to them before `accepts` decides.
  func acceptedReferences(anchorFrame: Int32, tolerance: Double) -> ClosedRange<UInt32>? {
    guard !referenceRange.isEmpty else { return nil }
    let center = predictedReference(at: anchorFrame)
    let reach = reach(at: anchorFrame, tolerance: tolerance) + 1
    let lo = max(Double(referenceRange.lowerBound), (center - reach).rounded(.down))
    let hi = min(Double(referenceRange.upperBound - 1), (center + reach).rounded(.up))
    guard lo <= hi else { return nil }
    return UInt32(lo)...UInt32(hi)
  }

  /// Counts a match, and moves the play's end to it when the play's support there is sustained (see below).
  /// `contested`: another track's play has sustained support more than a second past this play's (the next song).
  /// `heldAfterFrames`: how long the play's line may go without sustained support before the play is only held open
  /// for its airing to resume (`MatcherSettings.maxGapSeconds`).
  mutating func add(
    anchorFrame: Int32, targetFrame: Int32, reference: UInt32, contested: Bool = false,
    heldAfterFrames: Int32 = .max
  ) {
    matchCount += 1
    if anchorFrame < openingEndFrame { openingMatchCount += 1 }
    firstFrame = min(firstFrame, anchorFrame)
    lastAnchorFrame = max(lastAnchorFrame, anchorFrame)
    let bucket = anchorFrame / Self.bucketFrames
    let slot = Int(bucket) & 63
    if bucketIDs[slot] != bucket {
      bucketIDs[slot] = bucket
      buckets[slot] = 0
    }
    if buckets[slot] < .max { buckets[slot] += 1 }
    // Sustained support moves the end (`MatcherTuning.sustainedSupportBuckets` and the constants after it): matches
    // from 3 distinct anchor peaks within 2 s, 1 s when contested (strong), or at least 3 matches in this second and
    // the one before (dense) while the play is not contested and its last sustained support is under 6 s old.
    if anchorFrame > recentAnchors[0] {
      for i in stride(from: recentAnchors.count - 1, to: 0, by: -1) { recentAnchors[i] = recentAnchors[i - 1] }
      recentAnchors[0] = anchorFrame
    }
    let strongBuckets =
      contested ? MatcherTuning.contestedSustainedSupportBuckets : MatcherTuning.sustainedSupportBuckets
    let strong = recentAnchors[2] >= 0 && anchorFrame - recentAnchors[2] <= strongBuckets * Self.bucketFrames
    let dense =
      !contested && anchorFrame - lastFrame <= Self.resumeFrames
      && matchCount(from: anchorFrame - Self.bucketFrames, to: anchorFrame) >= MatcherTuning.denseSupportMatches
    if matchCount <= MatcherTuning.denseSupportMatches
      || ((strong || dense) && (anchorFrame - lastFrame <= heldAfterFrames || resumes(at: anchorFrame)))
    {
      lastFrame = max(lastFrame, targetFrame)
    }
    let x = Double(anchorFrame) - x0
    let y = Double(reference) - y0
    sx += x
    sy += y
    sxx += x * x
    sxy += x * y
    if matchCount >= MatcherTuning.firstRefitMatches
      && (matchCount - fitted >= max(MatcherTuning.firstRefitMatches / 2, fitted / MatcherTuning.refitGrowthDivisor))
    {
      refit()
    }
  }

  /// Whether matches that come back on a line held open past its gap are its airing heard again: the last
  /// `sustainedSupportBuckets` seconds hold at least `MatcherTuning.minResumedSupportShare` of the play's mean match
  /// rate until its last sustained support, and the last `resumedSupportBuckets` seconds hold matches from
  /// `minResumedAnchors` distinct anchor peaks.
  private func resumes(at anchorFrame: Int32) -> Bool {
    let anchorWindow = MatcherTuning.resumedSupportBuckets * Self.bucketFrames
    let oldestAnchor = recentAnchors[MatcherTuning.minResumedAnchors - 1]
    guard oldestAnchor >= 0 && anchorFrame - oldestAnchor <= anchorWindow else { return false }
    let window = MatcherTuning.sustainedSupportBuckets * Self.bucketFrames
    let recent = Double(matchCount(from: anchorFrame - window, to: anchorFrame))
    let meanInWindow = Double(matchCount) * Double(window) / Double(max(Self.bucketFrames, lastFrame - firstFrame))
    return recent >= MatcherTuning.minResumedSupportShare * meanInWindow
  }

  /// Least-squares line through all matches, once they spread over a few seconds (a standard deviation of 1 s,
  /// about 3.5 s of evenly spread matches: enough to tell 1 % of speed; a play that started on a wrong speed
  /// hypothesis loses its matches from its line after a few seconds, so it must not wait much longer).
  mutating func refit() {
    fitted = matchCount
    let n = Double(matchCount)
    let varX = sxx - sx * sx / n
    let minSpread = MatcherTuning.slopeFitMinSpreadFrames
    guard varX > minSpread * minSpread * n else { return }
    let slope = (sxy - sx * sy / n) / varX
    let range = MatcherTuning.refitSlopeRange
    guard slope > range.lowerBound && slope < range.upperBound else { return }
    beta = slope
    let intercept = (sy - slope * sx) / n
    alpha = y0 + intercept - slope * x0
  }

  /// Matches whose anchors fall in the buckets overlapping `from…to` (within the last 64 s).
  func matchCount(from: Int32, to: Int32) -> Int {
    var c = 0
    var b = from / Self.bucketFrames
    let end = to / Self.bucketFrames
    while b <= end {
      let slot = Int(b) & 63
      if bucketIDs[slot] == b { c += Int(buckets[slot]) }
      b += 1
    }
    return c
  }
}
