import Foundation

/// A CSV file with a header row (RFC 4180: quoted fields may hold commas, quotes and line breaks), as records keyed by
/// column name.
struct CSVTable {
  let columns: [String]
  let records: [[String: String]]

  struct ParseError: Error, CustomStringConvertible {
    let description: String
  }

  init(contentsOf url: URL) throws {
    let text: String
    do { text = try String(contentsOf: url, encoding: .utf8) } catch {
      throw ParseError(description: "\(url.path): cannot read (\(error.localizedDescription))")
    }
    let rows = Self.rows(of: text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
    guard let header = rows.first else { throw ParseError(description: "\(url.path): empty, expected a header row") }
    columns = header.map { $0.trimmingCharacters(in: .whitespaces) }
    records = rows.dropFirst().filter { $0 != [""] }.map { row in
      var r: [String: String] = [:]
      for (name, value) in zip(header, row) { r[name] = value }
      return r
    }
  }

  static func rows(of text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var chars = text.makeIterator()
    var pending = chars.next()
    while let c = pending {
      pending = chars.next()
      if quoted {
        if c == "\"" {
          if pending == "\"" {
            field.append("\"")
            pending = chars.next()
          } else {
            quoted = false
          }
        } else {
          field.append(c)
        }
      } else if c == "\"" {
        quoted = true
      } else if c == "," {
        row.append(field)
        field = ""
      } else if c == "\n" || c == "\r\n" || c == "\r" {
        row.append(field)
        rows.append(row)
        row = []
        field = ""
      } else {
        field.append(c)
      }
    }
    if !field.isEmpty || !row.isEmpty {
      row.append(field)
      rows.append(row)
    }
    return rows
  }
}
