import Foundation
import Matcher

/// A metadata CSV for `catalog add`: a header row with a `path` column and any of
/// `title,artist,album,isrc,label,kind`; every other column is kept as an attribute. Paths are relative to the
/// CSV's folder, or absolute.
struct MetadataSheet {
  private(set) var rows: [String: TrackMetadata] = [:]  // by absolute, standardized path
  let folder: URL

  init(contentsOf url: URL) throws {
    folder = url.deletingLastPathComponent()
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw UsageError("cannot read metadata CSV \(url.path): \(error.localizedDescription)")
    }
    let records = try Self.parse(text, path: url.path)
    guard let header = records.first else { throw UsageError("metadata CSV \(url.path) is empty") }
    let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard let pathColumn = names.firstIndex(of: "path") else {
      throw UsageError("metadata CSV \(url.path) has no `path` column (header: \(header.joined(separator: ",")))")
    }
    let known: Set<String> = ["path", "title", "artist", "album", "isrc", "label", "kind"]
    for (n, record) in records.dropFirst().enumerated() where !(record.count == 1 && record[0].isEmpty) {
      guard record.count == header.count else {
        throw UsageError(
          "metadata CSV \(url.path), row \(n + 2): \(record.count) fields, the header has \(header.count)")
      }
      var field: [String: String] = [:]
      var attributes: [String: String] = [:]
      for (i, name) in names.enumerated() {
        if known.contains(name) { field[name] = record[i] } else { attributes[header[i]] = record[i] }
      }
      let rawPath = record[pathColumn]
      let absolute = rawPath.hasPrefix("/") ? URL(fileURLWithPath: rawPath) : folder.appendingPathComponent(rawPath)
      let fileName = absolute.deletingPathExtension().lastPathComponent
      rows[absolute.standardizedFileURL.path] = TrackMetadata(
        title: field["title"].flatMap { $0.isEmpty ? nil : $0 } ?? fileName, artist: field["artist"] ?? "",
        album: field["album"] ?? "", isrc: (field["isrc"] ?? "").uppercased(), label: field["label"] ?? "",
        kind: ItemKind(lenient: field["kind"] ?? ""), attributes: attributes)
    }
  }

  func metadata(for url: URL) -> TrackMetadata? { rows[url.standardizedFileURL.path] }

  /// Every file the sheet names.
  var paths: [URL] { rows.keys.sorted().map { URL(fileURLWithPath: $0) } }

  /// RFC 4180 records: quoted fields with doubled quotes, CRLF or LF line ends, a UTF-8 BOM ignored.
  static func parse(_ text: String, path: String) throws -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var inQuotes = false
    var afterQuote = false
    var chars = text.unicodeScalars.makeIterator()
    if text.unicodeScalars.first == "\u{FEFF}" { _ = chars.next() }
    while let c = chars.next() {
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
          throw UsageError("metadata CSV \(path): a quote inside an unquoted field (line \(records.count + 1))")
        }
      case ",":
        record.append(field)
        field = ""
        afterQuote = false
      case "\r":
        break
      case "\n":
        record.append(field)
        records.append(record)
        record = []
        field = ""
        afterQuote = false
      default:
        field.unicodeScalars.append(c)
        afterQuote = false
      }
    }
    if inQuotes { throw UsageError("metadata CSV \(path): unterminated quoted field") }
    if !field.isEmpty || !record.isEmpty {
      record.append(field)
      records.append(record)
    }
    return records
  }
}
