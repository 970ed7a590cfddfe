import Common
import Matcher

/// One part of the week a quota is checked over, as written in the configuration.
///
/// JSON: `{name: "Mon-Fri 6-18", days: ["mon", "tue", "wed", "thu", "fri"], startTime: "06:00",
/// endTime: "18:00"}`; only `name` is required.
///
/// Threads: a value; any thread.
struct DayPartSettings: Codable, Sendable, Equatable {
  /// The name in the report. Required.
  var name: String
  /// The weekdays: `mon`, `tue`, `wed`, `thu`, `fri`, `sat`, `sun`. Default: all seven.
  var days = DayPartSettings.weekdayNames
  /// Local wall-clock start, `HH:MM` (24-hour). Default `00:00`.
  var startTime = "00:00"
  /// Local wall-clock end (exclusive), `HH:MM`; `24:00` is midnight at the day's end. Default `24:00`.
  var endTime = "24:00"

  /// The weekday names, Monday first.
  static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

  enum CodingKeys: String, CodingKey, CaseIterable {
    case name
    case days
    case startTime
    case endTime
  }

  init(
    name: String, days: [String] = DayPartSettings.weekdayNames, startTime: String = "00:00", endTime: String = "24:00"
  ) {
    self.name = name
    self.days = days
    self.startTime = startTime
    self.endTime = endTime
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = DayPartSettings(name: "")
    name = try c.decode(String.self, forKey: .name)
    days = try c.value(.days, or: defaults.days)
    startTime = try c.value(.startTime, or: defaults.startTime)
    endTime = try c.value(.endTime, or: defaults.endTime)
  }
}
