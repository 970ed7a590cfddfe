import Foundation

/// Reads hourly audience figures per channel from a CSV file with the header `channel,hour_start,aqh`: the
/// channel's name, the hour's start as ISO 8601 with its zone (`2026-02-01T07:00:00-05:00`), and the average
/// number of listeners in that hour (AQH persons). Fields are not quoted; blank lines are skipped.
package enum HourlyAudienceFile {
  package static let header = ["channel", "hour_start", "aqh"]

  /// The most listeners one figure may give (an hour's AQH, or `reports.soundExchange.listenersPerPlay`): a billion
  /// is more than any service has, and the bound keeps a year's summed performances an exact integer.
  package static let maximumListeners = 1e9

  /// The figures per channel of the file at `path`.
  /// - Throws: ``DataFileError`` naming the line and the field.
  package static func read(path: String) throws -> [String: HourlyAudience] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DataFileError(path: path, line: 0, reason: "cannot be read; name a CSV file `channel,hour_start,aqh`")
    }
    return try parse(String(decoding: data, as: UTF8.self), path: path)
  }

  /// The figures per channel of `text`, the file's contents; `path` names it in errors and summaries.
  package static func parse(_ text: String, path: String) throws -> [String: HourlyAudience] {
    var hours: [String: [(startMilliseconds: Int64, listeners: Double)]] = [:]
    var seen: Set<String> = []
    var sawHeader = false
    for (number, line) in DataFileLines.numbered(text) {
      guard !line.allSatisfy(\.isWhitespace) else { continue }
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      func fail(_ reason: String) -> DataFileError {
        DataFileError(path: path, line: number, reason: reason)
      }
      if !sawHeader {
        guard fields.map({ $0.lowercased() }) == header else {
          throw fail("the header must be `\(header.joined(separator: ","))`")
        }
        sawHeader = true
        continue
      }
      guard fields.count == 3 else { throw fail("\(fields.count) fields; give channel,hour_start,aqh") }
      guard !fields[0].isEmpty else { throw fail("channel is empty") }
      guard let start = ISO8601Millis.parseMillisecondsSince1970(fields[1]) else {
        throw fail("hour_start `\(fields[1])` is not an ISO 8601 time with its zone, such as 2026-02-01T07:00:00-05:00")
      }
      guard let listeners = Double(fields[2]), listeners >= 0, listeners <= maximumListeners else {
        throw fail("aqh `\(fields[2])` is not a number of listeners from 0 to 1000000000")
      }
      guard seen.insert("\(fields[0])\u{0}\(start)").inserted else {
        throw fail("channel \(fields[0]) has the hour \(fields[1]) twice; keep one figure per hour")
      }
      hours[fields[0], default: []].append((start, listeners))
    }
    guard sawHeader else {
      throw DataFileError(
        path: path, line: 0, reason: "is empty; give the header `channel,hour_start,aqh` and rows")
    }
    return hours.mapValues { HourlyAudience($0, source: "hourly audience (AQH) from \(path)") }
  }
}
