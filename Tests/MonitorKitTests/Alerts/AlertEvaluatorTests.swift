import Foundation
import Reports
import Testing

@testable import MonitorKit

@Suite("AlertEvaluator")
struct AlertEvaluatorTests {
  static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

  static func overview(failing: Bool = false) -> MonitorOverview {
    MonitorOverview(
      startedAt: t0, catalogPath: "c.bmcat", catalogItems: 3, catalogHours: 0.1, databasePath: "plays.sqlite",
      storeBacklog: failing ? 4 : 0, storeFailing: failing, jack: nil)
  }

  static func conditions(_ change: (inout AlertConditions) -> Void = { _ in }) -> AlertConditions {
    var conditions = AlertConditions.defaults
    change(&conditions)
    return conditions
  }

  @Test("a silent stretch opens one silence alert at its first silent second and closes it at the first loud one")
  func silence() {
    var evaluator = AlertEvaluator(
      conditions: ["fm": Self.conditions()], monitor: Self.conditions(), startedAt: Self.t0)
    var status = ChannelStatus(name: "fm", source: "file:x.wav", input: .running)
    // 10 s of music, 30 s of hiss at −60 dBFS, 20 s of music; a second of audio comes every second.
    let levels: [Float] =
      Array(repeating: -6, count: 10) + Array(repeating: -60, count: 30) + Array(repeating: -8, count: 20)
    var events: [(Int, AlertEvent)] = []
    for (i, level) in levels.enumerated() {
      status.levelSeconds.add(peakDB: level, at: Self.t0.timeIntervalSince1970 + Double(i))
      let now = Self.t0.addingTimeInterval(Double(i) + 1)
      for event in evaluator.evaluate(statuses: [status], overview: Self.overview(), now: now) {
        events.append((i, event))
      }
      if i == 30 { #expect(evaluator.active["fm"]?.map(\.kind) == [.silence]) }
    }
    #expect(events.map(\.1.opened) == [true, false])
    #expect(events.map(\.1.kind) == [.silence, .silence])
    #expect(events.first?.1.start == Self.t0.addingTimeInterval(10))
    #expect(events.first?.0 == 26, "opened once the 15th silent second was whole")
    #expect(events.last?.1.end == Self.t0.addingTimeInterval(40))
    #expect(events.last?.1.detail == "the level stayed below -50.0 dBFS for 15 s")
    #expect(evaluator.active.isEmpty)
  }

  @Test("a source that stays down opens source_down after 10 s, from the last audio heard; its return closes it")
  func sourceDown() {
    var evaluator = AlertEvaluator(
      conditions: ["am": Self.conditions()], monitor: Self.conditions(), startedAt: Self.t0)
    var status = ChannelStatus(name: "am", source: "http://127.0.0.1:9/x", input: .starting)
    var opened: [Double] = []
    var closed: [AlertEvent] = []
    for tenth in 0...400 {
      let seconds = Double(tenth) / 10
      if seconds == 25 { status.input = .running }
      for event in evaluator.evaluate(
        statuses: [status], overview: Self.overview(), now: Self.t0.addingTimeInterval(seconds))
      {
        if event.opened { opened.append(seconds) } else { closed.append(event) }
      }
    }
    #expect(opened == [10])
    #expect(closed.count == 1)
    #expect(closed.first?.start == Self.t0 && closed.first?.end == Self.t0.addingTimeInterval(25))
    #expect(closed.first?.detail == "no audio from http://127.0.0.1:9/x for 10 s (starting)")
  }

  @Test("an open source_down alert's detail follows the input's latest problem, and it closes with the latest")
  func sourceDownDetailFollows() throws {
    var evaluator = AlertEvaluator(
      conditions: ["am": Self.conditions()], monitor: Self.conditions(), startedAt: Self.t0)
    var status = ChannelStatus(name: "am", source: "http://radio.example/am", input: .starting)
    status.inputProblem = "cannot open the stream: Connection refused; retrying in 2 s"
    var events: [AlertEvent] = []
    func evaluate(at seconds: Double) {
      events += evaluator.evaluate(
        statuses: [status], overview: Self.overview(), now: Self.t0.addingTimeInterval(seconds))
    }
    for second in 0...12 { evaluate(at: Double(second)) }
    let opened = try #require(events.first)
    #expect(
      opened.detail
        == "no audio from http://radio.example/am for 10 s (starting); latest: cannot open the stream: "
        + "Connection refused; retrying in 2 s")
    status.input = .reconnecting
    status.inputProblem = "cannot open the stream: Failed to resolve hostname radio.example; retrying in 4 s"
    evaluate(at: 13)
    let now =
      "no audio from http://radio.example/am for 10 s (reconnecting); latest: cannot open the stream: "
      + "Failed to resolve hostname radio.example; retrying in 4 s"
    #expect(evaluator.active["am"]?.map(\.detail) == [now])
    #expect(events.count == 1, "a new detail is not a new alert")
    status.input = .running
    status.inputProblem = nil
    for second in 14...40 { evaluate(at: Double(second)) }
    #expect(events.count == 2)
    #expect(events.last?.opened == false && events.last?.detail == now)
  }

  @Test("the play log's alert says how many writes wait in the spool")
  func playLogSpooled() {
    var evaluator = AlertEvaluator(conditions: [:], monitor: Self.conditions(), startedAt: Self.t0)
    var overview = Self.overview(failing: true)
    overview.storeSpooled = 4
    var events: [AlertEvent] = []
    for second in 0...20 {
      events += evaluator.evaluate(statuses: [], overview: overview, now: Self.t0.addingTimeInterval(Double(second)))
    }
    #expect(
      events.map(\.detail) == ["the play log plays.sqlite cannot be written; 4 writes wait for it (4 in its spool)"])
  }

  @Test("the play log failing opens the monitor's alert, without a channel; a stop closes what is open")
  func playLogAndStop() {
    var evaluator = AlertEvaluator(
      conditions: ["fm": Self.conditions { $0.noCatalogSeconds = 60 }], monitor: Self.conditions(), startedAt: Self.t0)
    let status = ChannelStatus(name: "fm", source: "jack", input: .running)
    var events: [AlertEvent] = []
    for second in 0...70 {
      events += evaluator.evaluate(
        statuses: [status], overview: Self.overview(failing: second >= 5),
        now: Self.t0.addingTimeInterval(Double(second)))
    }
    #expect(events.map(\.kind) == [.playLogUnwritable, .noCatalog])
    #expect(events.map(\.channel) == [nil, "fm"])
    #expect(events.first?.start == Self.t0.addingTimeInterval(5))
    #expect(
      events.first?.detail
        == "the play log plays.sqlite cannot be written; 4 writes wait for it (0 in its spool, 4 in memory only: the "
        + "spool cannot be written either)", "the overview spools none of them")
    #expect(evaluator.active[nil]?.map(\.kind) == [.playLogUnwritable])
    let closed = evaluator.finish(now: Self.t0.addingTimeInterval(80))
    #expect(closed.map(\.kind) == [.noCatalog, .playLogUnwritable])
    #expect(closed.allSatisfy { !$0.opened && $0.end == Self.t0.addingTimeInterval(80) })
    #expect(evaluator.active.isEmpty)
  }

  @Test("a configuration read again closes the alerts of a channel removed or changed, and watches one added")
  func update() {
    var evaluator = AlertEvaluator(
      conditions: ["a": Self.conditions(), "b": Self.conditions()], monitor: Self.conditions(), startedAt: Self.t0)
    let down = ["a", "b", "c"].map { ChannelStatus(name: $0, source: "jack", input: .reconnecting) }
    var opened: [String?] = []
    for second in 0...10 {
      opened += evaluator.evaluate(
        statuses: down, overview: Self.overview(), now: Self.t0.addingTimeInterval(Double(second))
      ).map(\.channel)
    }
    #expect(opened == ["a", "b"], "c is not configured yet")
    let closed = evaluator.update(
      conditions: [
        "a": Self.conditions(), "b": Self.conditions { $0.sourceDownForSeconds = 20 }, "c": Self.conditions(),
      ],
      now: Self.t0.addingTimeInterval(11))
    #expect(closed.map(\.channel) == ["b"] && closed.allSatisfy { !$0.opened })
    #expect(closed.first?.end == Self.t0.addingTimeInterval(11))
    #expect(evaluator.active.keys.map { $0 ?? "-" }.sorted() == ["a"], "a kept its open alert")
    var later: [String?] = []
    for second in 11...40 {
      later += evaluator.evaluate(
        statuses: down, overview: Self.overview(), now: Self.t0.addingTimeInterval(Double(second))
      ).map(\.channel)
    }
    #expect(later == ["c", "b"], "c after 10 s from its start, b after its new 20 s")
    #expect(evaluator.update(conditions: [:], now: Self.t0.addingTimeInterval(41)).count == 3)
    #expect(evaluator.active.isEmpty)
  }

  @Test("the monitor's own conditions read again close its open alert and start afresh; the same ones keep it")
  func monitorConditionsUpdated() {
    let monitor = Self.conditions()
    var evaluator = AlertEvaluator(conditions: [:], monitor: monitor, startedAt: Self.t0)
    var events: [AlertEvent] = []
    for second in 0...20 {
      events += evaluator.evaluate(
        statuses: [], overview: Self.overview(failing: true), now: Self.t0.addingTimeInterval(Double(second)))
    }
    #expect(events.map(\.opened) == [true])
    #expect(evaluator.update(conditions: [:], monitor: monitor, now: Self.t0.addingTimeInterval(21)).isEmpty)
    #expect(evaluator.active[nil]?.map(\.kind) == [.playLogUnwritable])
    var longer = monitor
    longer.playLogUnwritableForSeconds = 60
    let closed = evaluator.update(conditions: [:], monitor: longer, now: Self.t0.addingTimeInterval(22))
    #expect(closed.map(\.kind) == [.playLogUnwritable] && closed.allSatisfy { !$0.opened })
    #expect(evaluator.active.isEmpty)
    var reopened: [AlertEvent] = []
    for second in 23...90 {
      reopened += evaluator.evaluate(
        statuses: [], overview: Self.overview(failing: true), now: Self.t0.addingTimeInterval(Double(second)))
    }
    #expect(reopened.map(\.start) == [Self.t0.addingTimeInterval(23)], "after its new 60 s, from its first failure")
  }

  @Test("a condition turned off opens nothing; nothing from the catalog is off by default")
  func off() {
    var evaluator = AlertEvaluator(
      conditions: ["fm": Self.conditions { $0.sourceDownForSeconds = nil }], monitor: Self.conditions(),
      startedAt: Self.t0)
    let status = ChannelStatus(name: "fm", source: "jack", input: .reconnecting)
    var events: [AlertEvent] = []
    for minute in 0...120 {
      events += evaluator.evaluate(
        statuses: [status], overview: Self.overview(), now: Self.t0.addingTimeInterval(Double(minute) * 60))
    }
    #expect(events.isEmpty)
  }

  /// Another node as a check at `checkedAt` finds it: its last heartbeat at `last` (the server's clock is this
  /// machine's here).
  static func peer(_ node: String, last: Double, checkedAt: Double, sessionEnded: Bool = true) -> PeerNode {
    PeerNode(
      node: node, channels: [node + "1", node + "2"], lastHeartbeat: t0.addingTimeInterval(last),
      silentSeconds: checkedAt - last, sessionEnded: sessionEnded)
  }

  @Test(
    "a node silent for 60 s opens node_down from its last heartbeat; its detail follows the nodes down; their return closes it"
  )
  func nodeDown() {
    var evaluator = AlertEvaluator(conditions: [:], monitor: Self.conditions(), startedAt: Self.t0)
    var events: [(Double, AlertEvent)] = []
    var detailAt100 = ""
    // Checks every 10 s (after each of this node's heartbeats), evaluations twice a second. Node b's last
    // heartbeat is at 5 s, node c's at 30 s; both write again from 120 s.
    for tenth in 0...1_500 {
      let seconds = Double(tenth) / 10
      guard tenth % 5 == 0 else { continue }
      let check = (seconds / 10).rounded(.down) * 10
      var overview = Self.overview()
      overview.peerNodesCheckedAt = Self.t0.addingTimeInterval(check)
      overview.peerNodes = [
        Self.peer("b", last: check < 120 ? 5 : check, checkedAt: check),
        Self.peer("c", last: check < 30 ? check : check < 120 ? 30 : check, checkedAt: check, sessionEnded: false),
      ]
      for event in evaluator.evaluate(statuses: [], overview: overview, now: Self.t0.addingTimeInterval(seconds)) {
        events.append((seconds, event))
      }
      if seconds == 100 { detailAt100 = evaluator.active[nil]?.first?.detail ?? "" }
    }
    #expect(events.map(\.1.opened) == [true, false])
    #expect(events.map(\.1.kind) == [.nodeDown, .nodeDown] && events.allSatisfy { $0.1.channel == nil })
    #expect(events.first?.0 == 70, "opened at the first check that found node b silent for 60 s")
    #expect(events.first?.1.start == Self.t0.addingTimeInterval(5), "from its last heartbeat")
    #expect(
      events.first?.1.detail
        == "Node b has written no heartbeat since 2027-01-15T08:00:05.000Z, and its session with the server has "
        + "ended: it was killed or crashed, or it lost the server; nothing from its channels b1, b2 reaches the play "
        + "log (a node that still runs keeps their plays in its spool). Start it again, or start a node whose "
        + "configuration lists its channels; if it is not coming back, retire it (broadcast-monitor db retire --node b "
        + "--db THE-PLAY-LOG).")
    #expect(
      detailAt100.contains(
        "--db THE-PLAY-LOG). Node c has written no heartbeat since 2027-01-15T08:00:30.000Z, and its session with the server is "
          + "still open: it hangs, or it lost its power or network under a minute ago and the server has not noticed "
          + "yet; nothing from its channels c1, c2 reaches the play log (a node that still runs keeps their plays in its "
          + "spool). Start it again"),
      "node c joined the open alert at the check of 90 s: \(detailAt100)")
    #expect(events.last?.0 == 130, "closed once both were back for holdSeconds")
    #expect(events.last?.1.end == Self.t0.addingTimeInterval(120))
    #expect(events.last?.1.detail == detailAt100, "it closes with the latest detail")
    #expect(evaluator.active.isEmpty)
  }

  @Test(
    "a node down whose channels were taken over stays down, its detail naming who took each; a standby node's names none"
  )
  func nodeDownAfterTakeover() {
    var evaluator = AlertEvaluator(conditions: [:], monitor: Self.conditions(), startedAt: Self.t0)
    var overview = Self.overview()
    overview.peerNodesCheckedAt = Self.t0.addingTimeInterval(70)
    overview.peerNodes = [
      PeerNode(
        node: "b", channels: ["b3"], takenOver: ["b2": "d", "b1": "c", "b4": "c"],
        lastHeartbeat: Self.t0.addingTimeInterval(5), silentSeconds: 65, sessionEnded: true),
      PeerNode(
        node: "e", channels: [], takenOver: ["e1": "c"], lastHeartbeat: Self.t0.addingTimeInterval(5),
        silentSeconds: 65, sessionEnded: true),
      PeerNode(
        node: "s", channels: [], lastHeartbeat: Self.t0.addingTimeInterval(9), silentSeconds: 61, sessionEnded: true),
    ]
    let events = evaluator.evaluate(statuses: [], overview: overview, now: Self.t0.addingTimeInterval(70))
    #expect(events.map(\.opened) == [true] && events.first?.start == Self.t0.addingTimeInterval(5))
    let ended = "and its session with the server has ended: it was killed or crashed, or it lost the server; "
    #expect(
      events.first?.detail
        == "Node b has written no heartbeat since 2027-01-15T08:00:05.000Z, \(ended)nothing from its channels b3 "
        + "reaches the play log (a node that still runs keeps their plays in its spool); its channels b1, b4 were "
        + "taken over by node c; its channel b2 was taken over by node d. Start it again, or start a node whose "
        + "configuration lists its channels; if it is not coming back, retire it (broadcast-monitor db retire --node b "
        + "--db THE-PLAY-LOG). "
        + "Node e has written no heartbeat since 2027-01-15T08:00:05.000Z, \(ended)its channel e1 was taken over by "
        + "node c. Start it again; if it is not coming back, retire it (broadcast-monitor db retire --node e --db "
        + "THE-PLAY-LOG). "
        + "Node s has written no heartbeat since 2027-01-15T08:00:09.000Z, \(ended)it listened to no channel (each "
        + "waited for another node). Start it again; if it is not coming back, retire it (broadcast-monitor db retire "
        + "--node s --db THE-PLAY-LOG).")
  }

  @Test(
    "a clean stop closes every open alert but node_down: the node it names is still down, and the nodes still running close it"
  )
  func stopLeavesNodeDownOpen() {
    var evaluator = AlertEvaluator(conditions: [:], monitor: Self.conditions(), startedAt: Self.t0)
    var overview = Self.overview(failing: true)
    overview.peerNodesCheckedAt = Self.t0.addingTimeInterval(70)
    overview.peerNodes = [Self.peer("b", last: 5, checkedAt: 70)]
    var opened: [AlertKind] = []
    for second in 0...80 {
      opened += evaluator.evaluate(statuses: [], overview: overview, now: Self.t0.addingTimeInterval(Double(second)))
        .filter(\.opened).map(\.kind)
    }
    #expect(Set(opened) == [.nodeDown, .playLogUnwritable])
    let closed = evaluator.finish(now: Self.t0.addingTimeInterval(81))
    #expect(closed.map(\.kind) == [.playLogUnwritable] && closed.allSatisfy { !$0.opened })
    #expect(evaluator.active[nil]?.map(\.kind) == [.nodeDown], "still open as this node stops")
  }

  @Test("node_down waits for the next check: while none comes (this node's play log fails), the alert stays as it was")
  func nodeDownWithoutChecks() {
    var evaluator = AlertEvaluator(conditions: [:], monitor: Self.conditions(), startedAt: Self.t0)
    var overview = Self.overview()
    overview.peerNodesCheckedAt = Self.t0.addingTimeInterval(50)
    overview.peerNodes = [Self.peer("b", last: 0, checkedAt: 50)]
    var events: [AlertEvent] = []
    for second in 50...400 {
      events += evaluator.evaluate(statuses: [], overview: overview, now: Self.t0.addingTimeInterval(Double(second)))
    }
    #expect(events.isEmpty, "the one check found b silent for 50 s; none since")
    overview.peerNodesCheckedAt = Self.t0.addingTimeInterval(410)
    overview.peerNodes = [Self.peer("b", last: 0, checkedAt: 410)]
    events += evaluator.evaluate(statuses: [], overview: overview, now: Self.t0.addingTimeInterval(410))
    #expect(events.map(\.opened) == [true] && events.first?.start == Self.t0)
    var off = Self.conditions()
    off.nodeDownForSeconds = nil
    var quiet = AlertEvaluator(conditions: [:], monitor: off, startedAt: Self.t0)
    #expect(quiet.evaluate(statuses: [], overview: overview, now: Self.t0.addingTimeInterval(410)).isEmpty)
    #expect(
      evaluator.update(conditions: [:], monitor: off, now: Self.t0.addingTimeInterval(411)).map(\.opened) == [false],
      "turned off by a reload: the open alert closes")
  }
}
