import TestSupport
import Testing

@testable import Matcher

@Suite("AlignedChunkWriter")
struct AlignedChunkWriterTests {
  /// Every write the sink was given, as bytes.
  final class Sink {
    var writes: [[UInt8]] = []
  }

  /// Writes `pieces` through a writer of `chunkBytes`, and returns the sink's writes.
  static func writes(of pieces: [[UInt8]], chunkBytes: Int) throws -> [[UInt8]] {
    let sink = Sink()
    var writer = AlignedChunkWriter(chunkBytes: chunkBytes) { sink.writes.append(Array($0)) }
    for piece in pieces { try piece.withUnsafeBytes { try writer.append($0) } }
    try writer.flush()
    return sink.writes
  }

  @Test(
    "Pieces of any sizes come out as the same bytes, in writes of exactly a chunk but the last",
    arguments: [1, 7, 64, 4096] as [Int])
  func writesWholeChunks(chunkBytes: Int) throws {
    for seed: UInt64 in 1...20 {
      var generator = SeededGenerator(seed: seed)
      var pieces: [[UInt8]] = []
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        // Empty pieces, pieces under a chunk, and pieces of several chunks and a part.
        let count = Int.random(in: 0...(3 * chunkBytes + 2), using: &generator)
        pieces.append((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
      }
      let writes = try Self.writes(of: pieces, chunkBytes: chunkBytes)
      #expect(writes.flatMap { $0 } == pieces.flatMap { $0 }, "seed \(seed)")
      #expect(writes.dropLast().allSatisfy { $0.count == chunkBytes }, "seed \(seed)")
      #expect((1...chunkBytes).contains(writes.last?.count ?? 1), "seed \(seed): no empty write")
    }
  }

  @Test("Nothing written gives no write")
  func nothingGivesNoWrite() throws {
    #expect(try Self.writes(of: [[], []], chunkBytes: 16).isEmpty)
  }

  @Test("What the sink throws reaches the caller, and later pieces are not written")
  func sinkErrorsStopTheWrite() throws {
    struct Full: Error {}
    let sink = Sink()
    var writer = AlignedChunkWriter(chunkBytes: 4) { chunk in
      if !sink.writes.isEmpty { throw Full() }
      sink.writes.append(Array(chunk))
    }
    let bytes = [UInt8](0..<12)
    #expect(throws: Full.self) { try bytes.withUnsafeBytes { try writer.append($0) } }
    #expect(sink.writes == [[0, 1, 2, 3]])
  }
}
