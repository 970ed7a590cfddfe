import Foundation

/// One client of `GET /api/v1/events/stream`: the monitor's events as Server-Sent Events, each as `event: KIND`,
/// `data:` the event's JSON line (the same object `run --json` writes) and `id:` a sequence number; every
/// `channelsIntervalSeconds` an `event: channels` with the `/api/v1/channels` document; a `: keepalive` comment
/// when nothing else was sent for `keepaliveSeconds`.
///
/// The monitor's threads hand events in through `enqueue` (called by `MonitorLog.record`), which never waits for
/// the client: it appends to a bounded queue. A client that falls `queueCapacity` events behind is dropped (its
/// connection is closed; it may reconnect), so a slow reader costs memory up to that bound and nothing else.
///
/// Threads: `enqueue` and `close` from any thread; `read(into:)` from the connection's thread only.
final class EventStream: @unchecked Sendable {
  /// Events a client may fall behind before it is dropped: minutes of a busy monitor's events, a few hundred KB.
  static let queueCapacity = 1000
  /// How often the channels' state is sent, for level meters and tiles.
  static let channelsIntervalSeconds = 1.0
  /// A comment line keeps proxies from closing an idle stream.
  static let keepaliveSeconds = 15.0

  private let condition = NSCondition()
  // Guarded by `condition`.
  private var queue: [MonitorEvent] = []
  private var overflowed = false
  private var closed = false
  // Connection thread only.
  private var pending: [UInt8] = []
  private var pendingOffset = 0
  private var sequence = 0
  private var nextChannels = Date.distantPast
  private var lastSent = Date()
  private var ended = false
  private let channels: @Sendable () -> JSONValue
  private let keepaliveSeconds: Double
  /// Called once, by the first `close()`: the owner unsubscribes the stream from the log.
  private var onClose: (@Sendable () -> Void)?

  /// - Parameters:
  ///   - channels: the `/api/v1/channels` document, called on the connection's thread.
  ///   - onClose: called once when the stream ends (the client left, was dropped, or the server stops).
  init(
    keepaliveSeconds: Double = EventStream.keepaliveSeconds, channels: @escaping @Sendable () -> JSONValue,
    onClose: (@Sendable () -> Void)? = nil
  ) {
    self.channels = channels
    self.keepaliveSeconds = keepaliveSeconds
    self.onClose = onClose
    pending = Array("retry: 2000\n\n".utf8)
  }

  /// Queues `event` for the client, or marks the client dropped when its queue is full. Never waits for the client.
  func enqueue(_ event: MonitorEvent) {
    condition.lock()
    if queue.count >= Self.queueCapacity {
      overflowed = true
    } else {
      queue.append(event)
    }
    condition.signal()
    condition.unlock()
  }

  /// Ends the stream: the connection's next read returns nil. Any thread.
  func close() {
    condition.lock()
    closed = true
    let action = onClose
    onClose = nil
    condition.signal()
    condition.unlock()
    action?()
  }

  /// True once the client fell too far behind and was dropped.
  var isDropped: Bool {
    condition.lock()
    defer { condition.unlock() }
    return overflowed
  }

  /// Copies the next bytes of the stream into `buffer`, waiting (at most until the next channels message) when
  /// there are none; nil when the stream has ended (closed, or the client was dropped). Connection thread.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
    while pendingOffset >= pending.count {
      guard !ended, fill() else {
        ended = true
        return nil
      }
    }
    let count = min(buffer.count, pending.count - pendingOffset)
    pending.withUnsafeBytes { source in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[pendingOffset..<pendingOffset + count]))
    }
    pendingOffset += count
    return count
  }

  /// Waits for the next messages and puts them in `pending`; false when the stream has ended.
  private func fill() -> Bool {
    pending.removeAll(keepingCapacity: true)
    pendingOffset = 0
    condition.lock()
    while queue.isEmpty && !closed && !overflowed && Date() < nextChannels
      && Date().timeIntervalSince(lastSent) < keepaliveSeconds
    {
      _ = condition.wait(until: min(nextChannels, lastSent.addingTimeInterval(keepaliveSeconds)))
    }
    let events = queue
    queue.removeAll(keepingCapacity: true)
    let finished = closed || overflowed
    condition.unlock()
    guard !finished else { return false }
    for event in events {
      sequence += 1
      append(event: event.name.rawValue, data: event.jsonLine)
    }
    let now = Date()
    if now >= nextChannels {
      nextChannels = now.addingTimeInterval(Self.channelsIntervalSeconds)
      sequence += 1
      append(event: "channels", data: channels().text)
    }
    if pending.isEmpty { pending = Array(": keepalive\n\n".utf8) }
    lastSent = now
    return true
  }

  /// One SSE message. `data` is one line of JSON (its line breaks are escaped), so one `data:` field holds it.
  private func append(event: String, data: String) {
    pending += Array("event: \(event)\nid: \(sequence)\ndata: \(data)\n\n".utf8)
  }
}
