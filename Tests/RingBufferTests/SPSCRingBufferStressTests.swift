import Foundation
import RingBuffer
import Synchronization
import Testing

/// Two threads, one `SPSCRingBuffer`: a producer pushes a numbered sequence of samples in uneven chunks and the
/// consumer checks every sample's value and position, so any loss, duplicate or reordering fails the test.
///
/// The sample count comes from `BM_RING_STRESS_SAMPLES` (default 20 M, quick in a debug build). For hundreds of
/// millions run `BM_RING_STRESS_SAMPLES=200000000 swift test -c release --filter SPSCRingBufferStressTests`;
/// `scripts/tsan-ringbuffer.sh` runs it under ThreadSanitizer with its own count.
@Suite struct SPSCRingBufferStressTests {
  static let defaultSamples = 20_000_000

  static var sampleCount: Int {
    ProcessInfo.processInfo.environment["BM_RING_STRESS_SAMPLES"].flatMap { Int($0) } ?? defaultSamples
  }

  /// The value of sample number `index`: integers up to 2^24 are exact in a Float.
  static func value(_ index: Int) -> Float { Float(index & 0xFF_FFFF) }

  /// What the producer thread reports back.
  final class ProducerReport: Sendable {
    let checksum = Atomic<UInt64>(0)
    /// Writes that returned a non-zero number of dropped samples (the ring was full): the full path was taken.
    let fullWrites = Atomic<Int>(0)
  }

  /// Adds one sample to a running checksum that depends on the order of the samples.
  static func mix(_ checksum: UInt64, _ sample: Float) -> UInt64 {
    (checksum &* 0x100_0000_01B3) ^ UInt64(sample.bitPattern)
  }

  static func produce(_ ring: SPSCRingBuffer, count: Int, report: ProducerReport) {
    var chunk = [Float](repeating: 0, count: 1500)
    var sent = 0
    var checksum: UInt64 = 0xCBF2_9CE4_8422_2325
    var fullWrites = 0
    var random: UInt64 = 0x9E37_79B9_7F4A_7C15
    while sent < count {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let size = min(Int(random >> 33) % chunk.count + 1, count - sent)
      for i in 0..<size {
        chunk[i] = value(sent + i)
        checksum = mix(checksum, chunk[i])
      }
      var done = 0
      while done < size {
        let dropped = chunk.withUnsafeBufferPointer { all in
          ring.write(UnsafeBufferPointer(rebasing: all[done..<size]))
        }
        if dropped > 0 {
          fullWrites += 1
          sched_yield()
        }
        done = size - dropped
      }
      sent += size
    }
    report.checksum.store(checksum, ordering: .relaxed)
    report.fullWrites.store(fullWrites, ordering: .relaxed)
  }

  @Test("Two threads move every sample through a small ring in order, none lost or repeated")
  func twoThreadsKeepOrderAndLoseNothing() throws {
    let total = Self.sampleCount
    let ring = try SPSCRingBuffer(minimumCapacity: 4096)
    let report = ProducerReport()
    let producerDone = DispatchSemaphore(value: 0)
    let started = ContinuousClock.now
    let producer = Thread {
      Self.produce(ring, count: total, report: report)
      producerDone.signal()
    }
    producer.start()

    var buffer = [Float](repeating: 0, count: 2048)
    var received = 0
    var mismatches = 0
    var firstMismatch: Int?
    var checksum: UInt64 = 0xCBF2_9CE4_8422_2325
    var emptyReads = 0
    var readSize = 1
    var lastProgress = ContinuousClock.now
    while received < total {
      readSize = (readSize + 997) % buffer.count + 1  // uneven read sizes, 1...2048
      let n = buffer.withUnsafeMutableBufferPointer { all in
        ring.read(into: UnsafeMutableBufferPointer(rebasing: all[..<readSize]))
      }
      if n == 0 {
        emptyReads += 1
        if ContinuousClock.now - lastProgress > .seconds(30) { break }
        sched_yield()
        continue
      }
      for i in 0..<n {
        let sample = buffer[i]
        if sample.bitPattern != Self.value(received + i).bitPattern {
          mismatches += 1
          if firstMismatch == nil { firstMismatch = received + i }
        }
        checksum = Self.mix(checksum, sample)
      }
      received += n
      lastProgress = ContinuousClock.now
    }
    producerDone.wait()
    let seconds = (ContinuousClock.now - started) / .seconds(1)

    #expect(received == total, "consumer stalled: no sample for 30 s")
    #expect(mismatches == 0, "first out-of-order or wrong sample at index \(firstMismatch ?? -1)")
    #expect(checksum == report.checksum.load(ordering: .relaxed))
    #expect(ring.availableToRead == 0)
    let rate = Double(total) / seconds / 1e6
    print(
      "SPSCRingBuffer stress: \(total) samples in \(String(format: "%.2f", seconds)) s = "
        + "\(String(format: "%.1f", rate)) M samples/s; producer found the ring full "
        + "\(report.fullWrites.load(ordering: .relaxed)) times, consumer found it empty \(emptyReads) times")
  }
}
