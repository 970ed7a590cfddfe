/// A channel's audience, for the SoundExchange Report of Use's "actual total performances": a performance is one
/// listener receiving any part of one play.
///
/// Implementations answer for plays in any order; they are values, safe to pass between threads.
package protocol AudienceFigure: Sendable {
  /// The performances of one play on air over `[startMilliseconds, endMilliseconds)`; nil when the figures do not
  /// cover that time.
  func performances(startMilliseconds: Int64, endMilliseconds: Int64) -> Double?
  /// Where the figures come from, for the report's summary on stderr.
  var source: String { get }
}
