/// A report cannot be made as asked; the message says what to change.
///
/// A value type: safe to pass between threads.
package enum ReportError: Error, CustomStringConvertible, Sendable, Equatable {
  /// `--channel` names a channel the play log does not have.
  case noSuchChannel(String, known: [String], path: String)
  /// `--to` is not after `--from`.
  case emptySpan(from: ReportBound, to: ReportBound)
  /// The channels of one table have different time zones, and the table groups plays by local periods.
  case mixedTimeZones([String: String])
  /// A setting the report needs is not in the configuration.
  case missingSetting(key: String, example: String)
  /// `reconcile` needs a traffic schedule and the play log has none.
  case noSchedule(path: String)

  package var description: String {
    switch self {
    case .noSuchChannel(let name, let known, let path):
      "the play log \(path) has no channel \"\(name)\""
        + (known.isEmpty ? " (it has no plays yet)" : "; it has \(known.joined(separator: ", "))")
    case .emptySpan:
      "--to must be after --from: a report covers [from, to)"
    case .mixedTimeZones(let zones):
      "the channels are in different time zones ("
        + zones.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        + "), so their local days differ; pass --by-channel, --channel NAME or --tz ZONE"
    case .missingSetting(let key, let example):
      "the configuration has no \(key); add it to the `reports` section (for example \(example)), "
        + "as config/monitor.example.json5 shows, and pass it with --config"
    case .noSchedule(let path):
      "the play log \(path) has no traffic schedule; import the traffic system's log first with "
        + "`broadcast-monitor schedule import --db \(path) traffic.csv`"
    }
  }
}
