import Foundation

/// What a report covers and in which time zones: the channels, the span (`--from`, `--to`), and each station's
/// local calendar.
///
/// A station's time zone is, in order: `timeZoneOverride` (`--tz`), the channel's `timeZone` in the monitor
/// configuration (`channelTimeZones`), else `defaultTimeZone` (the machine's zone, the same default the monitor
/// configuration uses).
///
/// The span is half-open, `[from, to)`, on each station's own calendar: `--from 2026-03-01` starts at local
/// midnight. Without `--from` a report starts with the first play, without `--to` it ends after the last one.
///
/// A value type: safe to pass between threads.
package struct ReportScope: Sendable {
  /// Only this channel; all channels when nil.
  package var channelName: String?
  package var from: ReportBound?
  package var to: ReportBound?
  package var timeZoneOverride: TimeZone?
  package var channelTimeZones: [String: TimeZone]
  package var defaultTimeZone: TimeZone

  package init(
    channelName: String? = nil, from: ReportBound? = nil, to: ReportBound? = nil, timeZoneOverride: TimeZone? = nil,
    channelTimeZones: [String: TimeZone] = [:], defaultTimeZone: TimeZone = .current
  ) {
    self.channelName = channelName
    self.from = from
    self.to = to
    self.timeZoneOverride = timeZoneOverride
    self.channelTimeZones = channelTimeZones
    self.defaultTimeZone = defaultTimeZone
  }

  /// The time zone of `channel`'s local times in this report.
  package func timeZone(of channel: String) -> TimeZone {
    timeZoneOverride ?? channelTimeZones[channel] ?? defaultTimeZone
  }

  /// One channel of the report with its calendar and span.
  package struct Channel: Sendable {
    package var id: Int64
    package var name: String
    package var calendar: LocalCalendar
    /// `[from, to)` in milliseconds since 1970 UTC; empty when the channel has no plays and no bounds were given.
    package var fromMilliseconds: Int64
    package var toMilliseconds: Int64
  }

  /// The channels of the report, by name, each with its calendar and span; `grouping` widens an open span to
  /// whole periods.
  /// - Throws: ``ReportError/noSuchChannel(_:known:path:)`` for a `--channel` the log does not have;
  ///   ``ReportError/emptySpan(from:to:)`` when `--to` is not after `--from`.
  package func channels(in reader: PlayLogReader, grouping: ReportGrouping? = nil) throws -> [Channel] {
    let all = try reader.channels()
    var selected = all.map { (id: $0.key, name: $0.value) }.sorted { $0.name < $1.name }
    if let channelName {
      selected = selected.filter { $0.name == channelName }
      guard !selected.isEmpty else {
        throw ReportError.noSuchChannel(channelName, known: all.values.sorted(), path: reader.path)
      }
    }
    // With no channel to resolve the bounds in (a play log without plays yet), they are compared as UTC days and
    // instants, so that a span turned round is the same error on any play log.
    if selected.isEmpty, let from, let to, to.approximateMilliseconds <= from.approximateMilliseconds {
      throw ReportError.emptySpan(from: from, to: to)
    }
    return try selected.map { channel in
      let range = try reader.startRange(channelID: channel.id)
      let approximateFrom = from?.approximateMilliseconds ?? range?.first ?? 0
      let approximateTo = to?.approximateMilliseconds ?? range.map { $0.last + 1 } ?? approximateFrom
      let calendar = LocalCalendar(
        timeZone: timeZone(of: channel.name), fromMilliseconds: min(approximateFrom, approximateTo),
        toMilliseconds: max(approximateFrom, approximateTo) + 40 * LocalCalendar.millisecondsPerDay)
      var fromMilliseconds = from?.milliseconds(on: calendar) ?? range?.first ?? 0
      var toMilliseconds = to?.milliseconds(on: calendar) ?? range.map { $0.last + 1 } ?? fromMilliseconds
      if let from, let to, toMilliseconds <= fromMilliseconds {
        throw ReportError.emptySpan(from: from, to: to)
      }
      if let grouping, toMilliseconds > fromMilliseconds {
        // An open end reaches to the edge of its period, so the first and last periods are whole.
        if from == nil {
          fromMilliseconds = calendar.start(
            ofDay: LocalCalendar.firstDay(of: grouping, holding: calendar.day(of: fromMilliseconds)))
        }
        if to == nil, let last = calendar.periods(grouping, from: toMilliseconds - 1, to: toMilliseconds).last {
          toMilliseconds = last.endMilliseconds
        }
      }
      return Channel(
        id: channel.id, name: channel.name, calendar: calendar, fromMilliseconds: fromMilliseconds,
        toMilliseconds: toMilliseconds)
    }
  }
}
