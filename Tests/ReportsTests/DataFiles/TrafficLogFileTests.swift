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
    "A bad line is refused with its line number, column and the fix",
    arguments: [
      ("channel,time,cart\nfm1,yesterday,C1\n", "traffic.csv:2: scheduled_at: `yesterday` is not a time"),
      ("channel,scheduled_at,cart,length_s\nfm1,2026-03-02T06:10:00Z,C1,long\n", "traffic.csv:2: length_s: `long`"),
      ("channel,scheduled_at,cart,length_s\nfm1,2026-03-02T06:10:00Z,C1,1e300\n", "traffic.csv:2: length_s: `1e300`"),
      ("channel,scheduled_at\nfm1,2026-03-02T06:10:00Z\n", "traffic.csv:1: the header has no cart column"),
      ("channel,scheduled_at,cart\n\nfm1,2026-03-02T06:10:00Z,\n", "traffic.csv:3: cart: is empty"),
    ])
  func refused(text: String, message: String) {
    let error = #expect(throws: DataFileError.self) {
      try TrafficLogFile.parse(text, path: "traffic.csv", timeZone: Self.zone)
    }
    #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
  }
}
