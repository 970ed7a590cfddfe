import Synchronization

/// A lock-free single-producer/single-consumer ring of `Float` samples that owns its memory.
///
/// Threads: one producer thread writes (in this project, the JACK process callback, through `handle`) and one
/// consumer thread reads (one worker thread). Creating and releasing the ring happen on a non-real-time thread,
/// before the producer starts and after it has stopped. `write` never blocks: samples that do not fit are dropped
/// and their number returned, for the caller to count as overruns. `read` never blocks either.
///
/// All memory (the two counters, each on its own cache line, and the samples) is allocated and every page written
/// once in `init`, so the producer never takes a page fault on first use. The real-time side uses `handle`, a plain
/// struct of pointers, and never touches this object; keep the object alive for as long as any copy of the handle
/// is used.
public final class SPSCRingBuffer: @unchecked Sendable {
  /// The largest capacity accepted: 2^30 samples (4 GiB).
  public static let maximumCapacity = 1 << 30

  /// The number of samples the ring holds when full: the requested minimum rounded up to a power of two.
  public let capacity: Int

  /// The raw view of this ring for the real-time producer (see `RingHandle`). Valid while `self` is alive.
  package let handle: RingHandle

  private static let cacheLine = 64
  private let control: UnsafeMutableRawPointer

  /// Allocates a ring of at least `minimumCapacity` samples, rounded up to a power of two, and touches its pages.
  /// - Throws: `RingBufferError` when `minimumCapacity` is below 1 or rounds up past `maximumCapacity`.
  public init(minimumCapacity: Int) throws(RingBufferError) {
    guard minimumCapacity >= 1 else { throw .capacityNotPositive(minimumCapacity) }
    guard minimumCapacity <= Self.maximumCapacity else {
      throw .capacityTooLarge(requested: minimumCapacity, maximum: Self.maximumCapacity)
    }
    let capacity = Self.powerOfTwo(atLeast: minimumCapacity)
    self.capacity = capacity

    let line = Self.cacheLine
    control = UnsafeMutableRawPointer.allocate(byteCount: 2 * line, alignment: line)
    let head = control.bindMemory(to: Atomic<Int>.self, capacity: 1)
    head.initialize(to: Atomic(0))
    let tail = (control + line).bindMemory(to: Atomic<Int>.self, capacity: 1)
    tail.initialize(to: Atomic(0))

    let storage = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
    storage.initialize(repeating: 0, count: capacity)  // writes every page now, not in the real-time thread
    handle = RingHandle(head: head, tail: tail, storage: storage, mask: capacity - 1)
  }

  deinit {
    handle.storage.deinitialize(count: capacity)
    handle.storage.deallocate()
    handle.head.deinitialize(count: 1)
    handle.tail.deinitialize(count: 1)
    control.deallocate()
  }

  /// Samples written and not yet read. On the consumer thread, a guaranteed minimum.
  public var availableToRead: Int { handle.availableToRead }

  /// Free slots. On the producer thread, a guaranteed minimum.
  public var availableToWrite: Int { handle.availableToWrite }

  /// Copies as many of `samples` as fit, without blocking. Producer thread only.
  /// - Returns: how many samples did not fit and were dropped.
  @discardableResult
  public func write(_ samples: UnsafeBufferPointer<Float>) -> Int {
    guard let base = samples.baseAddress else { return 0 }
    return handle.write(base, count: samples.count)
  }

  /// Moves up to `buffer.count` samples out of the ring, oldest first, without blocking. Consumer thread only.
  /// - Returns: how many samples were copied to the start of `buffer`; 0 when the ring is empty.
  public func read(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    return handle.read(into: base, count: buffer.count)
  }

  private static func powerOfTwo(atLeast n: Int) -> Int {
    var p = 1
    while p < n { p <<= 1 }
    return p
  }
}
