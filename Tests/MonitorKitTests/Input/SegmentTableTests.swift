import Testing

@testable import MonitorKit

@Suite("SegmentTable")
struct SegmentTableTests {
  @Test("A read stops at the next segment's first frame, and the next read is that segment's, with its own time")
  func spansStopAtBoundaries() {
    var table = SegmentTable()
    table.begin(number: 0, ringStart: 0, connectionOffset: 0, startTime: 100)
    table.begin(number: 1, ringStart: 800, connectionOffset: 0, startTime: 200)
    #expect(table.span(at: 0, limit: 4096, sampleRate: 8000) == .init(number: 0, frames: 800, startTime: 100))
    #expect(table.span(at: 400, limit: 4096, sampleRate: 8000) == .init(number: 0, frames: 400, startTime: 100.05))
    #expect(table.span(at: 400, limit: 100, sampleRate: 8000) == .init(number: 0, frames: 100, startTime: 100.05))
    #expect(table.span(at: 800, limit: 4096, sampleRate: 8000) == .init(number: 1, frames: 4096, startTime: 200))
    #expect(table.span(at: 1600, limit: 10, sampleRate: 8000) == .init(number: 1, frames: 10, startTime: 200.1))
    #expect(table.span(at: 0, limit: 0, sampleRate: 8000) == nil)
  }

  @Test("A pending segment is not read until its connection's start time is known; then every pending one gets it")
  func pendingSegments() {
    var table = SegmentTable()
    table.begin(number: 0, ringStart: 0, connectionOffset: 0, startTime: 50)
    table.begin(number: 1, ringStart: 100, connectionOffset: 0, startTime: nil)
    table.begin(number: 2, ringStart: 300, connectionOffset: 8400, startTime: nil)  // after 8000 dropped frames
    #expect(table.span(at: 0, limit: 1000, sampleRate: 8000)?.frames == 100)
    #expect(table.span(at: 100, limit: 1000, sampleRate: 8000) == nil)
    table.resolve(origin: 60, sampleRate: 8000)
    #expect(table.span(at: 100, limit: 1000, sampleRate: 8000) == .init(number: 1, frames: 200, startTime: 60))
    #expect(table.span(at: 300, limit: 1000, sampleRate: 8000) == .init(number: 2, frames: 1000, startTime: 61.05))
    #expect(table.entries[0].startTime == 50)  // a known time is not changed
  }

  @Test("Frames placed before the end of the audio heard repeat it: counted per segment, up to the next segment")
  func repeatedFrames() {
    var table = SegmentTable()
    table.begin(number: 0, ringStart: 0, connectionOffset: 0, startTime: 50)
    table.begin(number: 1, ringStart: 8000, connectionOffset: 0, startTime: nil)  // a reconnect's burst
    table.begin(number: 2, ringStart: 8400, connectionOffset: 4000, startTime: nil)  // after 3600 dropped frames
    #expect(table.repeatedFrames(at: 8000, limit: 10_000) == 0, "pending: not known yet")
    table.resolve(origin: 50.5, sampleRate: 8000, heardUntil: 51)  // 0.5 s of the burst was heard before
    #expect(table.entries[1].repeatedFrames == 4000 && table.entries[2].repeatedFrames == 0)
    #expect(table.repeatedFrames(at: 8000, limit: 10_000) == 400, "up to the next segment")
    #expect(table.repeatedFrames(at: 8100, limit: 50) == 50)
    #expect(table.repeatedFrames(at: 8400, limit: 10_000) == 0)
    #expect(table.repeatedFrames(at: 100, limit: 10_000) == 0)
  }

  @Test("Segments the reader has passed are forgotten; the one it is in is kept")
  func discard() {
    var table = SegmentTable()
    for i in 0..<4 { table.begin(number: i, ringStart: i * 100, connectionOffset: 0, startTime: Double(i)) }
    table.discard(before: 150)
    #expect(table.entries.map(\.number) == [1, 2, 3])
    table.discard(before: 300)
    #expect(table.entries.map(\.number) == [3])
    table.discard(before: 10_000)
    #expect(table.entries.map(\.number) == [3])
    // Segment 3 starts at time 3 at ring position 300: position 10000 is (10000 - 300) / 100 s later.
    #expect(table.span(at: 10_000, limit: 5, sampleRate: 100) == .init(number: 3, frames: 5, startTime: 100))
  }

  @Test("The frames readable now run across known segments and stop at the first pending one")
  func readableFrames() {
    var table = SegmentTable()
    #expect(table.readableFrames(at: 0, limit: 500) == 0)
    table.begin(number: 0, ringStart: 0, connectionOffset: 0, startTime: 50)
    table.begin(number: 1, ringStart: 100, connectionOffset: 0, startTime: 60)
    #expect(table.readableFrames(at: 20, limit: 500) == 500)
    table.begin(number: 2, ringStart: 300, connectionOffset: 0, startTime: nil)
    #expect(table.readableFrames(at: 20, limit: 500) == 280)
    #expect(table.readableFrames(at: 20, limit: 100) == 100)
    #expect(table.readableFrames(at: 300, limit: 500) == 0)
    table.resolve(origin: 70, sampleRate: 8000)
    #expect(table.readableFrames(at: 300, limit: 500) == 500)
  }

  @Test("Before any segment there is nothing to read")
  func empty() {
    #expect(SegmentTable().span(at: 0, limit: 100, sampleRate: 8000) == nil)
  }
}
