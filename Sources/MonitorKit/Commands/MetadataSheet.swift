import Common
import Foundation
import Matcher

/// A metadata CSV for `catalog add`: a header row with a `path` column and any of
/// `title,artist,album,isrc,label,kind`; every other column is kept as an attribute. Paths are relative to the
/// CSV's folder, or absolute. Text that is not UTF-8 and a `kind` that is not one are refused, naming the line.
struct MetadataSheet {
  private(set) var rows: [String: TrackMetadata] = [:]  // by absolute, standardized path
  let folder: URL

  init(contentsOf url: URL) throws {
    folder = url.deletingLastPathComponent()
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
      rows[absolute.standardizedFileURL.path] = TrackMetadata(
        title: field["title"].flatMap { $0.isEmpty ? nil : $0 } ?? fileName, artist: field["artist"] ?? "",
        album: field["album"] ?? "", isrc: (field["isrc"] ?? "").uppercased(), label: field["label"] ?? "",
        kind: kind, attributes: attributes)
    }
  }

  func metadata(for url: URL) -> TrackMetadata? { rows[url.standardizedFileURL.path] }

  /// Every file the sheet names.
  var paths: [URL] { rows.keys.sorted().map { URL(fileURLWithPath: $0) } }

  /// `data` as text. Bytes that are not UTF-8 are an error naming the file, the line and the byte, with the fix.
  static func text(of data: Data, path: String) throws -> String {
    if let text = String(validating: data, as: UTF8.self) { return text }
    var bytes = data.makeIterator()
    var decoder = UTF8()
    var offset = 0
    var line = 1
    while case .scalarValue(let scalar) = decoder.decode(&bytes) {
      offset += UTF8.width(scalar)
      if scalar == "\n" { line += 1 }
    }
    let byte = data[data.startIndex + offset]
    throw UsageError(
      "metadata CSV \(path), line \(line) (byte offset \(offset), 0x"
        + String(byte, radix: 16, uppercase: true)
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
