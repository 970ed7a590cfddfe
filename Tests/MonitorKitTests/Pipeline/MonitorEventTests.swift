import Foundation
import Testing

@testable import MonitorKit

@Suite("MonitorEvent")
struct MonitorEventTests {
  static let time = Date(timeIntervalSince1970: 1_796_000_472.345)

  @Test("a play event as JSON has time, channel, event, message and its fields, in that order")
  func playStartedJSON() throws {
    let event = MonitorEvent(
      time: Self.time, channel: "fm", name: .playStarted, message: "play started: \"Armygeddon\"",
      fields: [
        ("play_id", .integer(7)), ("title", .string("Armygeddon")), ("start", .time(Self.time)),
        ("speed", .number(1.04)), ("end", .null),
      ])
    #expect(
      event.jsonLine
        == #"{"time":"2026-11-30T01:01:12.345Z","channel":"fm","event":"play_started","#
        + #""message":"play started: \"Armygeddon\"","play_id":7,"title":"Armygeddon","#
        + #""start":"2026-11-30T01:01:12.345Z","speed":1.04,"end":null}"#)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(event.jsonLine.utf8)) as? [String: Any])
    #expect(object["event"] as? String == "play_started")
    #expect(object["speed"] as? Double == 1.04)
  }

  @Test("a monitor-wide notice has a null channel; quotes, backslashes, controls and non-ASCII survive JSON")
  func escaping() throws {
    let text = "a \"quoted\" back\\slash, tab\t, newline\n, escape \u{1B}, 夜に駆ける 🎵, \u{2028}"
    let event = MonitorEvent(time: Self.time, channel: nil, name: .notice, message: text)
    #expect(!event.jsonLine.contains("\n"), "one line")
    #expect(event.jsonLine.contains(#""channel":null"#))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(event.jsonLine.utf8)) as? [String: Any])
    #expect(object["message"] as? String == text)
    #expect(object["event"] as? String == "notice")
  }

  @Test("a title with an escape sequence, a line break or a bidirectional override stays one JSON line of plain text")
  func jsonLineHasNoControls() throws {
    let title = "Army\u{1B}[2J\ngeddon\r\n2026-11-30T01:01:12.345Z [fm] forged\u{9B}31m\u{202E}desrever\u{2029}end"
    let event = MonitorEvent(
      time: Self.time, channel: "f\u{1B}m", name: .playStarted, message: "play started: \"\(title)\"",
      fields: [("title", .string(title))])
    let line = event.jsonLine
    #expect(!line.unicodeScalars.contains(where: DisplayWidth.needsEscaping), "only printable characters: \(line)")
    #expect(line.contains(#"Army\u001b[2J\ngeddon\r\n"#) && line.contains(#"forged\u009b31m\u202edesrever\u2029end"#))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["title"] as? String == title, "the JSON keeps the title exactly")
    #expect(object["channel"] as? String == "f\u{1B}m")
  }

  @Test("a title with an escape sequence, a line break or a bidirectional override stays one text line of plain text")
  func textLineHasNoControls() {
    let event = MonitorEvent(
      time: Self.time, channel: "f\u{1B}m", name: .playStarted,
      message: "play started: \"Army\u{1B}[2J\ngeddon\n2026-11-30T01:01:12.345Z [fm] forged\u{202E}\u{2028}\"")
    #expect(
      event.textLine
        == "2026-11-30T01:01:12.345Z [f\u{FFFD}m] play started: \"Army\u{FFFD}[2J geddon 2026-11-30T01:01:12.345Z [fm] "
        + "forged\u{FFFD} \"")
  }

  @Test("numbers that are not finite are written as null")
  func nonFinite() {
    let event = MonitorEvent(
      time: Self.time, channel: "x", name: .overrun, message: "m", fields: [("level", .number(-.infinity))])
    #expect(event.jsonLine.hasSuffix(#""level":null}"#))
  }

  @Test("the text line is the time, the channel in brackets and the message")
  func textLine() {
    let event = MonitorEvent(time: Self.time, channel: "fm", name: .gap, message: "gap: stream ended")
    #expect(event.textLine == "2026-11-30T01:01:12.345Z [fm] gap: stream ended")
    #expect(
      MonitorEvent(time: Self.time, channel: nil, name: .notice, message: "stopped").textLine.hasSuffix("Z stopped"))
  }
}
