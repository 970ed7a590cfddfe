import Foundation
import Reports
import Synchronization
import TestSupport
import Testing

@testable import MonitorKit

/// The alerts in a running monitor (`Monitor`, in this process): real inputs, the timer thread, the play log.
@Suite(
  "AlertWatcher", .serialized, .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct AlertWatcherTests {
  let folder: TemporaryDirectory
  var catalog: URL { folder.file("music.bmcat") }
  var db: String { folder.file("plays.sqlite").path }

  init() throws {
    folder = try TemporaryDirectory(prefix: "alerts")
    try CLI.makeCatalog(at: catalog)
  }

  func configuration(_ channels: [ChannelConfiguration], alerts: AlertSettings = AlertSettings())
    -> MonitorConfiguration
  {
    var configuration = MonitorConfiguration(
      catalogPath: catalog.path, databasePath: db, workerThreads: 2, channels: channels)
    configuration.alerts = alerts
    return configuration
  }

  /// Waits for the first event of `kind` (and `alert`) in `log`.
  @discardableResult
  func waitFor(
    _ name: EventKind, alert: AlertKind? = nil, in log: MonitorLog, seconds: Double = 60
  ) throws -> MonitorEvent {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let event = log.recentEvents.first(where: {
        $0.name == name && (alert == nil || $0.field("kind") == .string(alert!.rawValue))
      }) {
        return event
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    Issue.record("no \(name.rawValue) within \(seconds) s:\n\(log.recentLines.joined(separator: "\n"))")
    throw CancellationError()
  }

  func alertRows() throws -> [AlertRecord] {
    try PlayLogReader(path: db).alerts(fromMilliseconds: .min, toMilliseconds: .max)
  }

  @Test("a file channel with a silent stretch opens one silence alert and closes it, with the stretch's times")
  func silenceOnAFile() throws {
    // 5 s of tone, 8 s of digital silence, 7 s of tone.
    let rate = 8000
    let tone = (0..<(5 * rate)).map { Float(0.5 * sin(Double($0) * 2 * .pi * 440 / Double(rate))) }
    let samples = tone + [Float](repeating: 0, count: 8 * rate) + tone + tone.prefix(2 * rate)
    let file = folder.file("silence.wav")
    try WAVWriter.write(samples, sampleRate: rate, to: file)
    var channel = ChannelConfiguration(name: "demo", source: .file(path: file.path, loop: false))
    channel.alertOverrides.silence.forSeconds = 3
    channel.alertOverrides.holdSeconds = 2
    let log = MonitorLog(write: { _ in })
    let monitor = try Monitor(configuration: configuration([channel]), log: log)
    try monitor.start()
    let started = Date()
    let opened = try waitFor(.alertOpened, alert: .silence, in: log)
    #expect(monitor.statuses[0].alerts.map(\.kind) == [.silence], "the console and the API see it")
    let closed = try waitFor(.alertClosed, alert: .silence, in: log)
    let levels = monitor.statuses[0].levelSeconds
    monitor.stop()

    guard case .time(let start)? = opened.field("start"), case .time(let end)? = closed.field("end") else {
      Issue.record("no start or end: \(opened) \(closed)")
      return
    }
    // The file's audio starts when ffmpeg delivers it, a moment after the start.
    let silenceStart = start.timeIntervalSince(started)
    #expect(silenceStart > 4 && silenceStart < 7.5, "\(silenceStart)")
    #expect(
      abs(end.timeIntervalSince(start) - 8) <= 1.01,
      "\(end.timeIntervalSince(start)) s from \(start.timeIntervalSince1970); peaks by second from \(levels.firstSecond): \(levels.peaksDB)"
    )
    #expect(opened.time.timeIntervalSince(start) >= 3, "opened once it had held for 3 s")
    let rows = try alertRows()
    #expect(rows.count == 1, "\(rows)")
    #expect(rows.first?.kind == "silence" && rows.first?.channel == "demo")
    #expect(rows.first?.start == start && rows.first?.end == end)
    #expect(log.recentEvents.filter { $0.name == .alertOpened || $0.name == .alertClosed }.count == 2)
  }

  @Test("a dead stream opens source_down after 10 s; the stop closes it; the rows survive a restart")
  func deadStream() throws {
    let port = try LocalTCP.freePort()
    let channel = ChannelConfiguration(name: "am", source: .stream(url: "http://127.0.0.1:\(port)/live"))
    do {  // the monitor, and its lock on the play log, end with this scope
      let log = MonitorLog(write: { _ in })
      let monitor = try Monitor(configuration: configuration([channel]), log: log)
      let launched = Date()
      try monitor.start()
      let opened = try waitFor(.alertOpened, alert: .sourceDown, in: log, seconds: 30)
      let after = opened.time.timeIntervalSince(launched)
      #expect(after >= 10 && after < 12, "opened \(after) s after the start")
      guard case .string(let detail) = opened.field("detail") else {
        Issue.record("no detail: \(opened)")
        return
      }
      #expect(
        detail.contains("; latest: ") && detail.contains("Connection refused"),
        "says why: \(detail)\n\(log.recentLines.joined(separator: "\n"))")
      #expect(try alertRowsSoon(count: 1).first?.end == nil, "in the play log while open")
      monitor.stop()
    }
    let rows = try alertRows()
    #expect(rows.count == 1 && rows.first?.kind == "source_down" && rows.first?.end != nil, "\(rows)")

    // A second run on the same play log keeps the row (its start recovers only alerts left open), and adds none of
    // its own while it runs with the stream down (source_down needs 10 s of it) or as it stops.
    let second = try Monitor(configuration: configuration([channel]), log: MonitorLog(write: { _ in }))
    try second.start()
    #expect(Wait.until(seconds: 30) { second.statuses[0].input == .reconnecting }, "the second run finds it down")
    second.stop()
    #expect(try alertRows() == rows)
  }

  @Test("an open alert's new detail reaches the channel's status without an event: source_down's latest reason")
  func activeDetailFollows() throws {
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: db), log: log)
    defer { _ = writer.stop() }
    let watcher = AlertWatcher(
      evaluator: AlertEvaluator(
        conditions: ["am": AlertConditions.defaults], monitor: AlertConditions.defaults,
        startedAt: Date().addingTimeInterval(-60)),
      writer: writer, log: log, deliveries: [], evaluationSeconds: 0.05)
    let status = Mutex(ChannelStatus(name: "am", source: "http://radio.example/am", input: .reconnecting))
    status.withLock {
      $0.inputProblem = "Connection refused; retrying in 1 s"
      $0.lastAudioTime = Date().timeIntervalSince1970 - 30  // down long enough: the alert opens at once
    }
    let overview = MonitorOverview(
      startedAt: Date(), catalogPath: "c.bmcat", catalogItems: 1, catalogHours: 0.1, databasePath: db,
      storeBacklog: 0, storeFailing: false, jack: nil)
    watcher.start { ([status.withLock { $0 }], overview) }
    defer { watcher.stop() }
    #expect(
      Wait.until(seconds: 10) { watcher.active(channel: "am").first?.detail.hasSuffix("retrying in 1 s") == true })
    status.withLock { $0.inputProblem = "Failed to resolve hostname radio.example; retrying in 2 s" }
    #expect(
      Wait.until(seconds: 10) { watcher.active(channel: "am").first?.detail.hasSuffix("retrying in 2 s") == true },
      "\(watcher.active(channel: "am"))")
  }

  @Test("a channel a reload adds is watched: its dead stream opens source_down")
  func channelAddedByReload() throws {
    let file = ChannelConfiguration(name: "fm", source: .file(path: Fixtures.music("catalog-a.ogg").path, loop: true))
    let port = try LocalTCP.freePort()
    let dead = ChannelConfiguration(name: "web", source: .stream(url: "http://127.0.0.1:\(port)/live"))
    var alerts = AlertSettings()
    alerts.overrides.sourceDown.forSeconds = 1
    let log = MonitorLog(write: { _ in })
    let monitor = try Monitor(configuration: configuration([file], alerts: alerts), log: log)
    try monitor.start()
    defer { monitor.stop() }
    monitor.reload { configuration([file, dead], alerts: alerts) }
    let opened = try waitFor(.alertOpened, alert: .sourceDown, in: log, seconds: 20)
    #expect(opened.channel == "web")
    #expect(monitor.statuses.first { $0.name == "web" }?.alerts.map(\.kind) == [.sourceDown])
  }

  @Test("a reload's webhooks take the alerts from then on: the removed one gets no more, the added one gets them")
  func webhooksReplacedByReload() throws {
    let first = try WebhookReceiver { _ in (200, 0) }
    let second = try WebhookReceiver { _ in (200, 0) }
    let port = try LocalTCP.freePort()
    let dead = ChannelConfiguration(name: "web", source: .stream(url: "http://127.0.0.1:\(port)/live"))
    var alerts = AlertSettings()
    alerts.overrides.sourceDown.forSeconds = 1
    alerts.webhooks = [AlertWebhookSettings(url: first.url)]
    let log = MonitorLog(write: { _ in })
    let monitor = try Monitor(configuration: configuration([dead], alerts: alerts), log: log)
    try monitor.start()
    #expect(first.wait(forRequests: 1, seconds: 20), "the opening goes to the first webhook")
    alerts.webhooks = [AlertWebhookSettings(url: second.url)]
    #expect(monitor.reload { configuration([dead], alerts: alerts) })
    #expect(!log.recentLines.contains { $0.contains("takes effect at the next start") }, "\(log.recentLines)")
    monitor.stop()  // closes the alert
    #expect(second.wait(forRequests: 1, seconds: 20), "the closing goes to the second webhook")
    #expect(first.received.count == 1 && first.received[0].contains(#""event":"alert_opened""#), "\(first.received)")
    #expect(second.received.count == 1 && second.received[0].contains(#""event":"alert_closed""#))
  }

  @Test("a webhook or command whose settings a reload keeps goes on with its queue; one changed is made anew")
  func deliveriesKeptOrMade() throws {
    let log = MonitorLog(write: { _ in })
    var settings = AlertSettings()
    settings.webhooks = [
      AlertWebhookSettings(url: "http://127.0.0.1:9/a"), AlertWebhookSettings(url: "http://127.0.0.1:9/a"),
    ]
    settings.command = "true"
    let running = AlertWatcher.deliveries(for: settings, reusing: [], log: log).kept
    defer { for delivery in running { _ = delivery.stop(waitingSeconds: 0) } }
    let same = AlertWatcher.deliveries(for: settings, reusing: running, log: log)
    #expect(same.retired.isEmpty && same.kept.count == 3)
    #expect(zip(same.kept, running).allSatisfy { $0 as AnyObject === $1 as AnyObject }, "each taken once, in order")
    var changed = settings
    changed.webhooks = [AlertWebhookSettings(url: "http://127.0.0.1:9/a", kinds: [.silence])]
    changed.commandTimeoutSeconds += 1
    let other = AlertWatcher.deliveries(for: changed, reusing: running, log: log)
    defer { for delivery in other.kept { _ = delivery.stop(waitingSeconds: 0) } }
    #expect(other.retired.count == 3 && other.kept.count == 2)
    #expect(!other.kept.contains { kept in running.contains { $0 as AnyObject === kept as AnyObject } })
  }

  @Test("an alert a killed monitor left open is closed at the next start, once")
  func openAlertRecovered() throws {
    do {
      let store = try PlayLogStore(path: db)
      try store.openAlert(channel: "fm", kind: "silence", start: Date(timeIntervalSinceNow: -60), detail: "quiet")
      try store.close()
    }
    let file = Fixtures.music("catalog-a.ogg").path
    let monitor = try Monitor(
      configuration: configuration([ChannelConfiguration(name: "fm", source: .file(path: file, loop: false))]),
      log: MonitorLog(write: { _ in }))
    try monitor.start()
    monitor.stop()
    let rows = try alertRows()
    #expect(rows.count == 1 && rows.first?.end != nil, "\(rows)")
    #expect(rows.first?.detail.hasSuffix("closed at its next start") == true)
  }

  @Test(
    "with a slow, a failing-then-working and a dead webhook, the plays are the same and the deliveries are retried")
  func webhooksDoNotDisturbThePlays() throws {
    let slow = try WebhookReceiver { _ in (200, 3) }
    let flaky = try WebhookReceiver { index in (index == 0 ? 500 : 200, 0) }
    let deadPort = try LocalTCP.freePort()
    var alerts = AlertSettings()
    alerts.webhooks = [
      AlertWebhookSettings(url: slow.url), AlertWebhookSettings(url: flaky.url),
      AlertWebhookSettings(url: "http://127.0.0.1:\(deadPort)/hook"),
    ]
    alerts.overrides.sourceDown.forSeconds = 1
    let refused = try LocalTCP.freePort()
    let channels = [
      ChannelConfiguration(name: "music", source: .file(path: Fixtures.music("catalog-a.ogg").path, loop: false)),
      ChannelConfiguration(name: "down", source: .stream(url: "http://127.0.0.1:\(refused)/live")),
    ]
    let log = MonitorLog(write: { _ in })
    let monitor = try Monitor(configuration: configuration(channels, alerts: alerts), log: log)
    try monitor.start()
    try waitFor(.alertOpened, alert: .sourceDown, in: log, seconds: 20)
    #expect(flaky.wait(forRequests: 2, seconds: 20), "the 500 is retried")
    #expect(slow.wait(forRequests: 1, seconds: 20))
    try waitFor(.playEnded, in: log, seconds: 60)
    let retries = log.recentLines.filter { $0.contains("webhook http://127.0.0.1:\(deadPort)/hook failed") }
    monitor.stop()

    #expect(retries.count == 1, "the dead receiver's failure is logged once, and retried quietly")
    let plays = try PlayLogStore(path: db).plays()
    try #require(plays.count == 1, "\(plays)")
    #expect(plays[0].metadata.title == "Armygeddon" && plays[0].status == .closed)
    #expect(abs(plays[0].durationSeconds - 30) < 1.5, "\(plays[0].durationSeconds)")
    #expect(flaky.received.count >= 2 && flaky.received[0] == flaky.received[1])
    #expect(flaky.received[0].contains(#""event":"alert_opened""#))
  }

  /// The alert rows once there are `count` (the writer writes them on its own thread).
  func alertRowsSoon(count: Int) throws -> [AlertRecord] {
    let deadline = Date().addingTimeInterval(10)
    var rows = try alertRows()
    while rows.count < count && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.05)
      rows = try alertRows()
    }
    return rows
  }
}
