import Foundation
import Synchronization

/// The alerts' timer thread: every `evaluationSeconds` it reads the channels' and the monitor's status, lets the
/// `AlertEvaluator` decide which alerts open or close, and hands each change to the play log writer (which spools it
/// like a play when the play log cannot be written), to the log (an `alert_opened` or `alert_closed` event, which
/// the console and the event stream show), and to each `AlertDelivery` (webhooks, the command), which queue it and
/// deliver it on their own threads: nothing here waits for a receiver.
///
/// Threads: `start()` and `stop()` from the control thread; `active(channel:)` from any thread.
final class AlertWatcher: @unchecked Sendable {
  /// How often the conditions are evaluated: often against the seconds the conditions count (an alert opens or
  /// closes within half a second of its time), rare against the microseconds an evaluation of 16 channels costs.
  static let evaluationSeconds = 0.5
  /// How long `stop()` lets the deliveries send what they hold (the alerts the stop closes among them): within the
  /// systemd unit's `TimeoutStopSec=15`, with the play log writer's own wait (`PlayLogWriter.stopTimeoutSeconds`).
  static let deliveryStopSeconds = 3.0

  private let writer: PlayLogWriter
  private let log: MonitorLog
  /// The webhooks and the command, as the configuration last read has them (`update(configuration:)`).
  private let deliveries: Mutex<[any AlertDelivery]>
  private let evaluationSeconds: Double
  private let evaluator: Mutex<AlertEvaluator>
  private let activeAlerts = Mutex<[String?: [ActiveAlert]]>([:])
  private let stopping = Atomic<Bool>(false)
  /// Set by the first `stop()`: a second one returns at once.
  private let stopped = Atomic<Bool>(false)
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private var thread: Thread?

  init(
    evaluator: AlertEvaluator, writer: PlayLogWriter, log: MonitorLog, deliveries: [any AlertDelivery],
    evaluationSeconds: Double = AlertWatcher.evaluationSeconds
  ) {
    self.evaluator = Mutex(evaluator)
    self.writer = writer
    self.log = log
    self.deliveries = Mutex(deliveries)
    self.evaluationSeconds = evaluationSeconds
  }

  /// The open alerts of `channel` (nil: the monitor's own), oldest first. Any thread.
  func active(channel: String?) -> [ActiveAlert] { activeAlerts.withLock { $0[channel] ?? [] } }

  /// Starts the timer thread, which evaluates what `read` returns: the channels' and the monitor's status, without
  /// alerts (`Monitor`'s pipelines). Control thread.
  func start(read: @escaping @Sendable () -> (statuses: [ChannelStatus], overview: MonitorOverview)) {
    let thread = Thread { [self] in
      while !stopping.load(ordering: .acquiring) {
        let (statuses, overview) = read()
        publish(evaluator.withLock { $0.evaluate(statuses: statuses, overview: overview) })
        _ = wake.wait(timeout: .now() + evaluationSeconds)
      }
      finished.signal()
    }
    thread.name = "alerts"
    self.thread = thread
    thread.start()
  }

  /// Stops the timer thread, closes every open alert now but `node_down` (`AlertEvaluator.finish`; written to the
  /// play log before the writer stops), and lets the deliveries send for up to `deliveryStopSeconds`. Control
  /// thread; before `PlayLogWriter.stop()`; a second call returns at once.
  func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    if thread != nil {
      stopping.store(true, ordering: .releasing)
      wake.signal()
      finished.wait()
      thread = nil
    }
    let (closed, nodeDown) = evaluator.withLock { evaluator in
      (evaluator.finish(), evaluator.active[nil]?.first { $0.kind == .nodeDown })
    }
    publish(closed)
    if nodeDown != nil {
      log.line(
        "alert node_down stays open as this node stops: the node it names is still down, and the nodes still "
          + "running close it when that node is back (this node's next start does if none runs)")
    }
    var left = 0
    for delivery in deliveries.withLock({ $0 }) { left += delivery.stop(waitingSeconds: Self.deliveryStopSeconds) }
    if left > 0 {
      log.line(
        "\(left) alert deliveries (webhooks, alerts.command) were not done by the stop and are dropped; the alerts "
          + "are in the play log (report alerts)")
    }
  }

  /// Takes the conditions of a configuration read again (SIGHUP): alerts of a channel removed or changed close now,
  /// a channel added is watched from now, and the monitor's own conditions likewise (`AlertEvaluator.update`). A
  /// webhook or command whose settings stay goes on with its queue; a new one takes the alerts from now; one
  /// removed or changed delivers what it holds (for up to `deliveryStopSeconds`, on a thread of its own) and stops.
  /// Control thread.
  func update(configuration: MonitorConfiguration) {
    let retired = deliveries.withLock { running in
      let (kept, retired) = Self.deliveries(for: configuration.alerts, reusing: running, log: log)
      running = kept
      return retired
    }
    for delivery in retired {
      let thread = Thread { [log] in
        let left = delivery.stop(waitingSeconds: Self.deliveryStopSeconds)
        if left > 0 {
          log.line(
            "\(left) alerts for a webhook or command removed by SIGHUP were not delivered in time and are dropped; "
              + "they are in the play log (report alerts)")
        }
      }
      thread.name = "alert-retired"
      thread.start()
    }
    publish(
      evaluator.withLock {
        $0.update(conditions: Self.conditions(configuration), monitor: configuration.alerts.conditions)
      })
  }

  /// The deliveries `settings` asks for, taking each from `running` when one there has the same settings (once
  /// each), and making the others; `retired` are those of `running` not taken.
  static func deliveries(
    for settings: AlertSettings, reusing running: [any AlertDelivery], log: MonitorLog
  ) -> (kept: [any AlertDelivery], retired: [any AlertDelivery]) {
    var spare = running
    func take(_ matches: (any AlertDelivery) -> Bool) -> (any AlertDelivery)? {
      spare.firstIndex(where: matches).map { spare.remove(at: $0) }
    }
    var kept: [any AlertDelivery] = settings.webhooks.map { wanted in
      take { ($0 as? AlertWebhook)?.settings == wanted } ?? AlertWebhook(settings: wanted, log: log)
    }
    if let command = settings.command {
      let timeout = settings.commandTimeoutSeconds
      kept.append(
        take { ($0 as? AlertCommand).map { $0.command == command && $0.timeoutSeconds == timeout } ?? false }
          ?? AlertCommand(command: command, timeoutSeconds: timeout, log: log))
    }
    return (kept, spare)
  }

  /// Each channel's conditions in `configuration`, by name.
  static func conditions(_ configuration: MonitorConfiguration) -> [String: AlertConditions] {
    var conditions: [String: AlertConditions] = [:]
    for channel in configuration.channels { conditions[channel.name] = configuration.alerts.conditions(for: channel) }
    return conditions
  }

  /// Hands `events` on, and the open alerts to `active(channel:)` (every evaluation: an open alert's detail can
  /// change without an event, `source_down`'s as its input's reason does).
  private func publish(_ events: [AlertEvent]) {
    let active = evaluator.withLock { $0.active }
    activeAlerts.withLock { $0 = active }
    for event in events {
      writer.submit(event.command)
      log.record(event.monitorEvent)
      for delivery in deliveries.withLock({ $0 }) { delivery.deliver(event) }
    }
  }
}

extension AlertWatcher {
  /// The watcher of a monitor's configuration: each channel's conditions, the webhooks and the command.
  convenience init(configuration: MonitorConfiguration, writer: PlayLogWriter, log: MonitorLog) {
    let settings = configuration.alerts
    self.init(
      evaluator: AlertEvaluator(conditions: Self.conditions(configuration), monitor: settings.conditions),
      writer: writer, log: log,
      deliveries: Self.deliveries(for: settings, reusing: [], log: log).kept)
  }
}
