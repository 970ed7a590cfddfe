import Synchronization

/// A lock that async code waits for without blocking a thread: `lock()` suspends the task until the lock is free,
/// and waiters get it in the order they asked. Unlike a `Mutex`, it may be held across suspension points (a test
/// that sleeps with `Task.sleep` while holding it), and waiting for it never takes a thread of the cooperative pool
/// away from the holder.
///
/// Threads: any thread or task may call `lock()` and `unlock()`; `unlock()` must follow one `lock()`.
public final class AsyncMutex: Sendable {
  private struct State {
    var held = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Mutex(State())

  public init() {}

  /// Returns once this caller holds the lock.
  public func lock() async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let acquired = state.withLock { state in
        if state.held {
          state.waiters.append(waiter)
          return false
        }
        state.held = true
        return true
      }
      if acquired { waiter.resume() }
    }
  }

  /// Hands the lock to the next waiter, or frees it.
  public func unlock() {
    let next: CheckedContinuation<Void, Never>? = state.withLock { state in
      precondition(state.held, "AsyncMutex unlocked while not locked")
      if state.waiters.isEmpty {
        state.held = false
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}
