import Foundation
import Reports

/// The query parameters of one API request, read strictly: a name the endpoint does not take, a repeated name or
/// a value that cannot be read is a `Problem` (a 400 answer naming the parameter and the fix), never a guess.
struct APIQuery {
  struct Problem: Error, CustomStringConvertible {
    var description: String

    static func givenTwice(_ name: String) -> Problem {
      Problem(description: "query parameter `\(name)` is given twice; give it once")
    }
  }

  /// Plays or events per page unless `limit` says otherwise, and the most a page may hold.
  static let defaultLimit = 100
  static let maxLimit = 1000

  private let values: [String: String]

  /// - Parameter allowed: the names the endpoint takes.
  init(_ query: [(name: String, value: String)], allowed: [String], path: String) throws(Problem) {
    var values: [String: String] = [:]
    for (name, value) in query {
      guard allowed.contains(name) else {
        let takes = allowed.isEmpty ? "takes no query parameters" : "takes \(allowed.joined(separator: ", "))"
        throw Problem(description: "unknown query parameter `\(name)`; \(path) \(takes)")
      }
      guard values.updateValue(value, forKey: name) == nil else { throw Problem.givenTwice(name) }
    }
    self.values = values
  }

  func string(_ name: String) -> String? { values[name] }

  /// An ISO 8601 time with its zone, its seconds optional (`2026-12-01T00:00:00Z`, `2026-12-01T00:00Z`; a `+` of
  /// the zone that arrived as a space is read as `+`: `restoringPlus`).
  func time(_ name: String) throws(Problem) -> Date? {
    guard let text = values[name] else { return nil }
    guard let date = ISO8601Millis.parse(typed: Self.restoringPlus(text)) else {
      throw Problem(
        description: "\(name)=\(text): use an ISO 8601 time with its zone, such as 2026-12-01T00:00:00Z or "
          + "2026-12-01T06:00:00%2B01:00 (`+` written %2B)")
    }
    return date
  }

  /// `text` with its spaces read as `+`. A query string is form-encoded: a `+` typed into a URL arrives as a space
  /// (libmicrohttpd decodes it so), and no time or date the API reads has a space, so in one a space was the `+` of
  /// a zone's offset (`2026-12-01T06:00:00+01:00`).
  static func restoringPlus(_ text: String) -> String { text.replacingOccurrences(of: " ", with: "+") }

  /// `limit`: 1…`maxLimit`, default `defaultLimit`.
  func limit() throws(Problem) -> Int {
    guard let text = values["limit"] else { return Self.defaultLimit }
    guard let limit = Int(text), (1...Self.maxLimit).contains(limit) else {
      throw Problem(description: "limit=\(text): give a whole number from 1 to \(Self.maxLimit)")
    }
    return limit
  }

  /// `cursor`: the `nextCursor` of the previous page.
  func cursor() throws(Problem) -> PlayLogPage.Cursor? {
    guard let text = values["cursor"] else { return nil }
    guard let cursor = Self.decodeCursor(text) else {
      throw Problem(description: "cursor=\(text): not a cursor of this API; pass nextCursor from the previous page")
    }
    return cursor
  }

  /// A cursor as the API writes it: `START_ID` (milliseconds since 1970 and the row's id).
  static func encodeCursor(_ cursor: PlayLogPage.Cursor) -> String { "\(cursor.startMilliseconds)_\(cursor.id)" }

  static func decodeCursor(_ text: String) -> PlayLogPage.Cursor? {
    let parts = text.split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 2, let start = Int64(parts[0]), let id = Int64(parts[1]) else { return nil }
    return PlayLogPage.Cursor(startMilliseconds: start, id: id)
  }

  /// The page `from`, `to`, `channel`, `limit` and `cursor` describe.
  func pageFilter() throws(Problem) -> PlayLogPage.Filter {
    let from = try time("from")
    let to = try time("to")
    if let from, let to, to <= from {
      throw Problem(description: "to is not after from; give a period with from before to")
    }
    return PlayLogPage.Filter(
      channel: values["channel"], from: from, to: to, cursor: try cursor(), limit: try limit())
  }
}
