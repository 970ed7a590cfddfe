import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Delivers alerts to one webhook: each alert opened or closed is POSTed as JSON (the `alert_opened` or
/// `alert_closed` object that `run --json` writes, `Content-Type: application/json`), in the order they happened,
/// on the webhook's own thread, through Foundation's `URLSession` (FoundationNetworking, which ships with the Swift
/// toolchain and uses libcurl: no other library for a few POSTs).
///
/// A receiver that fails (a status other than 2xx, a refused connection, no answer within
/// `requestTimeoutSeconds`) is tried again after 1 s, 2 s, 4 s, … up to `maxBackoffSeconds` between tries, until
/// `giveUpSeconds` after the alert's first try, when the alert is dropped (and logged); the alerts after it wait
/// their turn, so a receiver sees an alert's opening before its closing. The queue holds at most `capacity`
/// alerts: beyond that the oldest is dropped (and logged), or the next oldest while the oldest is being sent, so a
/// dead receiver costs bounded memory. `deliver` never waits: the evaluation and the pipeline never block on a
/// receiver.
///
/// Threads: `deliver` from any thread; `stop` from the control thread; the delivery thread does the rest.
final class AlertWebhook: AlertDelivery, @unchecked Sendable {
  /// Retry and queue tuning, in one place.
  struct Tuning: Sendable {
    /// The first wait before a retry; doubled at each failure.
    var firstBackoffSeconds = 1.0
    /// The longest wait between tries: a receiver that comes back is found within 5 minutes.
    var maxBackoffSeconds = 300.0
    /// How long an alert is retried before it is dropped: an alert an hour old is news no longer.
    var giveUpSeconds = 3600.0
    /// How long one POST may take: a slow receiver delays only its own queue.
    var requestTimeoutSeconds = 10.0
    /// Alerts queued at most: hours of a dead receiver with a flapping channel fit; a burst beyond is dropped.
    var capacity = 1000
  }

  struct Counts: Sendable, Equatable {
    /// POSTs sent, answered or not.
    var attempts = 0
    /// Alerts the receiver took (2xx).
    var delivered = 0
    /// Alerts dropped: retried for `giveUpSeconds`, or pushed out of a full queue.
    var dropped = 0
    /// Alerts waiting.
    var queued = 0
  }

  private struct Pending {
    var event: AlertEvent
    var body: Data
    var firstTry: DispatchTime?
    var failures = 0
  }

  let settings: AlertWebhookSettings
  let tuning: Tuning
  private let url: URL
  private let log: MonitorLog
  private let session: URLSession
  /// The alerts waiting, oldest first; while `sending`, the first is being POSTed, and a full queue drops the one
  /// after it instead, so that the POST's outcome is the first's.
  private let queue = Mutex<(pending: [Pending], counts: Counts, sending: Bool)>(([], Counts(), false))
  private let wake = DispatchSemaphore(value: 0)
  private let stopping = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  // Delivery thread only.
  private var lastFailure: String?

  /// - Precondition: `settings.url` was validated (`AlertSettings.validate`).
  init(settings: AlertWebhookSettings, log: MonitorLog, tuning: Tuning = Tuning()) {
    self.settings = settings
    self.tuning = tuning
    self.log = log
    url = URL(string: settings.url)!
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = tuning.requestTimeoutSeconds
    configuration.timeoutIntervalForResource = tuning.requestTimeoutSeconds
    session = URLSession(configuration: configuration)
    let thread = Thread { [self] in run() }
    thread.name = "alert-webhook"
    thread.start()
  }

  /// What the webhook has done so far. Any thread.
  var counts: Counts { queue.withLock { $0.counts } }

  func deliver(_ event: AlertEvent) {
    guard settings.takes(event.kind) else { return }
    let body = Data(event.monitorEvent.jsonLine.utf8)
    let droppedOne = queue.withLock { queue -> Bool in
      queue.pending.append(Pending(event: event, body: body))
      guard queue.pending.count > tuning.capacity else {
        queue.counts.queued = queue.pending.count
        return false
      }
      queue.pending.remove(at: queue.sending && queue.pending.count > 1 ? 1 : 0)
      queue.counts.dropped += 1
      queue.counts.queued = queue.pending.count
      return true
    }
    if droppedOne {
      log.line("webhook \(settings.url): \(tuning.capacity) alerts wait already; the oldest is dropped")
    }
    wake.signal()
  }

  /// Waits up to `seconds` for the queue to empty (an alert that is failing keeps its backoff), then ends the
  /// thread, cancelling a POST under way.
  func stop(waitingSeconds seconds: Double) -> Int {
    let deadline = DispatchTime.now() + seconds
    while DispatchTime.now() < deadline, queue.withLock({ !$0.pending.isEmpty }) {
      Thread.sleep(forTimeInterval: 0.05)
    }
    stopping.store(true, ordering: .releasing)
    wake.signal()
    session.invalidateAndCancel()  // a POST under way ends now
    _ = finished.wait(timeout: .now() + 1)
    return queue.withLock { $0.pending.count }
  }

  private func run() {
    var nextTry: DispatchTime?
    while !stopping.load(ordering: .acquiring) {
      if let nextTry { _ = wake.wait(timeout: nextTry) } else { wake.wait() }
      if stopping.load(ordering: .acquiring) { break }
      if let due = nextTry, DispatchTime.now() < due { continue }
      nextTry = nil
      while !stopping.load(ordering: .acquiring),
        var head = queue.withLock({ queue -> Pending? in
          queue.sending = !queue.pending.isEmpty
          return queue.pending.first
        })
      {
        let now = DispatchTime.now()
        if head.firstTry == nil { head.firstTry = now }
        let failure = post(head.body)
        let retryAt = DispatchTime.now() + backoff(afterFailures: head.failures + 1)
        let gaveUp =
          failure != nil
          && Double(retryAt.uptimeNanoseconds - (head.firstTry ?? now).uptimeNanoseconds) / 1e9 > tuning.giveUpSeconds
        queue.withLock { queue in
          queue.counts.attempts += 1
          queue.sending = false
          guard !queue.pending.isEmpty else { return }
          if failure == nil || gaveUp {
            queue.pending.removeFirst()
            if failure == nil { queue.counts.delivered += 1 } else { queue.counts.dropped += 1 }
          } else {
            head.failures += 1
            queue.pending[0].firstTry = head.firstTry
            queue.pending[0].failures = head.failures
          }
          queue.counts.queued = queue.pending.count
        }
        if let failure {
          if gaveUp {
            log.line(
              "webhook \(settings.url): the \(head.event.kind.rawValue) alert was not delivered within "
                + "\(Int(tuning.giveUpSeconds)) s (\(failure)) and is dropped; it is in the play log (report alerts)",
              channel: head.event.channel)
          } else {
            if lastFailure == nil {  // once per outage, however its errors vary
              log.line(
                "webhook \(settings.url) failed: \(failure); retrying with growing waits (up to "
                  + "\(Int(tuning.maxBackoffSeconds)) s) for \(Int(tuning.giveUpSeconds / 60)) min")
            }
            lastFailure = failure
            nextTry = retryAt
            break
          }
        } else if lastFailure != nil {
          lastFailure = nil
          log.line("webhook \(settings.url) takes alerts again")
        }
      }
    }
    finished.signal()
  }

  /// The wait after `failures` failed tries: 1 s, 2 s, 4 s, … at most `maxBackoffSeconds`.
  func backoff(afterFailures failures: Int) -> DispatchTimeInterval {
    let seconds = min(tuning.maxBackoffSeconds, tuning.firstBackoffSeconds * pow(2, Double(min(failures - 1, 30))))
    return .nanoseconds(Int(seconds * 1e9))
  }

  /// POSTs `body`; nil when the receiver took it (2xx), else what went wrong.
  private func post(_ body: Data) -> String? {
    var request = URLRequest(url: url, timeoutInterval: tuning.requestTimeoutSeconds)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("broadcast-monitor", forHTTPHeaderField: "User-Agent")
    request.httpBody = body
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<String?>("no answer within \(tuning.requestTimeoutSeconds) s")
    let task = session.dataTask(with: request) { _, response, error in
      let outcome: String?
      if let error {
        outcome = error.localizedDescription
      } else if let status = (response as? HTTPURLResponse)?.statusCode {
        outcome = (200..<300).contains(status) ? nil : "HTTP status \(status)"
      } else {
        outcome = "no HTTP answer"
      }
      result.withLock { $0 = outcome }
      done.signal()
    }
    task.resume()
    if done.wait(timeout: .now() + tuning.requestTimeoutSeconds + 1) == .timedOut { task.cancel() }
    return result.withLock { $0 }
  }
}
