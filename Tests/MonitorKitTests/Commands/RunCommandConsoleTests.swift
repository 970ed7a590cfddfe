import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// `broadcast-monitor run` on a terminal, as a person sees it: the built monitor in a tmux pane of a fixed size,
/// its screen captured, keys typed and the window resized; and `--json` without a terminal.
@Suite(
  "broadcast-monitor run: the console", .serialized, .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: TmuxSession.isInstalled, TmuxSession.notInstalled),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct RunCommandConsoleTests {
  let folder: TemporaryDirectory
  var catalog: URL { folder.file("music.bmcat") }
  var db: String { folder.file("plays.sqlite").path }

  init() throws {
    folder = try TemporaryDirectory(prefix: "cli-console")
    try CLI.makeCatalog(at: catalog)
  }

  /// The row of `channel` and the line after it (where the current item is below 140 columns).
  static func row(_ channel: String, in screen: [String]) -> (row: String, next: String)? {
    guard let index = screen.firstIndex(where: { $0.hasPrefix("> \(channel) ") || $0.hasPrefix("  \(channel) ") })
    else { return nil }
    return (screen[index], index + 1 < screen.count ? screen[index + 1] : "")
  }

  static func fits(_ screen: [String], width: Int) -> Bool {
    screen.allSatisfy { DisplayWidth.of($0) <= width }
  }

  @Test("each channel row shows the track playing; a resize redraws to the new width; q exits cleanly, plays closed")
  func consoleInTmux() throws {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let a = Fixtures.music("catalog-a.ogg").path
    let b = Fixtures.music("catalog-c.ogg").path
    let command =
      "'\(executable.path)' run --catalog '\(catalog.path)' --db '\(db)' --channel a=file:'\(a)' "
      + "--channel b=file+loop:'\(b)'; echo \"exit status $?\"; sleep 60"
    let tmux = try TmuxSession(command: command, width: 100, height: 30, socket: folder.file("tmux.sock").path)

    // 100 columns: two lines per channel, the current item on the second.
    let first = try tmux.waitFor("both channels playing", seconds: 45) { screen in
      guard let a = Self.row("a", in: screen), let b = Self.row("b", in: screen) else { return false }
      return a.next.contains("Armygeddon – Muldjord") && b.next.contains("Internal Degeneration – Muldjord")
    }
    #expect(first[0].hasPrefix("broadcast-monitor  up "), "the header: \(first[0])")
    #expect(
      first[1].contains("play log") && first[1].contains("plays.sqlite: ok") && first[1].contains("JACK not used"))
    #expect(Self.row("a", in: first)?.row.contains("matching") == true)
    #expect(first.contains { $0.contains("Last plays") })
    #expect(Self.fits(first, width: 100))
    #expect(!first.joined().contains("play started:"), "log lines do not tear the screen")

    // Wider: one line per channel with the item in it.
    try tmux.resize(width: 140, height: 30)
    let wide = try tmux.waitFor("the one-line rows at 140 columns") { screen in
      screen.contains { $0.contains("CHANNEL") && $0.contains("NOW PLAYING") }
        && Self.row("a", in: screen)?.row.contains("Armygeddon – Muldjord") == true
        && Self.row("b", in: screen)?.row.contains("Internal Degeneration") == true
    }
    #expect(Self.fits(wide, width: 140))
    #expect(wide.contains { DisplayWidth.of($0) > 100 }, "the redraw uses the new width")

    // Narrower: everything fits in 50 columns.
    try tmux.resize(width: 50, height: 24)
    let narrow = try tmux.waitFor("the redraw at 50 columns") { screen in
      screen.count >= 24 && Self.fits(screen, width: 50) && Self.row("b", in: screen)?.next.contains("Internal") == true
        && screen.contains { $0.contains("─") && DisplayWidth.of($0) == 50 }
    }
    #expect(Self.fits(narrow, width: 50))

    // The detail view of channel b, and back.
    try tmux.resize(width: 100, height: 30)
    try tmux.send("Down")
    try tmux.send("Enter")
    try tmux.waitFor("the detail view of b") { screen in
      screen.contains { $0.hasPrefix("Channel b") }
        && screen.contains { $0.contains("Internal Degeneration – Muldjord") }
        && screen.contains { $0.contains("confidence") }
    }
    try tmux.send("Escape")
    try tmux.waitFor("the overview again") { screen in Self.row("b", in: screen)?.row.hasPrefix("> b") == true }

    // q: stops like SIGTERM, the terminal comes back, the play on air is closed.
    try tmux.send("q")
    let after = try tmux.waitFor("the exit status") { screen in screen.contains { $0.hasPrefix("exit status") } }
    #expect(after.contains("exit status 0"), "\(after.joined(separator: "\n"))")
    #expect(!after.contains { $0.hasPrefix("broadcast-monitor  up ") }, "the console's screen is gone")
    #expect(after.contains { $0.contains("q: stopping") }, "the log lines after the console")
    #expect(after.contains { $0.contains("[a] play started: \"Armygeddon\"") }, "the held lines are replayed")
    #expect(after.joined().contains("plays recognized in this run. Play log: \(db)"), "the summary (wrapped by tmux)")

    let plays = try PlayLogStore(path: db).plays()
    #expect(Set(plays.map(\.metadata.title)).isSuperset(of: ["Armygeddon", "Internal Degeneration"]), "\(plays)")
    #expect(plays.allSatisfy { $0.status == .closed }, "\(plays)")
  }

  @Test("--json writes one JSON object per event on standard output, plays with their data")
  func jsonLines() throws {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let monitor = try BackgroundProcess(
      executable: executable.path,
      arguments: [
        "run", "--json", "--catalog", catalog.path, "--db", db, "--channel",
        "demo=file:" + Fixtures.music("catalog-a.ogg").path,
      ], outputPath: folder.file("json.txt").path)
    let deadline = Date().addingTimeInterval(60)
    while !monitor.output.contains(#""event":"play_ended""#) && monitor.isRunning && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.2)
    }
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")
    var events: [[String: Any]] = []
    for line in CLI.lines(monitor.output) {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      try #require(object != nil, "not a JSON object: \(line)")
      events.append(object!)
    }
    #expect(events.allSatisfy { $0["time"] is String && $0["event"] is String && $0["message"] is String })
    let started = try #require(events.first { $0["event"] as? String == "play_started" }, "\(monitor.output)")
    #expect(started["channel"] as? String == "demo")
    #expect(started["title"] as? String == "Armygeddon" && started["artist"] as? String == "Muldjord")
    #expect(started["isrc"] as? String == "ZZBMF2600001")
    #expect((started["speed"] as? Double).map { abs($0 - 1) < 0.01 } == true)
    #expect(started["confidence"] is Double && started["ref_offset_s"] is Double && started["start"] is String)
    let ended = try #require(events.first { $0["event"] as? String == "play_ended" })
    #expect(ended["play_id"] as? Int == started["play_id"] as? Int)
    #expect((ended["duration_s"] as? Double).map { abs($0 - 30) < 1.5 } == true)
    #expect(events.last?["message"] as? String == "stopped")
    #expect(events.last?["channel"] is NSNull)
  }
}
