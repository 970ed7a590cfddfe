import Foundation
import Synchronization

/// A fixed pool of worker threads that drain the channels: each channel belongs to one worker (its input is
/// single-consumer), channels are dealt out round-robin, and a worker with nothing to do sleeps `idleSeconds`.
/// A watch thread of its own looks at every channel's lag (`ChannelPipeline.watchLag()`) every `watchSeconds`: a
/// worker that is stuck in a slow chunk cannot report that its channels fall behind, so another thread does.
///
/// Threads: `init`, `stop()` from the control thread; the workers and the watch thread are the pool's own threads.
final class WorkerPool: Sendable {
  /// How often the watch thread looks at the channels' lag: often enough for `LagTracker`'s two-second hold, and a
  /// few hundred microseconds of work a second even for hundreds of channels.
  static let watchSeconds = 0.25

  private let stopping = Atomic<Bool>(false)
  private let done: [DispatchSemaphore]
  private let watchDone = DispatchSemaphore(value: 0)
  /// CPU seconds each worker has used, in microseconds (for the console and the capacity benchmark).
  private let cpuMicroseconds: Mutex<[Int]>

  /// Starts `threads` workers over `pipelines`.
  init(threads: Int, pipelines: [ChannelPipeline], idleSeconds: Double = 0.01) {
    let count = max(1, min(threads, max(1, pipelines.count)))
    done = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    cpuMicroseconds = Mutex([Int](repeating: 0, count: count))
    for worker in 0..<count {
      let mine = stride(from: worker, to: pipelines.count, by: count).map { pipelines[$0] }
      let thread = Thread { [self] in
        while !stopping.load(ordering: .acquiring) {
          var worked = false
          for pipeline in mine where pipeline.pump() { worked = true }
          if !worked { Thread.sleep(forTimeInterval: idleSeconds) }
          let used = Self.threadCPUMicroseconds()
          cpuMicroseconds.withLock { $0[worker] = used }
        }
        for pipeline in mine { pipeline.finish() }
        done[worker].signal()
      }
      thread.name = "channel-worker-\(worker)"
      thread.start()
    }
    let watch = Thread { [self] in
      while !stopping.load(ordering: .acquiring) {
        for pipeline in pipelines { pipeline.watchLag() }
        Thread.sleep(forTimeInterval: Self.watchSeconds)
      }
      watchDone.signal()
    }
    watch.name = "channel-watch"
    watch.start()
  }

  /// Worker threads.
  var threadCount: Int { done.count }

  /// CPU time the workers have used so far, in seconds. Any thread.
  var cpuSeconds: Double {
    Double(cpuMicroseconds.withLock { $0.reduce(0, +) }) / 1e6
  }

  /// Stops the workers: each consumes what its inputs still hold and ends its channels' running plays. Returns when
  /// all have finished. Control thread.
  func stop() {
    stopping.store(true, ordering: .releasing)
    watchDone.wait()
    for semaphore in done { semaphore.wait() }
  }

  private static func threadCPUMicroseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000 + time.tv_nsec / 1000
  }
}
