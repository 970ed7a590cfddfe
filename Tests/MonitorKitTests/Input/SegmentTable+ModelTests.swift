import TestSupport
import Testing

@testable import MonitorKit

/// `SegmentTable` against a model that keeps every segment forever and answers frame by frame: random producers
/// (segments beginning at random ring positions, some pending until resolved) and a consumer that reads random
/// lengths and discards what it has passed must get from the table exactly what the model says.
@Suite("SegmentTable against a model")
struct SegmentTableModelTests {
  /// The model: every segment ever begun, and the answers worked out one frame at a time.
  struct Model {
    struct Segment {
      var number: Int
      var ringStart: Int
      var connectionOffset: Int
      var startTime: Double?
    }
    var segments: [Segment] = []

    /// The segment that holds ring position `position`: the last one to begin at or before it.
    func segment(at position: Int) -> Segment? { segments.last { $0.ringStart <= position } }

    func span(at position: Int, limit: Int, sampleRate: Double) -> SegmentTable.Span? {
      guard let first = segment(at: position), let start = first.startTime else { return nil }
      var frames = 0
      while frames < limit, segment(at: position + frames)?.number == first.number { frames += 1 }
      guard frames > 0 else { return nil }
      return .init(
        number: first.number, frames: frames, startTime: start + Double(position - first.ringStart) / sampleRate)
    }

    func readableFrames(at position: Int, limit: Int) -> Int {
      var frames = 0
      while frames < limit, let segment = segment(at: position + frames), segment.startTime != nil { frames += 1 }
      return frames
    }
  }

  static let sampleRate = 8000.0

  @Test("Random segments, resolutions, reads and discards give the model's spans and readable frames")
  func againstModel() {
    let seed = PropertyCheck.seed
    for index in 0..<PropertyCheck.cases(300) {
      var random = PropertyCheck.generator(case: index, seed: seed)
      let origin = PropertyCheck.origin(case: index, seed: seed)
      var table = SegmentTable()
      var model = Model()
      var produced = 0  // ring position where the next segment may begin
      var consumed = 0  // the consumer's ring position
      var number = 0
      for step in 0..<60 {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<3:  // a new segment (a reconnect), sometimes pending until its connection's start is known
          // A segment begins where the producer writes next, never behind what the consumer has read.
          produced = max(produced, consumed) + Int.random(in: 0...50, using: &random)
          let offset = Int.random(in: 0...100, using: &random)
          let time: Double? = Bool.random(using: &random) ? Double(Int.random(in: 0...1000, using: &random)) : nil
          table.begin(number: number, ringStart: produced, connectionOffset: offset, startTime: time)
          model.segments.append(.init(number: number, ringStart: produced, connectionOffset: offset, startTime: time))
          number += 1
        case 3:  // the reader fixes the connection's start time
          let connection = Double(Int.random(in: 0...1000, using: &random))
          table.resolve(origin: connection, sampleRate: Self.sampleRate)
          for i in model.segments.indices where model.segments[i].startTime == nil {
            model.segments[i].startTime = connection + Double(model.segments[i].connectionOffset) / Self.sampleRate
          }
        case 4:  // the consumer forgets what it has passed
          table.discard(before: consumed)
          let kept = table.entries.map(\.number)
          #expect(
            kept.first == model.segment(at: consumed)?.number || model.segment(at: consumed) == nil,
            "the first entry kept holds the consumer's position; \(origin), step \(step)")
          #expect(
            kept == model.segments.filter { $0.number >= (kept.first ?? Int.max) }.map(\.number),
            "discard keeps a contiguous tail; \(origin), step \(step)")
        default:  // a read of a random length, which moves the consumer on
          let limit = Int.random(in: 0...80, using: &random)
          let span = table.span(at: consumed, limit: limit, sampleRate: Self.sampleRate)
          let expected = model.span(at: consumed, limit: limit, sampleRate: Self.sampleRate)
          #expect(span?.number == expected?.number, "\(origin), step \(step): span at \(consumed) limit \(limit)")
          #expect(span?.frames == expected?.frames, "\(origin), step \(step): span at \(consumed) limit \(limit)")
          if let span, let expected {
            #expect(abs(span.startTime - expected.startTime) < 1e-9, "\(origin), step \(step)")
          }
          #expect(
            table.readableFrames(at: consumed, limit: limit) == model.readableFrames(at: consumed, limit: limit),
            "\(origin), step \(step): readable frames at \(consumed) limit \(limit)")
          if let span { consumed += span.frames }
        }
      }
    }
  }
}
