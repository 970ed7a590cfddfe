import Common
import Foundation
import Matcher
import TestSupport
import Testing

@testable import MonitorKit

@Suite("MetadataSheet")
struct MetadataSheetTests {
  @Test("RFC 4180: quoted fields with commas, doubled quotes and line breaks; CRLF or LF; a BOM is ignored")
  func parse() throws {
    let text = "\u{FEFF}a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\nplain,,last"
    #expect(
      try MetadataSheet.parse(text, path: "t.csv") == [
        ["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["plain", "", "last"],
      ])
    #expect(try MetadataSheet.parse("a,b\n", path: "t.csv") == [["a", "b"]])
    #expect(try MetadataSheet.parse("", path: "t.csv").isEmpty)
  }

  @Test("A quote inside an unquoted field, or a quote never closed, is an error naming the file")
  func malformed() {
    for text in ["a,b\nx\"y,z\n", "a,b\n\"open,z\n"] {
      let error = #expect(throws: UsageError.self) { try MetadataSheet.parse(text, path: "bad.csv") }
      #expect(error?.description.contains("bad.csv") == true)
    }
  }

  /// Writes `text` as `tracks.csv` in a fresh folder and reads it.
  func sheet(_ text: String) throws -> (MetadataSheet, TemporaryDirectory) {
    let folder = try TemporaryDirectory(prefix: "sheet")
    try Data(text.utf8).write(to: folder.file("tracks.csv"))
    return (try MetadataSheet(contentsOf: folder.file("tracks.csv")), folder)
  }

  @Test("Paths are relative to the sheet's folder, or absolute; columns fill the metadata, others become attributes")
  func rows() throws {
    let text = """
      Path,Title,artist,album,ISRC,label,kind,advertiser
      songs/one.ogg,One,Band,LP,zzabc2600001,Label,song,
      /elsewhere/spot.wav,,,,,,Advert,Acme
      ../up/ident.flac,Ident 1,,,,,jingle,

      """
    let (sheet, folder) = try sheet(text)
    let one = try #require(sheet.metadata(for: folder.url.appendingPathComponent("songs/one.ogg")))
    #expect(
      one
        == TrackMetadata(
          title: "One", artist: "Band", album: "LP", isrc: "ZZABC2600001", label: "Label", kind: .song,
          attributes: ["advertiser": ""]))
    let spot = try #require(sheet.metadata(for: URL(fileURLWithPath: "/elsewhere/spot.wav")))
    #expect(spot.title == "spot")
    #expect(spot.kind == .ad)
    #expect(spot.attributes == ["advertiser": "Acme"])
    let ident = try #require(
      sheet.metadata(for: folder.url.deletingLastPathComponent().appendingPathComponent("up/ident.flac")))
    #expect(ident.kind == .jingle)
    #expect(
      sheet.paths.map(\.path).sorted()
        == [
          folder.url.appendingPathComponent("songs/one.ogg").standardizedFileURL.path, "/elsewhere/spot.wav",
          folder.url.deletingLastPathComponent().appendingPathComponent("up/ident.flac").standardizedFileURL.path,
        ].sorted())
    #expect(sheet.metadata(for: folder.url.appendingPathComponent("other.ogg")) == nil)
  }

  @Test("The fixtures' tracks.csv names the three catalog files with their titles")
  func fixtureSheet() throws {
    let sheet = try MetadataSheet(contentsOf: Fixtures.music("tracks.csv"))
    for (name, expected) in Fixtures.musicTracks {
      let metadata = try #require(sheet.metadata(for: Fixtures.music(name)))
      #expect(metadata.title == expected.title)
      #expect(metadata.isrc == expected.isrc)
    }
    #expect(sheet.paths.count == 3)
  }

  @Test("A sheet without a path column, or with a row of the wrong width, is an error saying which")
  func badSheets() throws {
    let noPath = #expect(throws: UsageError.self) { try sheet("file,title\na.ogg,A\n") }
    #expect(noPath?.description.contains("no `path` column") == true)
    let short = #expect(throws: UsageError.self) { try sheet("path,title,artist\na.ogg,A\n") }
    #expect(short?.description.contains("line 2: 2 fields, the header has 3") == true)
    let empty = #expect(throws: UsageError.self) { try sheet("") }
    #expect(empty?.description.contains("empty") == true)
    let missing = #expect(throws: UsageError.self) {
      try MetadataSheet(contentsOf: URL(fileURLWithPath: "/no/such/tracks.csv"))
    }
    #expect(missing?.description.contains("/no/such/tracks.csv") == true)
  }

  @Test(
    "A column named twice, a file on two rows, an ISRC that is not one, a header without rows or a folder is an error saying which"
  )
  func ambiguousSheets() throws {
    let column = #expect(throws: UsageError.self) { try sheet("path,Title,artist,title\na.ogg,A,B,C\n") }
    #expect(
      column?.description.contains("names the column `title` twice (columns 2 and 4)") == true,
      "\(String(describing: column))")
    let row = #expect(throws: UsageError.self) { try sheet("path,title\na.ogg,A\nb.ogg,B\n./a.ogg,C\n") }
    #expect(
      row?.description.contains("line 4: names ./a.ogg again (line 2 names it first)") == true,
      "\(String(describing: row))")
    let isrc = #expect(throws: UsageError.self) { try sheet("path,isrc\na.ogg,US-RC1-76-07839\nb.ogg,n/a\n") }
    #expect(isrc?.description.contains("line 3: isrc `n/a` is not an ISRC") == true, "\(String(describing: isrc))")
    let headerOnly = #expect(throws: UsageError.self) { try sheet("path,title\n") }
    #expect(headerOnly?.description.contains("has a header and no rows") == true)
    let folder = try TemporaryDirectory(prefix: "sheet")
    let notAFile = #expect(throws: UsageError.self) { try MetadataSheet(contentsOf: folder.url) }
    #expect(notAFile?.description.contains("\(folder.url.path): it is a folder") == true)

    // Hyphens are kept as written: reports write the ISRC each format wants, and the yardstick's sheets use them.
    let (hyphens, at) = try sheet("path,isrc\na.ogg, us-rc1-76-07839 \n")
    #expect(hyphens.metadata(for: at.file("a.ogg"))?.isrc == "US-RC1-76-07839")
  }

  @Test("Errors name the line a row starts on, counting the line breaks inside quoted fields")
  func lines() throws {
    let kind = #expect(throws: UsageError.self) {
      try sheet("path,title,kind\r\na.ogg,\"Two\nlines\",ad\r\nb.ogg,B,Podcast\r\n")
    }
    #expect(
      kind?.description.contains("tracks.csv, line 4: kind `Podcast` is not a kind") == true,
      "\(String(describing: kind))")
    let width = #expect(throws: UsageError.self) { try sheet("path,title\na.ogg,\"x\n\ny\"\nb.ogg\n") }
    #expect(
      width?.description.contains("tracks.csv, line 5: 1 fields, the header has 2") == true,
      "\(String(describing: width))")
    let latin1 = try TemporaryDirectory(prefix: "sheet")
    try (Data("path,title\na.ogg,\"Caf\n".utf8) + [0xE9, 0x22, 0x0A]).write(to: latin1.file("tracks.csv"))
    let encoding = #expect(throws: UsageError.self) { try MetadataSheet(contentsOf: latin1.file("tracks.csv")) }
    #expect(
      encoding?.description.contains("line 3 (byte offset 22, 0xE9): not UTF-8") == true,
      "\(String(describing: encoding))")
  }
}
