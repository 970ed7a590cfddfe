import Common

/// A channel's audience per hour (average quarter-hour persons, AQH, from a ratings service or the station's own
/// estimate): every play gets the figure of the hour it starts in.
///
/// A value type: safe to pass between threads.
package struct HourlyAudience: AudienceFigure {
  /// The length of one figure's hour.
  static let hourMilliseconds: Int64 = 3_600_000

  /// Hour starts (milliseconds since 1970), sorted, and their figures.
  private let hours: [(startMilliseconds: Int64, listeners: Double)]
  package let source: String

  package init(_ hours: [(startMilliseconds: Int64, listeners: Double)], source: String) {
    self.hours = hours.sorted { $0.startMilliseconds < $1.startMilliseconds }
    self.source = source
  }

  package func performances(startMilliseconds: Int64, endMilliseconds: Int64) -> Double? {
    // The last hour that starts at or before the play.
    let after = BinarySearch.partitionPoint(in: hours.indices) { hours[$0].startMilliseconds <= startMilliseconds }
    guard after > 0, startMilliseconds < hours[after - 1].startMilliseconds + Self.hourMilliseconds else { return nil }
    return hours[after - 1].listeners
  }
}
