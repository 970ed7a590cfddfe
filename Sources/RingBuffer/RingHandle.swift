import Synchronization

/// A trivially copyable view of one `SPSCRingBuffer`'s memory: two counters and the sample storage.
///
/// It holds no class reference, so copying it or calling it never retains or releases anything. That is what lets
/// the JACK process callback write into a ring from raw memory handed over through its context pointer.
///
/// Threads: exactly one producer thread may call `write` (in this project, the JACK process callback) and exactly
/// one consumer thread may call `read` (one worker thread). `availableToRead` and `availableToWrite` are meant for
/// those two threads: on the consumer, `availableToRead` is a guaranteed minimum (more may arrive); on the producer,
/// `availableToWrite` is (more may be freed). The handle is valid only while the `SPSCRingBuffer` that handed it out
/// is alive.
///
/// `head` counts every sample ever written and `tail` every sample ever read; both only grow (a 64-bit count of
/// samples does not wrap in practice). The producer publishes samples with a release store of `head` that the
/// consumer loads with acquire; the consumer frees slots with a release store of `tail` that the producer loads
/// with acquire before it overwrites them.
package struct RingHandle: BitwiseCopyable, @unchecked Sendable {
  /// Samples written so far. Stored only by the producer.
  @usableFromInline let head: UnsafeMutablePointer<Atomic<Int>>
  /// Samples read so far. Stored only by the consumer.
  @usableFromInline let tail: UnsafeMutablePointer<Atomic<Int>>
  /// `capacity` samples.
  @usableFromInline let storage: UnsafeMutablePointer<Float>
  /// `capacity - 1`; `capacity` is a power of two.
  @usableFromInline let mask: Int

  @usableFromInline init(
    head: UnsafeMutablePointer<Atomic<Int>>, tail: UnsafeMutablePointer<Atomic<Int>>,
    storage: UnsafeMutablePointer<Float>, mask: Int
  ) {
    self.head = head
    self.tail = tail
    self.storage = storage
    self.mask = mask
  }

  /// The number of samples the ring holds when full (a power of two).
  @inlinable package var capacity: Int { mask &+ 1 }

  /// Samples written and not yet read.
  @inlinable package var availableToRead: Int {
    head.pointee.load(ordering: .acquiring) &- tail.pointee.load(ordering: .acquiring)
  }

  /// Free slots.
  @inlinable package var availableToWrite: Int { capacity &- availableToRead }

  /// Copies up to `count` samples from `src` into the ring without blocking. Producer thread only.
  ///
  /// Real-time safe: no allocation, lock, reference counting or generic call; two atomic loads, at most two copy
  /// loops and one atomic store (checked in the release disassembly). Note: with `package` access this
  /// toolchain calls it rather than inlining it into other modules; the call is cheap and ARC-free.
  /// - Returns: how many of the `count` samples did not fit and were dropped (the caller counts them as overruns).
  ///   Samples that fit are kept, so a partly full ring takes the first part of `src`.
  @inlinable @inline(__always)
  package func write(_ src: UnsafePointer<Float>, count: Int) -> Int {
    if count <= 0 { return 0 }
    let written = head.pointee.load(ordering: .relaxed)
    let read = tail.pointee.load(ordering: .acquiring)
    let capacity = mask &+ 1
    let free = capacity &- (written &- read)
    let n = count < free ? count : free
    if n > 0 {
      let start = written & mask
      let untilEnd = capacity &- start
      let first = n < untilEnd ? n : untilEnd
      Self.copy(from: src, to: storage + start, count: first)
      if first < n {
        Self.copy(from: src + first, to: storage, count: n &- first)
      }
      head.pointee.store(written &+ n, ordering: .releasing)
    }
    return count &- n
  }

  /// Moves up to `count` samples out of the ring into `dst` without blocking. Consumer thread only.
  /// - Returns: how many samples were copied; 0 when the ring is empty.
  @inlinable @inline(__always)
  package func read(into dst: UnsafeMutablePointer<Float>, count: Int) -> Int {
    if count <= 0 { return 0 }
    let read = tail.pointee.load(ordering: .relaxed)
    let written = head.pointee.load(ordering: .acquiring)
    let available = written &- read
    let n = count < available ? count : available
    if n > 0 {
      let start = read & mask
      let untilEnd = mask &+ 1 &- start
      let first = n < untilEnd ? n : untilEnd
      Self.copy(from: storage + start, to: dst, count: first)
      if first < n {
        Self.copy(from: storage, to: dst + first, count: n &- first)
      }
      tail.pointee.store(read &+ n, ordering: .releasing)
    }
    return n
  }

  /// Copies `count` samples with a plain loop. An optimized build turns it into `memmove` or a vector loop; a
  /// debug build keeps one load and one store per sample, which ThreadSanitizer checks. (On this toolchain TSan
  /// does not see the ranges that `memcpy`/`copyMemory` touch, so copying with them would hide races on samples.)
  @inlinable @inline(__always)
  static func copy(from src: UnsafePointer<Float>, to dst: UnsafeMutablePointer<Float>, count: Int) {
    var i = 0
    while i < count {
      dst[i] = src[i]
      i &+= 1
    }
  }
}
