import Foundation
import TestSupport
import Testing

@testable import MonitorKit

/// The console's overview at 80 and 160 columns against golden files (`Tests/Fixtures/golden/console/`), for a set
/// of channels that covers what a screen must get right: a long channel name, digital silence, a level above full
/// scale, a reconnecting and a lagging channel, and a channel whose next item just started while the matcher keeps
/// the finished one running, and one with unknown music on air. `UPDATE_GOLDEN=1` rewrites the files.
@Suite("Console golden screens")
struct ConsoleGoldenTests {
  static let now = ConsoleLayoutTests.now

  /// The channels of the golden screens.
  static var channels: [ChannelStatus] {
    var fm = ConsoleLayoutTests.channel("fm")
    fm.recentPlays = [
      .init(
        id: 1, channel: "fm", title: "Chaos God", artist: "Muldjord", start: now.addingTimeInterval(-300),
        end: now.addingTimeInterval(-75)),
      .init(id: 3, channel: "fm", title: "Armygeddon", artist: "Muldjord", start: now.addingTimeInterval(-75)),
    ]
    var klassik = ConsoleLayoutTests.channel(
      "Radio Nordlicht Klassik HD", title: "Internal Degeneration", artist: "Muldjord")
    klassik.peakLevelDB = 0.8  // decoded Vorbis peaks a little above full scale
    var web = ConsoleLayoutTests.channel("web", state: .reconnecting)
    web.current = []
    web.peakLevelDB = -.infinity
    var night = ConsoleLayoutTests.channel("night")
    night.lagSeconds = 4.26
    night.laggingSince = now.addingTimeInterval(-30)
    var silent = ConsoleLayoutTests.channel("am")
    silent.current = []
    silent.matcher = .idle
    silent.peakLevelDB = -.infinity
    var rock = ConsoleLayoutTests.channel("rock")
    rock.current = []
    rock.unknownMusic = .init(since: now.addingTimeInterval(-95), cluster: 7)
    return [fm, klassik, web, night, silent, rock]
  }

  static func screen(width: Int) -> [ConsoleLayout.Line] {
    ConsoleLayout.lines(
      ConsoleLayoutTests.snapshot(channels), ConsoleSelection(), width: width, height: 24)
  }

  @Test("the overview matches its golden file", arguments: [80, 160])
  func overview(width: Int) throws {
    let text = Self.screen(width: width).map(\.text).joined(separator: "\n") + "\n"
    let mismatch = try Golden.mismatch(text, file: "console/overview-\(width).txt")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  @Test("the overview's colours at 80 columns match their golden file (escape sequences shown as \\e)")
  func colours() throws {
    var frame = TerminalFrame(colors: true)
    let bytes = frame.update(to: Self.screen(width: 80))
    let lines = Self.readable(bytes)
    let mismatch = try Golden.mismatch(lines, file: "console/overview-80-colour.txt")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  /// `bytes` with ESC written as `\e` and a line break before each cursor move.
  static func readable(_ bytes: String) -> String {
    var out = ""
    var rest = Substring(bytes)
    while let range = rest.range(of: "\u{1B}[") {
      let head = rest[..<range.lowerBound]
      out += head
      let after = rest[range.upperBound...]
      if let move = after.firstIndex(where: { $0 == "H" }),
        after[..<move].allSatisfy({ $0.isNumber || $0 == ";" }), !after[..<move].isEmpty
      {
        out += "\n\\e[" + after[...move]
        rest = after[after.index(after: move)...]
      } else {
        out += "\\e["
        rest = after
      }
    }
    return out + rest + "\n"
  }
}
