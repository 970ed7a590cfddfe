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
    var low = 0
    var high = hours.count
    while low < high {
      let middle = (low + high) / 2
      if hours[middle].startMilliseconds <= startMilliseconds { low = middle + 1 } else { high = middle }
    }
    guard low > 0, startMilliseconds < hours[low - 1].startMilliseconds + Self.hourMilliseconds else { return nil }
    return hours[low - 1].listeners
  }
}
