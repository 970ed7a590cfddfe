import RingBuffer
import Testing

/// `RingHandle`: the raw view the real-time producer uses.
@Suite struct RingHandleTests {
  @Test("Samples written through a copy of the handle are read through the owning ring")
  func handleCopyWritesIntoTheRing() throws {
    let ring = try SPSCRingBuffer(minimumCapacity: 4)
    let copy = ring.handle
    let samples: [Float] = [0.25, -0.5, 1, 2, 3]
    let dropped = samples.withUnsafeBufferPointer { copy.write($0.baseAddress!, count: $0.count) }
    #expect(dropped == 1)
    #expect(ring.availableToRead == 4)
    #expect(copy.capacity == ring.capacity)
    var out = [Float](repeating: 0, count: 4)
    let n = out.withUnsafeMutableBufferPointer { ring.read(into: $0) }
    #expect(n == 4)
    #expect(out == [0.25, -0.5, 1, 2])
  }

  @Test("Writing or reading zero or a negative count does nothing", arguments: [0, -3])
  func nonPositiveCountsDoNothing(count: Int) throws {
    let ring = try SPSCRingBuffer(minimumCapacity: 4)
    var sample: Float = 1
    #expect(ring.handle.write(&sample, count: count) == 0)
    #expect(ring.availableToRead == 0)
    #expect(ring.handle.write(&sample, count: 1) == 0)
    #expect(ring.handle.read(into: &sample, count: count) == 0)
    #expect(ring.availableToRead == 1)
  }

  @Test("The handle is a plain value with no references: its size is four words")
  func handleIsPlainPointers() {
    #expect(MemoryLayout<RingHandle>.size == 4 * MemoryLayout<Int>.size)
    #expect(_isPOD(RingHandle.self))
  }
}
