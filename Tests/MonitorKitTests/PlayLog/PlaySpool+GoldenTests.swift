import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// A spool as the monitor writes it, kept in `Tests/Fixtures/golden/spool/plays.sqlite.spool`: a spool left by a stop
/// or a crash is replayed by the next start, which may run a newer version, so a change to how a play or another
/// command is written there must still read the spools of the version before it. A deliberate change to the format
/// updates the file (`UPDATE_GOLDEN=1`) and keeps a way to read the old one.
@Suite("PlaySpool golden file")
struct PlaySpoolGoldenTests {
  static let file = "spool/plays.sqlite.spool"
  /// The play log the golden spool names in its header.
  static let playLogPath = "plays.sqlite"

  static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_796_000_472.345 + seconds) }

  /// One entry of each play command, an event, heartbeats and a clean stop, with every field of a play given and left out.
  static let entries: [PlaySpool.Entry] = [
    PlaySpool.Entry(
      command: .start(
        token: 1,
        play: PlayRecord(
          channel: "fm", itemKey: "spot-17", title: "Été \"Spot\"", artist: "Annonceur", album: "Campagne",
          isrc: "ZZBMF2600017", label: "Régie", kind: .ad,
          attributes: ["advertiser": "Garage Dupont", "Cart": " C-117 "], itemDurationSeconds: 30.5,
          start: date(10.25), end: date(14.25), refOffsetSeconds: 2.5, speed: 1.04, confidence: 0.875,
          detectedAt: date(14.25), status: .open)),
      row: nil, continues: nil),
    PlaySpool.Entry(
      command: .start(
        token: 2,
        play: PlayRecord(
          id: 42, channel: "am", itemKey: "song-1", title: "Armygeddon", start: date(200), end: date(380.5),
          confidence: 0.5, detectedAt: date(204), status: .closed)),
      row: 42, continues: .recovered),
    PlaySpool.Entry(
      command: .update(
        token: 1, start: date(10), end: date(40.5), refOffsetSeconds: 2.25, speed: 1.04, confidence: 0.9,
        closed: true),
      row: 7, continues: nil),
    PlaySpool.Entry(command: .retract(token: 2), row: 42, continues: nil),
    PlaySpool.Entry(
      command: .event(channel: "fm", kind: .gap, start: date(500), end: date(502), detail: "dropped 2.0 s"), row: nil,
      continues: nil),
    PlaySpool.Entry(
      command: .heartbeat(channels: [
        ChannelHeartbeat(channel: "fm", heardThrough: date(510.125)),
        ChannelHeartbeat(channel: "am", heardThrough: date(509)),
      ]), row: nil, continues: nil),
    PlaySpool.Entry(command: .heartbeat(channels: []), row: nil, continues: nil),
    PlaySpool.Entry(command: .stopped, row: nil, continues: nil),
  ]

  @Test("The golden spool reads as the entries written into it")
  func readsGolden() throws {
    let spool = PlaySpool(
      playLogPath: Self.playLogPath, file: Golden.folder.appendingPathComponent(Self.file).path)
    let contents = try #require(try spool.read())
    #expect(contents.damage == nil)
    #expect(contents.entries == Self.entries)
  }

  @Test("A spool written today is the golden file, byte for byte")
  func writesGolden() throws {
    let folder = try TemporaryDirectory(prefix: "spool-golden")
    let spool = PlaySpool(playLogPath: Self.playLogPath, file: folder.file("plays.sqlite.spool").path)
    try spool.append(Self.entries)
    let written = try String(contentsOfFile: spool.path, encoding: .utf8)
    let mismatch = try Golden.mismatch(written, file: Self.file)
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }
}
