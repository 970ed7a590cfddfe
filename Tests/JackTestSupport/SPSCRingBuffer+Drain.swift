import RingBuffer

extension SPSCRingBuffer {
  /// Everything in the ring right now, oldest first. Consumer thread only (the test's).
  public func drain() -> [Float] {
    var all: [Float] = []
    var chunk = [Float](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBufferPointer { read(into: $0) }
      if n == 0 { return all }
      all += chunk[..<n]
    }
  }
}
