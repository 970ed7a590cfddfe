import Foundation

/// Reads Icecast's access log (`access.log`, combined log format with the connection's length in seconds last):
/// each listener is a line written when it disconnects, with that time and how long it was connected, so its span
/// is `[time − seconds, time)`.
///
/// `192.0.2.7 - - [01/Feb/2026:07:03:00 -0500] "GET /live HTTP/1.1" 200 4521344 "-" "VLC/3.0.18" 180`
///
/// Only successful `GET` requests (status 200) are listeners; source clients, admin requests and failures are
/// left out. The mount is the request path without its query string.
package enum IcecastAccessLog {
  private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

  /// The listener spans per mount of the log at `path`.
  /// - Throws: ``DataFileError`` for an unreadable file or a line that is not in the access log's format.
  package static func read(path: String) throws -> [String: ListenerSessions] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DataFileError(
        path: path, line: 0, reason: "cannot be read; name Icecast's access log (accesslog in icecast.xml)")
    }
    return try parse(String(decoding: data, as: UTF8.self), path: path)
  }

  /// The listener spans per mount of `text`, the log's contents; `path` names it in errors and summaries.
  package static func parse(_ text: String, path: String) throws -> [String: ListenerSessions] {
    var spans: [String: [(startMilliseconds: Int64, endMilliseconds: Int64)]] = [:]
    for (number, line) in DataFileLines.numbered(text) {
      guard !line.allSatisfy(\.isWhitespace) else { continue }
      func fail(_ reason: String) -> DataFileError {
        DataFileError(
          path: path, line: number,
          reason: reason + "; expected Icecast's access log format, such as `192.0.2.7 - - [01/Feb/2026:07:03:00 "
            + "-0500] \"GET /live HTTP/1.1\" 200 4521344 \"-\" \"VLC\" 180`")
      }
      guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]"),
        let end = time(line[line.index(after: open)..<close])
      else { throw fail("no time in [brackets] as dd/Mon/yyyy:hh:mm:ss ±hhmm") }
      let rest = line[line.index(after: close)...]
      guard let quote = rest.firstIndex(of: "\""), let endQuote = rest[rest.index(after: quote)...].firstIndex(of: "\"")
      else { throw fail("no quoted request") }
      let request = rest[rest.index(after: quote)..<endQuote].split(separator: " ")
      let fields = rest[rest.index(after: endQuote)...].split(separator: " ")
      guard let status = fields.first.flatMap({ Int($0) }) else { throw fail("no status after the request") }
      guard let last = fields.last, let seconds = Int64(last), seconds >= 0 else {
        throw fail("no connection length in seconds at the end of the line")
      }
      guard request.count >= 2, request[0] == "GET", status == 200 else { continue }
      let mount = String(request[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
      spans[mount, default: []].append((end - seconds * 1000, end))
    }
    return Dictionary(
      uniqueKeysWithValues: spans.map { mount, spans in
        (mount, ListenerSessions(spans, source: "listeners on \(mount) in the Icecast access log \(path)"))
      })
  }

  /// `01/Feb/2026:07:03:00 -0500` as milliseconds since 1970; nil for anything else.
  private static func time(_ text: Substring) -> Int64? {
    let parts = text.split(separator: " ")
    guard parts.count == 2 else { return nil }
    let fields = parts[0].split(separator: ":")
    guard fields.count == 4 else { return nil }
    let date = fields[0].split(separator: "/")
    guard date.count == 3, let day = Int64(date[0]), let monthIndex = months.firstIndex(of: date[1].lowercased()),
      let year = Int64(date[2]), let hour = Int64(fields[1]), let minute = Int64(fields[2]),
      let second = Int64(fields[3]), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
      (0...60).contains(second)
    else { return nil }
    let zone = parts[1]
    guard zone.count == 5, let sign = zone.first, sign == "+" || sign == "-", let hhmm = Int64(zone.dropFirst())
    else { return nil }
    let offsetSeconds = (hhmm / 100 * 3600 + hhmm % 100 * 60) * (sign == "-" ? -1 : 1)
    let days = ISO8601Millis.days(year: year, month: Int64(monthIndex + 1), day: day)
    return ((days * 86_400 + hour * 3600 + minute * 60 + second) - offsetSeconds) * 1000
  }
}
