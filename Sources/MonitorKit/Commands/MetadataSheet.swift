import Common
import Foundation
import Matcher
import Reports

/// A metadata CSV for `catalog add`: a header row with a `path` column and any of
/// `title,artist,album,isrc,label,kind`; every other column is kept as an attribute. Paths are relative to the
/// CSV's folder, or absolute. Text that is not UTF-8, a `kind` that is not one, an `isrc` that is not one, a column
/// named twice and a file named on two rows are refused, naming the lines: each would otherwise put metadata in the
/// catalog, and so in the reports, that nobody chose.
struct MetadataSheet {
  private(set) var rows: [String: TrackMetadata] = [:]  // by absolute, standardized path
  let folder: URL

  init(contentsOf url: URL) throws {
    folder = url.deletingLastPathComponent()
    if let problem = FileReadProblem.of(url.path) {
      throw UsageError("cannot read metadata CSV \(url.path): it \(problem); give the CSV file to --metadata")
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw UsageError("cannot read metadata CSV \(url.path): \(error.localizedDescription)")
    }
    let records = try Self.numberedRecords(Self.text(of: data, path: url.path), path: url.path)
    guard let header = records.first?.fields else { throw UsageError("metadata CSV \(url.path) is empty") }
    let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard let pathColumn = names.firstIndex(of: "path") else {
      throw UsageError("metadata CSV \(url.path) has no `path` column (header: \(header.joined(separator: ",")))")
    }
    let known: Set<String> = ["path", "title", "artist", "album", "isrc", "label", "kind"]
    // A known column is named in any case; an attribute as written.
    let columnNames = names.indices.map { known.contains(names[$0]) ? names[$0] : header[$0] }
    var firstColumn: [String: Int] = [:]
    for (i, name) in columnNames.enumerated() {
      if let first = firstColumn[name] {
        throw UsageError(
          "metadata CSV \(url.path): the header names the column `\(name)` twice (columns \(first + 1) and \(i + 1)); "
            + "keep one of them")
      }
      firstColumn[name] = i
    }
    var lineOfPath: [String: Int] = [:]
    for (line, record) in records.dropFirst() where !(record.count == 1 && record[0].isEmpty) {
      guard record.count == header.count else {
        throw UsageError(
          "metadata CSV \(url.path), line \(line): \(record.count) fields, the header has \(header.count)")
      }
      var field: [String: String] = [:]
      var attributes: [String: String] = [:]
      for (i, name) in names.enumerated() {
        if known.contains(name) { field[name] = record[i] } else { attributes[header[i]] = record[i] }
      }
      let rawPath = record[pathColumn]
      let absolute = rawPath.hasPrefix("/") ? URL(fileURLWithPath: rawPath) : folder.appendingPathComponent(rawPath)
      let fileName = absolute.deletingPathExtension().lastPathComponent
      guard let kind = ItemKind(lenient: field["kind"] ?? "") else {
        throw UsageError(
          "metadata CSV \(url.path), line \(line): kind `\(field["kind"] ?? "")` is not a kind; write one of "
            + ItemKind.acceptedWords.map { "`\($0)`" }.joined(separator: ", ")
            + " (empty is a song), or leave the item out of the CSV")
      }
      let isrcText = (field["isrc"] ?? "").trimmingCharacters(in: .whitespaces)
      guard isrcText.isEmpty || ISRC.normalized(isrcText) != nil else {
        throw UsageError(
          "metadata CSV \(url.path), line \(line): isrc `\(isrcText)` is not an ISRC, 12 letters and digits such as "
            + "USRC17607839 (hyphens allowed); correct it or leave the field empty")
      }
      let key = absolute.standardizedFileURL.path
      if let first = lineOfPath[key] {
        throw UsageError(
          "metadata CSV \(url.path), line \(line): names \(rawPath) again (line \(first) names it first); keep one row "
            + "per file")
      }
      lineOfPath[key] = line
      rows[key] = TrackMetadata(
        title: field["title"].flatMap { $0.isEmpty ? nil : $0 } ?? fileName, artist: field["artist"] ?? "",
        album: field["album"] ?? "", isrc: isrcText.uppercased(), label: field["label"] ?? "",
        kind: kind, attributes: attributes)
    }
    guard !rows.isEmpty else {
      throw UsageError(
        "metadata CSV \(url.path) has a header and no rows: add a row for each file (\(header.joined(separator: ",")))")
    }
  }

  func metadata(for url: URL) -> TrackMetadata? { rows[url.standardizedFileURL.path] }

  /// Every file the sheet names.
  var paths: [URL] { rows.keys.sorted().map { URL(fileURLWithPath: $0) } }

  /// `data` as text. Bytes that are not UTF-8 are an error naming the file, the line and the byte, with the fix.
  static func text(of data: Data, path: String) throws -> String {
    guard let invalid = InvalidUTF8.first(in: data) else { return String(decoding: data, as: UTF8.self) }
    throw UsageError(
      "metadata CSV \(path), line \(invalid.line) (byte offset \(invalid.offset), \(invalid.hexByte)"
        + "): not UTF-8 text; save the CSV as UTF-8 (in a spreadsheet: CSV, character set Unicode UTF-8)")
  }

  /// RFC 4180 records: quoted fields with doubled quotes, CRLF or LF line ends, a UTF-8 BOM ignored.
  static func parse(_ text: String, path: String) throws -> [[String]] {
    try numberedRecords(text, path: path).map(\.fields)
  }

  /// `parse`'s records, each with the line it starts on (a quoted field may hold line breaks).
  static func numberedRecords(_ text: String, path: String) throws -> [(line: Int, fields: [String])] {
    var records: [(line: Int, fields: [String])] = []
    var record: [String] = []
    var field = ""
    var inQuotes = false
    var afterQuote = false
    var line = 1
    var recordLine = 1
    var chars = text.unicodeScalars.makeIterator()
    if text.unicodeScalars.first == "\u{FEFF}" { _ = chars.next() }
    while let c = chars.next() {
      if c == "\n" { line += 1 }
      if inQuotes {
        if c == "\"" {
          inQuotes = false
          afterQuote = true
        } else {
          field.unicodeScalars.append(c)
        }
        continue
      }
      switch c {
      case "\"":
        if afterQuote {
          field.append("\"")
          inQuotes = true
          afterQuote = false
        } else if field.isEmpty {
          inQuotes = true
        } else {
          throw UsageError("metadata CSV \(path): a quote inside an unquoted field (line \(line))")
        }
      case ",":
        record.append(field)
        field = ""
        afterQuote = false
      case "\r":
        break
      case "\n":
        record.append(field)
        records.append((recordLine, record))
        recordLine = line
        record = []
        field = ""
        afterQuote = false
      default:
        field.unicodeScalars.append(c)
        afterQuote = false
      }
    }
    if inQuotes {
      throw UsageError("metadata CSV \(path): unterminated quoted field (opened on line \(recordLine) or later)")
    }
    if !field.isEmpty || !record.isEmpty {
      record.append(field)
      records.append((recordLine, record))
    }
    return records
  }
}
