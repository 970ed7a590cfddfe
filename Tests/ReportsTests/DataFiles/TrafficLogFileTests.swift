import Foundation
import Testing

@testable import Reports

@Suite("TrafficLogFile")
struct TrafficLogFileTests {
  static func zone(_ channel: String) -> TimeZone { .toronto }

  @Test("The documented columns: ISO 8601 times, lengths in seconds, any column order")
  func documented() throws {
    let spots = try TrafficLogFile.parse(
      """
      channel,scheduled_at,cart,advertiser,title,length_s
      fm1,2026-03-02T06:10:00-05:00,C1001,Hardware Co,Spring Sale,30
      fm1,2026-03-02T06:10:30-05:00,AUTO0015000H,"Dealer, Inc.",Car Deal,

      """, path: "traffic.csv", timeZone: Self.zone)
    #expect(
      spots == [
        ScheduledSpot(
          channel: "fm1", scheduledAtMilliseconds: 1_772_449_800_000, cart: "C1001", advertiser: "Hardware Co",
          title: "Spring Sale", lengthMilliseconds: 30_000),
        ScheduledSpot(
          channel: "fm1", scheduledAtMilliseconds: 1_772_449_830_000, cart: "AUTO0015000H", advertiser: "Dealer, Inc.",
          title: "Car Deal", lengthMilliseconds: nil),
      ])
  }

  @Test("CRLF line ends (a Windows export) give every spot, with the right line numbers in errors")
  func crlf() throws {
    let text =
      "channel,scheduled_at,cart,advertiser,title,length_s\r\nfm1,2026-03-02T06:10:00-05:00,C1001,Shop,Sale,30\r\n"
      + "fm1,2026-03-02T06:11:00-05:00,C1002,Shop,Sale,30\r\n"
    let spots = try TrafficLogFile.parse(text, path: "traffic.csv", timeZone: Self.zone)
    #expect(spots.map(\.cart) == ["C1001", "C1002"])
    #expect(spots.map(\.lengthMilliseconds) == [30_000, 30_000])
    let error = #expect(throws: DataFileError.self) {
      try TrafficLogFile.parse(text + "fm1,soon,C1003,Shop,Sale,30\r\n", path: "traffic.csv", timeZone: Self.zone)
    }
    #expect(error?.line == 4, "\(String(describing: error))")
  }

  @Test("Common export variants: semicolons, aliases, local times in the channel's zone, m:ss lengths")
  func variants() throws {
    let spots = try TrafficLogFile.parse(
      """
      \u{FEFF}Station;Air Time;ISCI;Client;Copy;Duration
      fm1;2026-03-02 06:10;C1001;Hardware Co;Spring Sale;0:30
      fm1;03/02/2026 6:10:30 PM;C1002;Hardware Co;Spring Sale 2;:15

      """, path: "traffic.csv", timeZone: Self.zone)
    #expect(spots.map(\.scheduledAtMilliseconds) == [1_772_449_800_000, 1_772_493_030_000])
    #expect(spots.map(\.lengthMilliseconds) == [30_000, 15_000])
    #expect(spots.map(\.cart) == ["C1001", "C1002"])
  }

  @Test("A date column of its own beside the time of day, as many traffic systems export them; a full time wins")
  func separateDateAndTime() throws {
    let spots = try TrafficLogFile.parse(
      """
      Air Date,Air Time,Station,ISCI,Length
      03/02/2026,6:10 AM,fm1,C1001,0:30
      2026-03-02,18:10:30,fm1,C1002,15
      03/02/2026,2026-03-02T06:11:00-05:00,fm1,C1003,30

      """, path: "traffic.csv", timeZone: Self.zone)
    #expect(spots.map(\.scheduledAtMilliseconds) == [1_772_449_800_000, 1_772_493_030_000, 1_772_449_860_000])
    #expect(spots.map(\.cart) == ["C1001", "C1002", "C1003"])
    let error = #expect(throws: DataFileError.self) {
      try TrafficLogFile.parse(
        "Date,Time,Station,Cart\nMonday,06:10,fm1,C1\n", path: "traffic.csv", timeZone: Self.zone)
    }
    #expect(
      error?.description.hasPrefix("traffic.csv:2: scheduled_at: `Monday 06:10` (the date column and the time)")
        == true,
      "\(String(describing: error))")
  }

  @Test(
    "Local times at clock changes: a skipped time is refused; a repeated one is its first occurrence, a second row of it the second",
    arguments: [
      ("Europe/Berlin", "2026-10-25 02:30", "2026-10-25T00:30:00", "2026-10-25T01:30:00", "2026-03-29 02:30"),
      ("America/New_York", "2026-11-01 01:30", "2026-11-01T05:30:00", "2026-11-01T06:30:00", "2026-03-08 02:30"),
    ])
  func clockChanges(zone: String, repeated: String, first: String, second: String, skipped: String) throws {
    let local = try #require(TimeZone(identifier: zone))
    let text =
      "channel,scheduled_at,cart,advertiser\nfm1,\(repeated),C1001,Shop A\nfm1,\(repeated),C1002,Shop B\n"
      + "fm1,\(repeated):00,C1001,Shop C\n"  // the same time, with its seconds
    let spots = try TrafficLogFile.parse(text, path: "t.csv") { _ in local }
    let times = spots.map {
      String(ISO8601Millis.format(Date(millisecondsSince1970: $0.scheduledAtMilliseconds)).prefix(19))
    }
    #expect(spots.map(\.advertiser) == ["Shop A", "Shop B", "Shop C"])
    #expect(times == [first, first, second], "\(times)")
    let error = #expect(throws: DataFileError.self) {
      try TrafficLogFile.parse("channel,scheduled_at,cart\nfm1,\(skipped),C1\n", path: "t.csv") { _ in local }
    }
    #expect(
      error?.description.hasPrefix("t.csv:2: scheduled_at: `\(skipped)` does not exist in \(zone)") == true,
      "\(String(describing: error))")
  }

  @Test("A row repeated in the file is one spot (the cart in any case); a repeat that differs is refused naming both")
  func repeatedRows() throws {
    let header = "channel,scheduled_at,cart,advertiser\n"
    let row = "fm1,2026-03-02T06:10:00Z,C1001,Shop\n"
    let spots = try TrafficLogFile.parse(
      header + row + row + "fm1,2026-03-02T06:10:00Z,c1001,Shop\n", path: "t.csv", timeZone: Self.zone)
    #expect(spots.count == 1)
    let error = #expect(throws: DataFileError.self) {
      try TrafficLogFile.parse(
        header + row + "fm1,2026-03-02T06:11:00Z,C1002,Shop\nfm1,2026-03-02T06:10:00Z,C1001,Other\n", path: "t.csv",
        timeZone: Self.zone)
    }
    #expect(error?.description.hasPrefix("t.csv:4: repeats the spot of line 2") == true, "\(String(describing: error))")
  }

  @Test("A file that is not UTF-8 (Latin-1, UTF-16) or not a file is refused naming the line and the byte")
  func encodings() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traffic-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let latin1 = folder.appendingPathComponent("latin1.csv")
    let text = "channel,scheduled_at,cart,advertiser\nfm1,2026-03-02T06:10:00Z,C1,Caf"
    try (Data(text.utf8) + [0xE9, 0x0A]).write(to: latin1)
    let error = #expect(throws: DataFileError.self) {
      try TrafficLogFile.read(path: latin1.path, timeZone: Self.zone)
    }
    #expect(error?.line == 2, "\(String(describing: error))")
    #expect(
      error?.reason.hasPrefix("byte 0xE9 (byte offset \(text.utf8.count)) is not UTF-8") == true,
      "\(String(describing: error))")
    let utf16 = folder.appendingPathComponent("utf16.csv")
    try (Data([0xFF, 0xFE]) + "channel".data(using: .utf16LittleEndian)!).write(to: utf16)
    let wide = #expect(throws: DataFileError.self) { try TrafficLogFile.read(path: utf16.path, timeZone: Self.zone) }
    #expect(wide?.reason.hasPrefix("is UTF-16 text") == true)
    let notAFile = #expect(throws: DataFileError.self) {
      try TrafficLogFile.read(path: folder.path, timeZone: Self.zone)
    }
    #expect(notAFile?.reason.hasPrefix("is a folder") == true)
  }

  @Test(
    "A bad line is refused with its line number, column and the fix",
    arguments: [
      ("channel,time,cart\nfm1,yesterday,C1\n", "traffic.csv:2: scheduled_at: `yesterday` is not a time"),
      ("channel,scheduled_at,cart,length_s\nfm1,2026-03-02T06:10:00Z,C1,long\n", "traffic.csv:2: length_s: `long`"),
      ("channel,scheduled_at,cart,length_s\nfm1,2026-03-02T06:10:00Z,C1,1e300\n", "traffic.csv:2: length_s: `1e300`"),
      ("channel,scheduled_at\nfm1,2026-03-02T06:10:00Z\n", "traffic.csv:1: the header has no cart column"),
      ("channel,scheduled_at,cart\n\nfm1,2026-03-02T06:10:00Z,\n", "traffic.csv:3: cart: is empty"),
      ("channel,scheduled_at,cart\n\n", "traffic.csv:1: has a header and no spots"),
    ])
  func refused(text: String, message: String) {
    let error = #expect(throws: DataFileError.self) {
      try TrafficLogFile.parse(text, path: "traffic.csv", timeZone: Self.zone)
    }
    #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
  }
}
