import Foundation

/// Runs jobs `0..<count` on worker threads and hands their outputs to the calling thread in job order, with at most
/// `window` outputs done but not yet consumed (so that a slow consumer bounds the memory they hold).
final class OrderedWorkPool<Output: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private let window: Int
  private let work: @Sendable (Int) -> Output
  // Guarded by `condition`.
  private var next = 0
  private var consumed = 0
  private var finished: [Int: Output] = [:]
  private var stopped = false
  private var running = 0

  init(count: Int, window: Int, work: @escaping @Sendable (Int) -> Output) {
    self.count = count
    self.window = max(1, window)
    self.work = work
  }

  /// Starts `threads` workers and calls `consume` with every output in order. When `consume` throws, the workers
  /// stop after their current job, and the error is rethrown once they have.
  func run(threads: Int, consume: (Int, Output) throws -> Void) rethrows {
    condition.lock()
    running = max(1, threads)
    condition.unlock()
    for _ in 0..<max(1, threads) {
      let thread = Thread { [self] in workerLoop() }
      thread.stackSize = 8 << 20
      thread.start()
    }
    defer {
      condition.lock()
      stopped = true
      condition.broadcast()
      while running > 0 { condition.wait() }
      condition.unlock()
    }
    for i in 0..<count {
      condition.lock()
      while finished[i] == nil { condition.wait() }
      let output = finished.removeValue(forKey: i)!
      consumed = i + 1
      condition.broadcast()
      condition.unlock()
      try consume(i, output)
    }
  }

  private func workerLoop() {
    while true {
      condition.lock()
      while !stopped, next < count, next - consumed >= window { condition.wait() }
      guard !stopped, next < count else {
        running -= 1
        condition.broadcast()
        condition.unlock()
        return
      }
      let i = next
      next += 1
      condition.unlock()
      let output = work(i)
      condition.lock()
      finished[i] = output
      condition.broadcast()
      condition.unlock()
    }
  }
}
