import Foundation
import Synchronization
import TestSupport
import Testing

@testable import MonitorKit

@Suite("AlertWebhook")
struct AlertWebhookTests {
  static let event = AlertEvent(
    time: Date(timeIntervalSince1970: 1_800_000_010), opened: true, channel: "fm", kind: .silence,
    start: Date(timeIntervalSince1970: 1_800_000_000), end: nil, detail: "the level stayed below -50.0 dBFS for 15 s")

  /// Short waits, so that a test sees several tries.
  static let fast = AlertWebhook.Tuning(
    firstBackoffSeconds: 0.1, maxBackoffSeconds: 0.4, giveUpSeconds: 3600, requestTimeoutSeconds: 5, capacity: 10)

  static func waitUntil(seconds: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    return condition()
  }

  @Test("the receiver gets the alert as the JSON object `run --json` writes")
  func body() throws {
    let receiver = try WebhookReceiver { _ in (200, 0) }
    let webhook = AlertWebhook(settings: AlertWebhookSettings(url: receiver.url), log: MonitorLog { _ in })
    webhook.deliver(Self.event)
    #expect(receiver.wait(forRequests: 1))
    #expect(
      receiver.received == [
        #"{"time":"2027-01-15T08:00:10.000Z","channel":"fm","event":"alert_opened","message":"ALERT silence: "#
          + #"the level stayed below -50.0 dBFS for 15 s","kind":"silence","start":"2027-01-15T08:00:00.000Z","#
          + #""end":null,"detail":"the level stayed below -50.0 dBFS for 15 s"}"#
      ])
    #expect(webhook.stop(waitingSeconds: 5) == 0)
    #expect(webhook.counts == AlertWebhook.Counts(attempts: 1, delivered: 1, dropped: 0, queued: 0))
  }

  @Test("a receiver that answers 500 gets the alert again after a wait, and takes it with 200: delivered once")
  func retriedAfter500() throws {
    let receiver = try WebhookReceiver { index in (index == 0 ? 500 : 200, 0) }
    let lines = LogLines()
    let webhook = AlertWebhook(settings: AlertWebhookSettings(url: receiver.url), log: lines.log, tuning: Self.fast)
    webhook.deliver(Self.event)
    #expect(Self.waitUntil { webhook.counts.delivered == 1 })
    #expect(receiver.received.count == 2 && receiver.received[0] == receiver.received[1])
    #expect(webhook.counts == AlertWebhook.Counts(attempts: 2, delivered: 1, dropped: 0, queued: 0))
    #expect(lines.text.contains("failed: HTTP status 500; retrying"))
    #expect(lines.text.contains("takes alerts again"))
    _ = webhook.stop(waitingSeconds: 1)
  }

  @Test("a dead receiver (connection refused) is retried with growing waits; the alert waits, nothing blocks")
  func deadReceiver() throws {
    let port = try LocalTCP.freePort()  // nothing listens there
    let lines = LogLines()
    let webhook = AlertWebhook(
      settings: AlertWebhookSettings(url: "http://127.0.0.1:\(port)/hook"), log: lines.log, tuning: Self.fast)
    let started = Date()
    for _ in 0..<3 { webhook.deliver(Self.event) }
    #expect(Date().timeIntervalSince(started) < 0.5, "deliver returned at once")
    #expect(Self.waitUntil { webhook.counts.attempts >= 4 })
    let counts = webhook.counts
    #expect(counts.delivered == 0 && counts.queued == 3 && counts.dropped == 0)
    #expect(lines.text.components(separatedBy: "failed:").count == 2, "the failure is logged once:\n\(lines.text)")
    #expect(webhook.stop(waitingSeconds: 0.2) == 3)
  }

  @Test("an alert not delivered within the give-up time is dropped and logged; a full queue drops its oldest")
  func givesUpAndBounds() throws {
    let port = try LocalTCP.freePort()
    let lines = LogLines()
    var tuning = Self.fast
    tuning.giveUpSeconds = 0.5
    tuning.capacity = 2
    let webhook = AlertWebhook(
      settings: AlertWebhookSettings(url: "http://127.0.0.1:\(port)/hook"), log: lines.log, tuning: tuning)
    for _ in 0..<3 { webhook.deliver(Self.event) }
    #expect(Self.waitUntil { webhook.counts.dropped == 3 })
    #expect(lines.text.contains("2 alerts wait already; the oldest is dropped"))
    #expect(lines.text.contains("the silence alert was not delivered within 0 s"))
    _ = webhook.stop(waitingSeconds: 0.1)
  }

  @Test("a full queue drops the oldest alert waiting, never the one being sent: its retry and outcome stay its own")
  func fullQueueWhileSending() throws {
    let receiver = try WebhookReceiver { index in index == 0 ? (500, 1) : (200, 0) }
    var tuning = Self.fast
    tuning.capacity = 2
    let webhook = AlertWebhook(
      settings: AlertWebhookSettings(url: receiver.url), log: MonitorLog { _ in }, tuning: tuning)
    func alert(_ detail: String) -> AlertEvent {
      var event = Self.event
      event.detail = detail
      return event
    }
    webhook.deliver(alert("first"))
    #expect(receiver.wait(forRequests: 1))  // its POST is under way, answered 500 in a second
    webhook.deliver(alert("second"))
    webhook.deliver(alert("third"))
    #expect(Self.waitUntil { webhook.counts.delivered == 2 })
    let details = receiver.received.map { $0.contains("first") ? "first" : $0.contains("second") ? "second" : "third" }
    #expect(details == ["first", "first", "third"])
    #expect(webhook.counts == AlertWebhook.Counts(attempts: 3, delivered: 2, dropped: 1, queued: 0))
    _ = webhook.stop(waitingSeconds: 1)
  }

  @Test("a slow receiver delays only its own deliveries: deliver returns at once, and the alert arrives")
  func slowReceiver() throws {
    let receiver = try WebhookReceiver { _ in (200, 2) }
    let webhook = AlertWebhook(settings: AlertWebhookSettings(url: receiver.url), log: MonitorLog { _ in })
    let started = Date()
    webhook.deliver(Self.event)
    webhook.deliver(Self.event)
    #expect(Date().timeIntervalSince(started) < 0.5)
    #expect(Self.waitUntil { webhook.counts.delivered == 2 })
    #expect(Date().timeIntervalSince(started) >= 4, "two answers, 2 s each, one after the other")
    _ = webhook.stop(waitingSeconds: 1)
  }

  @Test("only the kinds a webhook names are posted to it")
  func kinds() throws {
    let receiver = try WebhookReceiver { _ in (200, 0) }
    let webhook = AlertWebhook(
      settings: AlertWebhookSettings(url: receiver.url, kinds: [.sourceDown]), log: MonitorLog { _ in })
    webhook.deliver(Self.event)
    var down = Self.event
    down.kind = .sourceDown
    webhook.deliver(down)
    #expect(Self.waitUntil { webhook.counts.delivered == 1 })
    #expect(receiver.received.count == 1 && receiver.received[0].contains(#""kind":"source_down""#))
    _ = webhook.stop(waitingSeconds: 1)
  }

  @Test("the waits between tries double from the first up to the longest")
  func backoff() {
    let webhook = AlertWebhook(
      settings: AlertWebhookSettings(url: "http://127.0.0.1:9/x"), log: MonitorLog { _ in })
    let waits = [1, 2, 3, 9, 10, 100].map { webhook.backoff(afterFailures: $0) }
    #expect(waits == [1, 2, 4, 256, 300, 300].map { DispatchTimeInterval.nanoseconds($0 * 1_000_000_000) })
    _ = webhook.stop(waitingSeconds: 0)
  }
}

/// A log whose lines a test reads.
final class LogLines: Sendable {
  private let lines = Mutex<[String]>([])
  var log: MonitorLog { MonitorLog { line in self.append(line) } }
  private func append(_ line: String) { lines.withLock { $0.append(line) } }
  var text: String { lines.withLock { $0.joined() } }
}
