import Common

/// How a stream matcher searches and segments plays. Channels may override any of these; units are in the names.
public struct MatcherSettings: Codable, Sendable, Equatable {
  /// Largest speed change searched, either way. Default 0.06 (±6 %: stations speed songs up by 1–4 %).
  public var maxSpeedDeviation: Double = 0.06
  /// Spacing of the speed hypotheses searched. Default 0.02; pair hashes tolerate about ±1 %.
  public var speedStep: Double = 0.02
  /// Matches older than this are forgotten by the search for new plays. Default 8 s.
  public var voteWindowSeconds: Double = 8
  /// Matches on one diagonal that make the search look closer (and again every 2 more while it fails). Default 6.
  public var minVotes: Int = 6
  /// Aligned matches needed to report a play. Default 10.
  public var minMatches: Int = 10
  /// The aligned matches must span at least this long. Default 0.8 s.
  public var minMatchSpanSeconds: Double = 0.8
  /// Catalogs with refined peak times (`FingerprintParameters.interpolatePeakTimes`): a broadcast pair whose time
  /// difference, on the reference's scale, lies within this of a rounding boundary is also looked up with the other
  /// rounding. Default 0 (off): 0.1 frame found plays 0.1–0.4 s sooner at the median on the `radio` and `hard`
  /// simulations, for about 15 % more CPU time (more lookups).
  public var pairTimeMarginFrames: Double = 0
  /// A match belongs to a play when it is this close to the play's time line. Default 2.5 frames (80 ms).
  public var alignmentToleranceFrames: Double = 2.5
  /// A play ends after this long without matches (voice-overs and dropouts shorter than this do not split it).
  /// Default 20 s.
  public var maxGapSeconds: Double = 20
  /// A play whose first (last) match is this close to the reference's audible start (end) is extended to it.
  /// For an ad, jingle or other non-song item, over at most 9 % of its audible length or 1.28 s
  /// (`MatcherTuning.maxSpotSnapToEdgeFraction`).
  /// Default 8 s.
  public var snapToEdgeSeconds: Double = 8
  /// A song's play whose first match is this close to the song's audible start, and whose first 10 s matched far more
  /// sparsely than the rest of it (`MatcherTuning.maxSparseOpeningRateShare`), starts at the audible start: noise or a
  /// voice over a song's first seconds, often its quietest, leaves no match there. A song joined as far in matches at
  /// the same rate from its first second and keeps its first match. Used beyond `snapToEdgeSeconds`, and never over
  /// the play before it by more than a crossfade (`MatcherTuning.maxCrossfadeSeconds`). Above 20 s, a start moved
  /// back may reach air that the unknown-music log has already decided (`ClassifierTuning.holdSeconds`). Default 20 s.
  public var noisyOpeningSnapSeconds: Double = 20
  /// How often a running play is reported as continuing. Default 5 s.
  public var progressIntervalSeconds: Double = 5
  /// How often "no match" is reported while nothing plays. Default 10 s.
  public var noMatchIntervalSeconds: Double = 10

  public init() {}

  /// The values each setting may take. Beyond them the matcher would search nothing or never decide: no vote window
  /// holds 1,000 votes on one diagonal, and a play cannot need more matches than a long song gives (about 10 a
  /// second). The bounds are wide; the defaults and the README's tuning notes show what works.
  public static let ranges: [CodingKeys: ClosedRange<Double>] = [
    .maxSpeedDeviation: 0...0.2,  // stations change speed by 1–4 %; 20 % is another song
    .speedStep: 0.001...0.05,  // pair hashes tolerate about ±1 %: a wider step misses speeds between steps
    .voteWindowSeconds: 2...120,  // shorter holds too few votes; longer keeps matches no play will claim
    .minVotes: 2...1000,  // one vote is any stray match; 1,000 on one diagonal never happens in a window
    .minMatches: 3...10_000,  // 10,000 is about 15 minutes of aligned matches
    .minMatchSpanSeconds: 0...600,
    .pairTimeMarginFrames: 0...0.5,  // half a frame either side of a rounding boundary covers them all
    .alignmentToleranceFrames: 0.1...32,  // 32 frames (1 s) joins unrelated matches into one play
    .maxGapSeconds: 0.5...3600,
    .snapToEdgeSeconds: 0...600,
    .noisyOpeningSnapSeconds: 0...600,
    .progressIntervalSeconds: 0.1...3600,  // shorter floods the log; an hour is a report, not progress
    .noMatchIntervalSeconds: 0.1...3600,
  ]

  /// Throws the first setting outside its range (`ranges`), naming its key path (`matcher.minVotes`), the value,
  /// the range and the default.
  public func validate() throws(ConfigurationError) {
    let defaults = MatcherSettings()
    let values: [(CodingKeys, Double, Double)] = [
      (.maxSpeedDeviation, maxSpeedDeviation, defaults.maxSpeedDeviation),
      (.speedStep, speedStep, defaults.speedStep),
      (.voteWindowSeconds, voteWindowSeconds, defaults.voteWindowSeconds),
      (.minVotes, Double(minVotes), Double(defaults.minVotes)),
      (.minMatches, Double(minMatches), Double(defaults.minMatches)),
      (.minMatchSpanSeconds, minMatchSpanSeconds, defaults.minMatchSpanSeconds),
      (.pairTimeMarginFrames, pairTimeMarginFrames, defaults.pairTimeMarginFrames),
      (.alignmentToleranceFrames, alignmentToleranceFrames, defaults.alignmentToleranceFrames),
      (.maxGapSeconds, maxGapSeconds, defaults.maxGapSeconds),
      (.snapToEdgeSeconds, snapToEdgeSeconds, defaults.snapToEdgeSeconds),
      (.noisyOpeningSnapSeconds, noisyOpeningSnapSeconds, defaults.noisyOpeningSnapSeconds),
      (.progressIntervalSeconds, progressIntervalSeconds, defaults.progressIntervalSeconds),
      (.noMatchIntervalSeconds, noMatchIntervalSeconds, defaults.noMatchIntervalSeconds),
    ]
    for (key, value, fallback) in values {
      guard let range = Self.ranges[key], !range.contains(value) else { continue }
      func text(_ x: Double) -> String { String(format: "%g", x) }
      throw ConfigurationError(
        keyPath: "matcher.\(key.rawValue)",
        reason: "\(text(value)) is out of range; use \(text(range.lowerBound))…\(text(range.upperBound)) "
          + "(default \(text(fallback)))")
    }
  }
}

extension MatcherSettings {
  public enum CodingKeys: String, CodingKey, CaseIterable {
    case maxSpeedDeviation
    case speedStep
    case voteWindowSeconds
    case minVotes
    case minMatches
    case minMatchSpanSeconds
    case pairTimeMarginFrames
    case alignmentToleranceFrames
    case maxGapSeconds
    case snapToEdgeSeconds
    case noisyOpeningSnapSeconds
    case progressIntervalSeconds
    case noMatchIntervalSeconds
  }

  /// Missing keys take their defaults; an unknown key is an error that names it.
  public init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = MatcherSettings()
    self.init()
    maxSpeedDeviation = try c.value(.maxSpeedDeviation, or: defaults.maxSpeedDeviation)
    speedStep = try c.value(.speedStep, or: defaults.speedStep)
    voteWindowSeconds = try c.value(.voteWindowSeconds, or: defaults.voteWindowSeconds)
    minVotes = try c.value(.minVotes, or: defaults.minVotes)
    minMatches = try c.value(.minMatches, or: defaults.minMatches)
    minMatchSpanSeconds = try c.value(.minMatchSpanSeconds, or: defaults.minMatchSpanSeconds)
    pairTimeMarginFrames = try c.value(.pairTimeMarginFrames, or: defaults.pairTimeMarginFrames)
    alignmentToleranceFrames = try c.value(.alignmentToleranceFrames, or: defaults.alignmentToleranceFrames)
    maxGapSeconds = try c.value(.maxGapSeconds, or: defaults.maxGapSeconds)
    snapToEdgeSeconds = try c.value(.snapToEdgeSeconds, or: defaults.snapToEdgeSeconds)
    noisyOpeningSnapSeconds = try c.value(.noisyOpeningSnapSeconds, or: defaults.noisyOpeningSnapSeconds)
    progressIntervalSeconds = try c.value(.progressIntervalSeconds, or: defaults.progressIntervalSeconds)
    noMatchIntervalSeconds = try c.value(.noMatchIntervalSeconds, or: defaults.noMatchIntervalSeconds)
  }
}
