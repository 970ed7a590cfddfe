import Foundation
import Matcher
import Reports
import Testing

@testable import MonitorKit

@Suite("ConsoleLayout")
struct ConsoleLayoutTests {
  static let now = Date(timeIntervalSince1970: 1_796_000_472)

  static func channel(
    _ name: String, title: String = "Armygeddon", artist: String = "Muldjord", state: InputStatus = .running
  ) -> ChannelStatus {
    var status = ChannelStatus(name: name, source: "jack system:capture_1,system:capture_2")
    status.input = state
    status.matcher = .matching
    status.peakLevelDB = -12.3
    status.overrunCount = 2
    status.gapCount = 1
    status.current = [
      .init(
        title: title, artist: artist, start: now.addingTimeInterval(-75), end: now.addingTimeInterval(-1),
        referenceOffsetSeconds: 20, speed: 1.04, confidence: 0.42)
    ]
    return status
  }

  static func snapshot(_ channels: [ChannelStatus], events: [MonitorEvent] = []) -> ConsoleSnapshot {
    ConsoleSnapshot(
      now: now,
      overview: MonitorOverview(
        startedAt: now.addingTimeInterval(-3723), catalogPath: "/srv/music.bmcat", catalogItems: 1234,
        catalogHours: 81.5, databasePath: "/var/lib/broadcast-monitor/plays.sqlite", storeBacklog: 0,
        storeFailing: false,
        jack: .init(
          serverName: nil, clientName: "bm", connected: true, sampleRateHz: 48000, bufferFrames: 1024, xruns: 3)),
      channels: channels, events: events, cpuPercent: 12)
  }

  /// `channels` with the plays they recognized: on fm, "Chaos God" (ended after 30 s) and "Armygeddon" (on air);
  /// nothing on the others (a play withdrawn on web is not among its plays).
  static func withPlays(_ channels: [ChannelStatus]) -> [ChannelStatus] {
    channels.map { channel in
      var channel = channel
      if channel.name == "fm" {
        channel.recentPlays = [
          .init(
            id: 1, channel: "fm", title: "Chaos God", artist: "Muldjord", start: now.addingTimeInterval(-300),
            end: now.addingTimeInterval(-270)),
          .init(id: 3, channel: "fm", title: "Armygeddon", artist: "Muldjord", start: now.addingTimeInterval(-75)),
        ]
      }
      return channel
    }
  }

  func text(_ lines: [ConsoleLayout.Line]) -> String { lines.map(\.text).joined(separator: "\n") }

  @Test(
    "every line is exactly the terminal's width, and there are exactly its height of lines",
    arguments: [40, 80, 132, 200])
  func exactSize(width: Int) {
    let snapshot = Self.snapshot(
      Self.withPlays([Self.channel("fm"), Self.channel("夜のラジオ", title: "夜に駆ける 🎵", artist: "YOASOBI")]))
    for selection in [ConsoleSelection(), ConsoleSelection(channel: 1, showsDetail: true)] {
      let lines = ConsoleLayout.lines(snapshot, selection, width: width, height: 24)
      #expect(lines.count == 24)
      for line in lines { #expect(DisplayWidth.of(line.text) == width, "\(width): \(line.text)") }
    }
  }

  @Test("a channel with open alerts names them in its state and shows in the alert colour (red)")
  func alertRow() throws {
    var silent = Self.channel("fm")
    silent.alerts = [ActiveAlert(kind: .silence, since: Self.now.addingTimeInterval(-20), detail: "quiet")]
    let snapshot = Self.snapshot([Self.channel("am"), silent])
    let lines = ConsoleLayout.lines(snapshot, ConsoleSelection(), width: 200, height: 24)
    let row = try #require(lines.first { $0.text.hasPrefix("  fm") })
    #expect(row.style == .alert)
    #expect(row.text.contains(" silence "))
    #expect(lines.first { $0.text.hasPrefix("> am") }?.text.contains("silence") == false)
    var frame = TerminalFrame()
    #expect(frame.update(to: [row]).contains("\u{1B}[1;31m"))
  }

  @Test("at 200 columns a channel is one row with every field")
  func wideRow() throws {
    let lines = ConsoleLayout.lines(Self.snapshot([Self.channel("fm")]), ConsoleSelection(), width: 200, height: 24)
    let row = try #require(lines.first { $0.text.hasPrefix("> fm") })
    for field in [
      "jack system:capture_1", "matching", "[||||||  ]", "-12.3", "Armygeddon – Muldjord", "1:15", "1:36", "104.0%",
      "0.42", "2/1",
    ] {
      #expect(row.text.contains(field), "\(field) in \(row.text)")
    }
    #expect(row.style == .selected)
    let header = text(lines)
    for field in [
      "up 1:02:03", "catalog 1234 items, 81.5 h", "CPU 12 %", "01:01:12 UTC",
      "/var/lib/broadcast-monitor/plays.sqlite: ok", "JACK 48000 Hz, 1024 frames, 3 xruns",
    ] {
      #expect(header.contains(field), "\(field)")
    }
  }

  @Test(
    "at 80 and 132 columns a channel takes two lines: state and level, then the current item with its figures",
    arguments: [80, 132])
  func narrowRows(width: Int) throws {
    let lines = ConsoleLayout.lines(Self.snapshot([Self.channel("fm")]), ConsoleSelection(), width: width, height: 24)
    let index = try #require(lines.firstIndex { $0.text.hasPrefix("> fm") })
    #expect(
      lines[index].text.contains("matching") && lines[index].text.contains("-12.3") && lines[index].text.contains("2/1")
    )
    let second = lines[index + 1].text
    for field in ["Armygeddon – Muldjord", "1:15", "1:36", "104.0%", "0.42"] {
      #expect(second.contains(field), "\(field) in \(second)")
    }
  }

  @Test("Times show in the stations' zone, labelled with its offset from UTC")
  func stationTime() throws {
    let toronto = try #require(TimeZone(identifier: "America/Toronto"))
    var snapshot = Self.snapshot(Self.withPlays([Self.channel("fm")]))
    snapshot.timeZone = toronto
    let lines = ConsoleLayout.lines(snapshot, ConsoleSelection(), width: 132, height: 30)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = toronto
    formatter.dateFormat = "HH:mm:ss"
    // 2026-11-29 is on Eastern Standard Time.
    #expect(text(lines).contains(formatter.string(from: Self.now) + " UTC-05:00"), "\(text(lines))")
    #expect(!text(lines).contains(" UTC "))
    let panel = try #require(lines.last { $0.text.contains("Armygeddon") })
    #expect(panel.text.contains(formatter.string(from: Self.now.addingTimeInterval(-75))), "\(panel.text)")
    #expect(ConsoleLayout.zoneLabel(try #require(TimeZone(identifier: "Asia/Kolkata")), at: Self.now) == "UTC+05:30")
    #expect(ConsoleLayout.zoneLabel(try #require(TimeZone(identifier: "Europe/London")), at: Self.now) == "UTC")
  }

  @Test("The console shows the channels' zone when they share one, else UTC")
  func displayZone() {
    func channel(_ name: String, _ zone: String) -> ChannelConfiguration {
      ChannelConfiguration(name: name, source: .file(path: "/dev/null", loop: false), timeZone: zone)
    }
    let paris = [channel("a", "Europe/Paris"), channel("b", "Europe/Paris")]
    #expect(ConsoleView.displayZone(of: paris).identifier == "Europe/Paris")
    let mixed = paris + [channel("c", "America/Toronto")]
    #expect(ConsoleView.displayZone(of: mixed).secondsFromGMT(for: Self.now) == 0)
  }

  @Test("at 40 columns long titles are cut with an ellipsis and the state stays")
  func tinyWidth() throws {
    let title = "A Very Long Title That Goes On And On Forever"
    let lines = ConsoleLayout.lines(
      Self.snapshot([Self.channel("fm", title: title)]), ConsoleSelection(), width: 40, height: 24)
    let index = try #require(lines.firstIndex { $0.text.hasPrefix("> fm") })
    #expect(lines[index].text.contains("matching"))
    #expect(lines[index + 1].text.contains("A Very Long"))
    #expect(lines[index + 1].text.contains("…"))
    #expect(!lines[index + 1].text.contains("Forever"))
  }

  @Test("CJK and emoji titles are cut at their display width, never inside a character", arguments: [40, 80, 132, 200])
  func wideTitles(width: Int) throws {
    let title = "夜に駆ける 👩‍👩‍👧 群青 🇯🇵 アイドル 怪物 ハルジオン たぶん もう少しだけ 三原色 ツバメ"
    let lines = ConsoleLayout.lines(
      Self.snapshot([Self.channel("fm", title: title, artist: "YOASOBI")]), ConsoleSelection(), width: width, height: 24
    )
    let row = try #require(lines.first { $0.text.contains("夜に駆ける") })
    #expect(DisplayWidth.of(row.text) == width)
    let shown = row.text.split(separator: "夜", maxSplits: 1).last.map(String.init) ?? ""
    #expect(
      row.text.contains(title + " – YOASOBI") || shown.contains("…"),
      "a title longer than its column is cut: \(row.text)")
    if width <= 80 { #expect(shown.contains("…"), "\(row.text)") }
    for character in row.text
    where character.unicodeScalars.count > 1 && character.unicodeScalars.first!.properties.isEmoji {
      #expect(["👩‍👩‍👧", "🇯🇵"].contains(character), "whole grapheme clusters only: \(character)")
    }
  }

  @Test("many channels: the rows that fit around the selection, and which ones they are")
  func manyChannels() throws {
    let channels = (1...40).map { Self.channel("ch\($0)", title: "Song \($0)") }
    var selection = ConsoleSelection()
    selection.channel = 29
    let lines = ConsoleLayout.lines(Self.snapshot(channels), selection, width: 132, height: 24)
    #expect(lines.count == 24)
    let heading = try #require(lines.first { $0.text.contains("CHANNEL") })
    #expect(heading.text.contains("of 40"), "\(heading.text)")
    #expect(lines.contains { $0.text.hasPrefix("> ch30 ") }, "the selected channel is shown")
    #expect(lines.contains { $0.text.contains("Last plays") }, "the plays panel keeps its place")
    #expect(lines.last?.text.contains("q quit") == true)
  }

  @Test("the last plays across channels, newest first, without withdrawn ones; ended plays show their length")
  func lastPlays() {
    let plays = ConsoleLayout.recentPlays(Self.withPlays([Self.channel("web"), Self.channel("fm")]))
    #expect(plays.map(\.title) == ["Armygeddon", "Chaos God"])
    #expect(plays.map { $0.end == nil } == [true, false])
    let screen = text(
      ConsoleLayout.lines(
        Self.snapshot(Self.withPlays([Self.channel("fm")])), ConsoleSelection(), width: 80, height: 24))
    #expect(screen.contains("on air") && screen.contains("0:30"))
    #expect(!screen.contains("Internal Degeneration"))
  }

  @Test("a reconnecting channel, a failing play log and a missing JACK server are shown as warnings")
  func warnings() {
    var snapshot = Self.snapshot([Self.channel("web", state: .reconnecting)])
    snapshot.channels[0].current = []
    snapshot.overview.storeFailing = true
    snapshot.overview.storeBacklog = 17
    snapshot.overview.jack?.connected = false
    let lines = ConsoleLayout.lines(snapshot, ConsoleSelection(), width: 132, height: 24)
    let screen = text(lines)
    #expect(screen.contains("reconnecting") && screen.contains("(no audio)"))
    #expect(screen.contains("CANNOT BE WRITTEN, 17 writes waiting"))
    #expect(screen.contains("JACK server (default) away"))
    #expect(lines[1].style == .warning)
    snapshot.overview.jack = nil
    #expect(text(ConsoleLayout.lines(snapshot, ConsoleSelection(), width: 132, height: 24)).contains("JACK not used"))
  }

  @Test("another node down (its node_down alert open) is named in the play log's line, as a warning")
  func nodeDown() {
    var snapshot = Self.snapshot([Self.channel("fm")])
    snapshot.overview.peerNodes = [
      PeerNode(node: "studio-2", channels: ["b1"], lastHeartbeat: Date(), silentSeconds: 75, sessionEnded: true),
      PeerNode(node: "studio-3", channels: ["c1"], lastHeartbeat: Date(), silentSeconds: 4, sessionEnded: false),
    ]
    var lines = ConsoleLayout.lines(snapshot, ConsoleSelection(), width: 132, height: 24)
    #expect(!text(lines).contains("NODE DOWN") && lines[1].style == .plain, "no alert open: nothing said")
    snapshot.overview.alerts = [ActiveAlert(kind: .nodeDown, since: Date(), detail: "node studio-2 …")]
    lines = ConsoleLayout.lines(snapshot, ConsoleSelection(), width: 132, height: 24)
    #expect(lines[1].text.contains(": ok, NODE DOWN: studio-2  JACK"), "\(lines[1].text)")
    #expect(lines[1].style == .warning)
  }

  @Test("channels waiting for the nodes that hold them are named in the play log's line, by node, not as a warning")
  func waitingChannels() {
    var snapshot = Self.snapshot([Self.channel("fm")])
    func waiting(_ name: String, _ holder: String) -> WaitingChannel {
      WaitingChannel(
        configuration: ChannelConfiguration(name: name, source: .stream(url: "http://127.0.0.1:8000/live")),
        heldBy: holder,
        since: Self.now)
    }
    snapshot.overview.waitingChannels = [
      waiting("am", "studio-2"), waiting("dab", "studio-3"), waiting("lw", "studio-2"),
    ]
    let lines = ConsoleLayout.lines(snapshot, ConsoleSelection(), width: 160, height: 24)
    #expect(
      lines[1].text.contains(": ok, waiting for node studio-2: am, lw, waiting for node studio-3: dab  JACK"),
      "\(lines[1].text)")
    #expect(lines[1].style == .plain, "a standby's usual state")
  }

  @Test("unknown music on air shows as such, with its cluster and since when, in the row and the detail view")
  func unknownMusic() {
    var rock = Self.channel("rock")
    rock.current = []
    rock.unknownMusic = .init(since: Self.now.addingTimeInterval(-95), cluster: 7)
    var fresh = Self.channel("fresh")
    fresh.current = []
    fresh.unknownMusic = .init(since: Self.now.addingTimeInterval(-10))
    let snapshot = Self.snapshot([rock, fresh])
    for width in [100, 200] {
      let lines = ConsoleLayout.lines(snapshot, ConsoleSelection(), width: width, height: 24)
      #expect(lines.contains { $0.text.contains("unknown music (cluster 7)") && $0.text.contains("1:35") })
      #expect(lines.contains { $0.text.contains("unknown music ") && !$0.text.contains("cluster") })
    }
    let detail = ConsoleLayout.lines(
      snapshot, ConsoleSelection(channel: 0, showsDetail: true), width: 100, height: 40)
    #expect(detail.contains { $0.text.contains("unknown music (cluster 7): music that matched nothing") })
    #expect(detail.contains { $0.text.contains("since 00:59:37 UTC, 1:35 on air") }, "\(text(detail))")
    #expect(!detail.contains { $0.text.contains("nothing from the catalog") })
  }

  @Test("a lagging channel shows how far it is behind, in the warning colour, in its row and its detail view")
  func lagging() {
    var lagging = Self.channel("fm")
    lagging.lagSeconds = 4.26
    lagging.laggingSince = Self.now.addingTimeInterval(-30)
    var keepingUp = Self.channel("web")
    keepingUp.lagSeconds = 0.3
    let event = MonitorEvent(
      time: Self.now, channel: "fm", name: .lagging, message: "lagging: the matcher is 4.3 s behind real time")
    let snapshot = Self.snapshot([keepingUp, lagging], events: [event])
    for width in [100, 200] {
      let lines = ConsoleLayout.lines(snapshot, ConsoleSelection(), width: width, height: 24)
      let fm = lines.first { $0.text.contains("fm ") && $0.text.contains("behind") }
      #expect(fm?.text.contains("behind 4.3 s") == true, "\(width) columns: \(text(lines))")
      #expect(fm?.style == .warning)
      let web = lines.first { $0.text.contains("web ") }
      #expect(web?.text.contains("matching") == true)
      #expect(web?.style == .selected)
    }
    var behind = lagging
    behind.lagSeconds = 23.4
    #expect(ConsoleLayout.stateText(behind) == "behind 23 s")

    let detail = ConsoleLayout.lines(
      snapshot, ConsoleSelection(channel: 1, showsDetail: true), width: 100, height: 40)
    let lag = detail.first { $0.text.contains("lag ") }
    #expect(lag?.text.contains("4.3 s of audio waiting: lagging since 01:00:42 UTC") == true, "\(text(detail))")
    #expect(lag?.style == .warning)
    #expect(detail.contains { $0.text.contains("lagging: the matcher") && $0.style == .warning })
    let calm = ConsoleLayout.lines(snapshot, ConsoleSelection(channel: 0, showsDetail: true), width: 100, height: 40)
    #expect(
      calm.contains { $0.text.contains("lag") && $0.text.contains("0.3 s of audio waiting") && $0.style == .plain })
  }

  @Test("the detail view shows the selected channel in full, with its plays and log")
  func detail() {
    let events = [MonitorEvent(time: Self.now, channel: "fm", name: .gap, message: "gap: JACK source port gone")]
    let snapshot = Self.snapshot(Self.withPlays([Self.channel("web"), Self.channel("fm")]), events: events)
    let screen = text(
      ConsoleLayout.lines(snapshot, ConsoleSelection(channel: 1, showsDetail: true), width: 100, height: 40))
    for field in [
      "Channel fm", "matching", "-12.3 dBFS", "2 overruns", "1 gaps", "reference from 0:20, now at 1:36",
      "speed 104.0 %", "confidence 0.42", "Last plays on fm", "Chaos God", "gap: JACK source port gone", "Esc back",
    ] {
      #expect(screen.contains(field), "\(field)")
    }
  }

  @Test("below 140 columns the second line of each channel has its own labels, under the heading")
  func twoLineLabels() throws {
    let lines = ConsoleLayout.lines(Self.snapshot([Self.channel("fm")]), ConsoleSelection(), width: 80, height: 24)
    let heading = try #require(lines.firstIndex { $0.text.contains("CHANNEL") })
    for label in ["NOW PLAYING", "ON AIR", "REF", "SPEED", "CONF"] {
      #expect(lines[heading + 1].text.contains(label), "\(label) in \(lines[heading + 1].text)")
    }
    #expect(lines[heading + 1].style == .heading)
    #expect(lines[heading + 2].text.hasPrefix("> fm"))
  }

  @Test("at 160 columns channel names are shown in full, here and in the plays panel")
  func fullNames() throws {
    let name = "Radio Nordlicht Klassik HD"
    var channel = Self.channel(name)
    channel.recentPlays = [.init(id: 1, channel: name, title: "Armygeddon", artist: "", start: Self.now)]
    let lines = ConsoleLayout.lines(Self.snapshot([channel]), ConsoleSelection(), width: 160, height: 24)
    #expect(lines.contains { $0.text.hasPrefix("> \(name) ") }, "\(text(lines))")
    #expect(lines.contains { !$0.text.hasPrefix(">") && $0.text.contains(name + " ") }, "\(text(lines))")
  }

  @Test("digital silence reads -inf, and a level above full scale reads 0.0 with a full meter")
  func levels() {
    #expect(ConsoleLayout.levelText(-.infinity) == "-inf")
    #expect(ConsoleLayout.levelText(0.8) == "0.0")
    #expect(ConsoleLayout.levelText(-0.04) == "0.0", "never -0.0")
    #expect(ConsoleLayout.levelText(-12.34) == "-12.3")
    #expect(ConsoleLayout.meter(0.8, width: 6) == "[||||]")
  }

  @Test("the state cell has its colour: matching green, reconnecting red, lagging yellow, idle none")
  func stateColours() throws {
    var web = Self.channel("web", state: .reconnecting)
    web.current = []
    var night = Self.channel("night")
    night.laggingSince = Self.now
    night.lagSeconds = 4
    var idle = Self.channel("am")
    idle.matcher = .idle
    let lines = ConsoleLayout.lines(
      Self.snapshot([Self.channel("fm"), web, night, idle]), ConsoleSelection(), width: 160, height: 24)
    func row(_ name: String) throws -> ConsoleLayout.Line {
      try #require(lines.first { $0.text.dropFirst(2).hasPrefix(name + " ") })
    }
    func colour(_ line: ConsoleLayout.Line, _ word: String) -> ConsoleLayout.Line.Colour? {
      line.accents.first { accent in
        let characters = Array(line.text)
        return String(characters[accent.column..<(accent.column + accent.width)]).hasPrefix(word)
      }?.colour
    }
    #expect(colour(try row("fm"), "matching") == .green)
    #expect(colour(try row("web"), "reconnecting") == .red)
    #expect(colour(try row("night"), "behind") == .yellow)
    #expect(try row("am").accents.isEmpty)
  }

  @Test("colours unless NO_COLOR is set to something (an empty NO_COLOR is as if it were not set)")
  func noColor() {
    #expect(ConsoleView.showsColours(environment: [:]))
    #expect(ConsoleView.showsColours(environment: ["NO_COLOR": ""]))
    #expect(!ConsoleView.showsColours(environment: ["NO_COLOR": "1"]))
  }

  @Test("a tiny terminal still gets exactly its size")
  func tiny() {
    for (width, height) in [(1, 1), (10, 3), (20, 5)] {
      let lines = ConsoleLayout.lines(
        Self.snapshot([Self.channel("fm")]), ConsoleSelection(), width: width, height: height)
      #expect(lines.count == height)
      #expect(lines.allSatisfy { DisplayWidth.of($0.text) == width })
    }
  }
}
