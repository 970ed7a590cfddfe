import Foundation

/// One transformed copy of a real recording that the catalog-scale benchmark adds as a distractor: the recording
/// resampled by `speedFactor` (played that much faster: every peak moves in time by 1/`speedFactor` and in pitch by
/// `speedFactor`), and played backwards when `reversed`. Each is a distinct recording for a fingerprint.
struct ScaleVariant: Hashable, Sendable, CustomStringConvertible {
  var speedFactor: Double
  var reversed: Bool

  static let original = ScaleVariant(speedFactor: 1, reversed: false)

  /// Speed factors are drawn from this range, in log space...
  static let speedFactorRange = 0.55...1.8
  /// ...leaving out this one around 1: the matcher searches ±6 % of speed, so a copy closer to its original than
  /// this would be the same recording for it.
  static let excludedSpeedFactors = 0.93...1.075

  /// A short tag for keys and titles, such as `x0.8125` or `x1.2500r`.
  var description: String { String(format: "x%.4f", speedFactor) + (reversed ? "r" : "") }

  /// The first `count` variants, in the order they are used: the original, the original reversed, then copies
  /// forwards and backwards at speed factors from a van der Corput sequence over the allowed log-speed range, so that
  /// every prefix spreads over the whole range instead of crowding at one end.
  static func sequence(count: Int) -> [ScaleVariant] {
    var out: [ScaleVariant] = []
    out.reserveCapacity(count)
    var j = 0
    while out.count < count {
      let factor = j == 0 ? 1 : speedFactor(atFraction: vanDerCorput(j))
      out.append(ScaleVariant(speedFactor: factor, reversed: false))
      if out.count < count { out.append(ScaleVariant(speedFactor: factor, reversed: true)) }
      j += 1
    }
    return out
  }

  /// The speed factor at fraction `u` (0..<1) of the allowed log-speed range, rounded to 4 decimals.
  static func speedFactor(atFraction u: Double) -> Double {
    let lowStart = log(speedFactorRange.lowerBound)
    let lowLength = log(excludedSpeedFactors.lowerBound) - lowStart
    let highStart = log(excludedSpeedFactors.upperBound)
    let highLength = log(speedFactorRange.upperBound) - highStart
    let x = u * (lowLength + highLength)
    let logFactor = x < lowLength ? lowStart + x : highStart + (x - lowLength)
    return (exp(logFactor) * 10_000).rounded() / 10_000
  }

  /// The `j`th term (j ≥ 1) of the base-2 van der Corput sequence: 1/2, 1/4, 3/4, 1/8, 5/8 …
  static func vanDerCorput(_ j: Int) -> Double {
    var n = j
    var denominator = 1.0
    var value = 0.0
    while n > 0 {
      denominator *= 2
      value += Double(n & 1) / denominator
      n >>= 1
    }
    return value
  }
}
