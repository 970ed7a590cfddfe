import Common

/// How a report groups plays in time: by local broadcast day (from local midnight), by week (Monday to Sunday) or
/// by calendar month.
///
/// A value type: safe to pass between threads.
package enum ReportGrouping: String, Sendable, CaseIterable, Codable {
  case day
  case week
  case month

  package init(from decoder: any Decoder) throws { self = try decoder.word(of: Self.self) }
}
