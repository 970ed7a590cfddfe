import RingBuffer
import Testing

/// Single-threaded behaviour of `SPSCRingBuffer`: capacity, wrap-around, full and empty.
@Suite struct SPSCRingBufferTests {
  /// Writes `values` and returns how many did not fit.
  private func write(_ ring: SPSCRingBuffer, _ values: [Float]) -> Int {
    values.withUnsafeBufferPointer { ring.write($0) }
  }

  /// Reads at most `count` samples.
  private func read(_ ring: SPSCRingBuffer, count: Int) -> [Float] {
    var out = [Float](repeating: -1, count: count)
    let n = out.withUnsafeMutableBufferPointer { ring.read(into: $0) }
    return Array(out[..<n])
  }

  @Test(
    "Capacity is the requested minimum rounded up to a power of two",
    arguments: [(1, 1), (2, 2), (3, 4), (1000, 1024), (1024, 1024), (1025, 2048), (48_000, 65_536)])
  func capacityRoundsUpToPowerOfTwo(requested: Int, expected: Int) throws {
    let ring = try SPSCRingBuffer(minimumCapacity: requested)
    #expect(ring.capacity == expected)
    #expect(ring.availableToWrite == expected)
    #expect(ring.availableToRead == 0)
  }

  @Test("A capacity below one sample is rejected", arguments: [0, -1, Int.min])
  func nonPositiveCapacityIsRejected(requested: Int) {
    #expect(throws: RingBufferError.capacityNotPositive(requested)) {
      try SPSCRingBuffer(minimumCapacity: requested)
    }
  }

  @Test("A capacity above the maximum is rejected with a message that says what to do")
  func tooLargeCapacityIsRejected() {
    let requested = SPSCRingBuffer.maximumCapacity + 1
    let expected = RingBufferError.capacityTooLarge(requested: requested, maximum: SPSCRingBuffer.maximumCapacity)
    #expect(throws: expected) { try SPSCRingBuffer(minimumCapacity: requested) }
    #expect(expected.description.contains("ask for less"))
  }

  @Test("Reading an empty ring returns 0 and leaves the buffer alone")
  func emptyRingReadsNothing() throws {
    let ring = try SPSCRingBuffer(minimumCapacity: 8)
    #expect(read(ring, count: 4) == [])
    #expect(write(ring, [1, 2, 3]) == 0)
    #expect(read(ring, count: 3) == [1, 2, 3])
    var untouched: [Float] = [-7, -7]
    let n = untouched.withUnsafeMutableBufferPointer { ring.read(into: $0) }
    #expect(n == 0)
    #expect(untouched == [-7, -7])
  }

  @Test("Writing to a full ring returns how many samples did not fit and keeps the first ones")
  func fullRingReportsDroppedSamples() throws {
    let ring = try SPSCRingBuffer(minimumCapacity: 8)
    #expect(write(ring, (0..<10).map(Float.init)) == 2)
    #expect(ring.availableToRead == 8)
    #expect(ring.availableToWrite == 0)
    #expect(write(ring, [99]) == 1)
    #expect(read(ring, count: 16) == (0..<8).map(Float.init))
    #expect(ring.availableToWrite == 8)
  }

  @Test("A one-sample ring holds exactly one sample")
  func oneSampleRing() throws {
    let ring = try SPSCRingBuffer(minimumCapacity: 1)
    #expect(write(ring, [5, 6]) == 1)
    #expect(read(ring, count: 2) == [5])
    #expect(write(ring, [7]) == 0)
    #expect(read(ring, count: 2) == [7])
  }

  @Test("Samples come out in order when a write and a read wrap past the end of the storage")
  func wrapAroundKeepsOrder() throws {
    let ring = try SPSCRingBuffer(minimumCapacity: 8)
    #expect(write(ring, [0, 1, 2, 3, 4, 5]) == 0)
    #expect(read(ring, count: 4) == [0, 1, 2, 3])
    // Slots 6, 7, then 0...3: this write wraps.
    #expect(write(ring, [6, 7, 8, 9, 10, 11]) == 0)
    #expect(ring.availableToRead == 8)
    #expect(ring.availableToWrite == 0)
    // Reads 4...11 from slots 4...7 then 0...3: this read wraps.
    #expect(read(ring, count: 8) == [4, 5, 6, 7, 8, 9, 10, 11])
    #expect(ring.availableToRead == 0)
  }

  @Test("A read smaller than what is available takes the oldest samples and leaves the rest")
  func partialReadLeavesTheRest() throws {
    let ring = try SPSCRingBuffer(minimumCapacity: 16)
    #expect(write(ring, [1, 2, 3, 4, 5]) == 0)
    #expect(read(ring, count: 3) == [1, 2, 3])
    #expect(ring.availableToRead == 2)
    #expect(read(ring, count: 3) == [4, 5])
  }

  @Test("Many small wrapping writes and reads keep every sample in order")
  func manyWrapsKeepOrder() throws {
    let ring = try SPSCRingBuffer(minimumCapacity: 8)
    var next: Float = 0
    var expected: Float = 0
    for round in 0..<100 {
      let chunk = (0..<(round % 7 + 1)).map { _ in
        defer { next += 1 }
        return next
      }
      #expect(write(ring, chunk) == 0)
      let got = read(ring, count: 8)
      #expect(got == (0..<got.count).map { expected + Float($0) })
      expected += Float(got.count)
    }
    #expect(expected == next)
  }
}
