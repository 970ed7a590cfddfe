/// Where alerts go besides the play log and the log: a webhook (`AlertWebhook`) or a command (`AlertCommand`).
///
/// Implementations must: return from `deliver` at once (queue the alert; the evaluation never waits for a
/// receiver), keep what they queue bounded, and deliver on a thread of their own.
protocol AlertDelivery: Sendable {
  /// Queues `event` for delivery. Any thread; never blocks.
  func deliver(_ event: AlertEvent)
  /// Delivers what is queued for at most `seconds`, then stops; returns how many alerts were left undelivered.
  /// Control thread.
  func stop(waitingSeconds seconds: Double) -> Int
}
