import Common
import Matcher

/// A channel's `matcher` section: the matcher settings this channel changes, key by key, over the global `matcher`
/// section. A key that is absent here keeps the global value. The keys and their units are `MatcherSettings`'s.
///
/// Threads: a value; any thread.
struct MatcherOverrides: Codable, Sendable, Equatable {
  var maxSpeedDeviation: Double?
  var speedStep: Double?
  var voteWindowSeconds: Double?
  var minVotes: Int?
  var minMatches: Int?
  var minMatchSpanSeconds: Double?
  var pairTimeMarginFrames: Double?
  var alignmentToleranceFrames: Double?
  var maxGapSeconds: Double?
  var snapToEdgeSeconds: Double?
  var noisyOpeningSnapSeconds: Double?
  var progressIntervalSeconds: Double?
  var noMatchIntervalSeconds: Double?

  enum CodingKeys: String, CodingKey, CaseIterable {
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

  /// No overrides: the channel runs on the global settings.
  init() {}

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    maxSpeedDeviation = try c.decodeIfPresent(Double.self, forKey: .maxSpeedDeviation)
    speedStep = try c.decodeIfPresent(Double.self, forKey: .speedStep)
    voteWindowSeconds = try c.decodeIfPresent(Double.self, forKey: .voteWindowSeconds)
    minVotes = try c.wholeNumberIfPresent(.minVotes)
    minMatches = try c.wholeNumberIfPresent(.minMatches)
    minMatchSpanSeconds = try c.decodeIfPresent(Double.self, forKey: .minMatchSpanSeconds)
    pairTimeMarginFrames = try c.decodeIfPresent(Double.self, forKey: .pairTimeMarginFrames)
    alignmentToleranceFrames = try c.decodeIfPresent(Double.self, forKey: .alignmentToleranceFrames)
    maxGapSeconds = try c.decodeIfPresent(Double.self, forKey: .maxGapSeconds)
    snapToEdgeSeconds = try c.decodeIfPresent(Double.self, forKey: .snapToEdgeSeconds)
    noisyOpeningSnapSeconds = try c.decodeIfPresent(Double.self, forKey: .noisyOpeningSnapSeconds)
    progressIntervalSeconds = try c.decodeIfPresent(Double.self, forKey: .progressIntervalSeconds)
    noMatchIntervalSeconds = try c.decodeIfPresent(Double.self, forKey: .noMatchIntervalSeconds)
  }

  /// `base` with every key given here replaced.
  func applied(to base: MatcherSettings) -> MatcherSettings {
    var s = base
    s.maxSpeedDeviation = maxSpeedDeviation ?? s.maxSpeedDeviation
    s.speedStep = speedStep ?? s.speedStep
    s.voteWindowSeconds = voteWindowSeconds ?? s.voteWindowSeconds
    s.minVotes = minVotes ?? s.minVotes
    s.minMatches = minMatches ?? s.minMatches
    s.minMatchSpanSeconds = minMatchSpanSeconds ?? s.minMatchSpanSeconds
    s.pairTimeMarginFrames = pairTimeMarginFrames ?? s.pairTimeMarginFrames
    s.alignmentToleranceFrames = alignmentToleranceFrames ?? s.alignmentToleranceFrames
    s.maxGapSeconds = maxGapSeconds ?? s.maxGapSeconds
    s.snapToEdgeSeconds = snapToEdgeSeconds ?? s.snapToEdgeSeconds
    s.noisyOpeningSnapSeconds = noisyOpeningSnapSeconds ?? s.noisyOpeningSnapSeconds
    s.progressIntervalSeconds = progressIntervalSeconds ?? s.progressIntervalSeconds
    s.noMatchIntervalSeconds = noMatchIntervalSeconds ?? s.noMatchIntervalSeconds
    return s
  }
}
