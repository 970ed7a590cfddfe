import Foundation

/// Where a recording's loud part ends, measured as it is fingerprinted: the end of its last half-second within
/// `quietBelowMedianDB` of its median level. What follows is its quiet tail: a fade-out, a reverb's decay, a soft
/// coda.
///
/// On the air a quiet tail is the first thing that noise or a voice-over masks: under the `hard` profile's 0–10 dB of
/// noise, songs aired to their end were logged ending 8–18 s early, their last match where the recording turns quiet
/// (a dev song's last 12 s at -31 to -62 dB, against -9 dB 20 s before its end). The matcher extends a play whose
/// matches stop there to the recording's audible end (`StreamMatcher.endFrame(of:final:overQuietTail:)`).
struct QuietTail {
  /// Hops per window: 16 (0.512 s at the default hop), long enough that a beat's gaps do not count as quiet.
  static let windowHops = 16
  /// A window is quiet at 12 dB under the recording's median window: a fade-out's last seconds, not a verse sung
  /// softer than the chorus. On the dev corpus's 29 songs, five have tails of 8.5–21.5 s at this level, among them
  /// the four whose plays ended 8–18 s early; the median song's is 3.5 s. At 18 dB three of those four fall to 4.5–7 s.
  static let quietBelowMedianDB: Float = 12

  /// Each whole or partial window's mean square, in order.
  private(set) var windowMeanSquares: [Float] = []
  private var windowEnergy: Float = 0
  private var windowSamples = 0
  private var windowHopsFilled = 0

  /// Adds one hop's energy (sum of squares of its samples).
  mutating func add(hopEnergy: Float, samples: Int) {
    windowEnergy += hopEnergy
    windowSamples += samples
    windowHopsFilled += 1
    if windowHopsFilled == Self.windowHops { closeWindow() }
  }

  /// Ends the measure: a last partial window counts as a window of its own.
  mutating func flush() {
    if windowHopsFilled > 0 { closeWindow() }
  }

  private mutating func closeWindow() {
    windowMeanSquares.append(windowSamples > 0 ? windowEnergy / Float(windowSamples) : 0)
    windowEnergy = 0
    windowSamples = 0
    windowHopsFilled = 0
  }

  /// The hop after the last loud window (windows are `windowHops` long from hop 0), or nil when no window is audible.
  var loudEndHop: Int? {
    // Silent windows (under -60 dBFS) do not count towards the median.
    let audible = windowMeanSquares.filter { $0 > FingerprintFrontEnd.audibleMeanSquare }.sorted()
    guard !audible.isEmpty else { return nil }
    let median = audible[audible.count / 2]
    let loud = median * pow(10, -Self.quietBelowMedianDB / 10)
    guard let last = windowMeanSquares.lastIndex(where: { $0 >= loud }) else { return nil }
    return (last + 1) * Self.windowHops
  }
}
