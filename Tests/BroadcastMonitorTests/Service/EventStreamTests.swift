import Foundation
import Testing

@testable import BroadcastMonitor

/// The event stream of one client: messages in order, the channels every second, a slow client dropped.
@Suite("Event stream")
struct EventStreamTests {
  static func event(_ number: Int) -> MonitorEvent {
    MonitorEvent(
      time: Date(timeIntervalSince1970: 1_796_000_000), channel: "fm1", name: .gap, message: "gap \(number)",
      fields: [("detail", .string("line\nbreak"))])
  }

  /// Reads what the stream has now (at most one fill).
  static func read(_ stream: EventStream) -> String? {
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    let count = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
    return count.map { String(decoding: buffer[0..<$0], as: UTF8.self) }
  }

  @Test("each event is one SSE message with its kind, a sequence number and the JSON line as data")
  func messages() throws {
    let stream = EventStream(channels: { .object([("channels", .array([]))]) })
    #expect(Self.read(stream) == "retry: 2000\n\n")
    stream.enqueue(Self.event(1))
    stream.enqueue(Self.event(2))
    let text = try #require(Self.read(stream))
    #expect(text.hasPrefix("event: gap\nid: 1\ndata: \(Self.event(1).jsonLine)\n\nevent: gap\nid: 2\n"), "\(text)")
    #expect(text.contains("event: channels\nid: 3\ndata: {\"channels\":[]}\n\n"))
    #expect(!Self.event(1).jsonLine.contains("\n"), "one data line")
  }

  @Test("a client that falls a full queue behind is dropped; enqueueing never waits for it")
  func slowClientDropped() {
    let stream = EventStream(channels: { .null })
    let started = ContinuousClock.now
    for number in 0..<(EventStream.queueCapacity + 5) { stream.enqueue(Self.event(number)) }
    #expect(ContinuousClock.now - started < .seconds(1))
    #expect(stream.isDropped)
    _ = Self.read(stream)  // the retry line
    #expect(Self.read(stream) == nil, "the stream ends: the server closes the connection")
  }

  @Test("close ends a read that waits, and calls onClose once")
  func closeEndsRead() async throws {
    let closes = Counter()
    let stream = EventStream(keepaliveSeconds: 60, channels: { .null }, onClose: { closes.add() })
    _ = Self.read(stream)
    _ = Self.read(stream)  // the first channels message; the next read waits up to a second
    let reader = Task.detached { Self.read(stream) }
    stream.close()
    stream.close()
    #expect(await reader.value == nil)
    #expect(closes.value == 1)
  }

  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }
}
