import Foundation
import Reports
import Synchronization

/// A pool of worker threads that drain the channels: each channel belongs to one worker (its input is
/// single-consumer), channels are dealt out round-robin at the start, and a worker with nothing to do sleeps
/// `idleSeconds`. A channel added later (`add(_:)`, a configuration reload) goes to a new worker while there are
/// fewer than `threads`, else to the worker with the fewest channels; a channel taken away (`remove(_:)`) is finished
/// by its own worker, the others running on untouched. A watch thread of its own looks at every channel's lag
/// (`ChannelPipeline.watchLag()`) every `watchSeconds`: a worker that is stuck in a slow chunk cannot report that its
/// channels fall behind, so another thread does. Every `heartbeatSeconds` it also hands the channels' heartbeats
/// (`ChannelPipeline.heartbeat`) to `onHeartbeat`, first as it starts.
///
/// Threads: `init`, `add(_:)`, `remove(_:)` and `stop()` from the control thread (or one thread at a time in its
/// stead: the configuration reload); the workers and the watch thread are the pool's own threads.
final class WorkerPool: Sendable {
  /// How often the watch thread looks at the channels' lag: often enough for `LagTracker`'s two-second hold, and a
  /// few hundred microseconds of work a second even for hundreds of channels.
  static let watchSeconds = 0.25

  /// How often the channels' heartbeats go to the play log, in seconds. A monitor that is killed records, at its
  /// next start, each channel as not heard from its last heartbeat: a spot that aired up to this long before the
  /// kill and was not found is then `unmonitored`, not `missed`. Each heartbeat is one small transaction.
  static let heartbeatSeconds = 10.0

  /// One worker's channels, and the channels it must finish and let go (each with the semaphore its remover waits
  /// on).
  private struct Worker: @unchecked Sendable {
    var pipelines: [ChannelPipeline]
    var leaving: [(pipeline: ChannelPipeline, finished: DispatchSemaphore)] = []
    let done = DispatchSemaphore(value: 0)
  }

  private let maxThreads: Int
  private let idleSeconds: Double
  private let stopping = Atomic<Bool>(false)
  private let workers: Mutex<[Worker]>
  private let watchDone = DispatchSemaphore(value: 0)
  /// CPU seconds each worker has used, in microseconds (for the console and the capacity benchmark).
  private let cpuMicroseconds: Mutex<[Int]>

  /// Starts up to `threads` workers over `pipelines` (one per channel while there are fewer channels), and the
  /// watch thread, which hands `onHeartbeat` the heartbeats of the channels every `heartbeatSeconds`.
  init(
    threads: Int, pipelines: [ChannelPipeline], idleSeconds: Double = 0.01,
    heartbeatSeconds: Double = WorkerPool.heartbeatSeconds,
    onHeartbeat: (@Sendable ([ChannelHeartbeat]) -> Void)? = nil
  ) {
    maxThreads = max(1, threads)
    self.idleSeconds = idleSeconds
    let count = max(1, min(threads, max(1, pipelines.count)))
    workers = Mutex(
      (0..<count).map { worker in
        Worker(pipelines: stride(from: worker, to: pipelines.count, by: count).map { pipelines[$0] })
      })
    cpuMicroseconds = Mutex([Int](repeating: 0, count: maxThreads))
    for worker in 0..<count { startWorker(worker) }
    let watch = Thread { [self] in
      var nextHeartbeat = DispatchTime.now()
      while !stopping.load(ordering: .acquiring) {
        let pipelines = workers.withLock { $0.flatMap(\.pipelines) }
        for pipeline in pipelines { pipeline.watchLag() }
        if let onHeartbeat, DispatchTime.now() >= nextHeartbeat {
          onHeartbeat(pipelines.compactMap(\.heartbeat))
          nextHeartbeat = .now() + heartbeatSeconds
        }
        Thread.sleep(forTimeInterval: Self.watchSeconds)
      }
      watchDone.signal()
    }
    watch.name = "channel-watch"
    watch.start()
  }

  private func startWorker(_ worker: Int) {
    let thread = Thread { [self] in
      while !stopping.load(ordering: .acquiring) {
        let (mine, leaving) = takeWork(worker)
        for (pipeline, finished) in leaving {
          pipeline.finish()
          finished.signal()
        }
        var worked = false
        for pipeline in mine where pipeline.pump() { worked = true }
        if !worked { Thread.sleep(forTimeInterval: idleSeconds) }
        let used = Self.threadCPUMicroseconds()
        cpuMicroseconds.withLock { $0[worker] = used }
      }
      let (mine, leaving) = takeWork(worker)
      for pipeline in mine { pipeline.finish() }
      for (pipeline, finished) in leaving {
        pipeline.finish()
        finished.signal()
      }
      workers.withLock { $0[worker].done }.signal()
    }
    thread.name = "channel-worker-\(worker)"
    thread.start()
  }

  /// A worker's channels now, and those it must let go (taken off its list).
  private func takeWork(_ worker: Int) -> (
    [ChannelPipeline], [(pipeline: ChannelPipeline, finished: DispatchSemaphore)]
  ) {
    workers.withLock { workers in
      defer { workers[worker].leaving = [] }
      return (workers[worker].pipelines, workers[worker].leaving)
    }
  }

  /// Worker threads.
  var threadCount: Int { workers.withLock { $0.count } }

  /// CPU time the workers have used so far, in seconds. Any thread.
  var cpuSeconds: Double {
    Double(cpuMicroseconds.withLock { $0.reduce(0, +) }) / 1e6
  }

  /// Starts draining `pipeline`: on a new worker while there are fewer than `threads` and every worker has a
  /// channel, else on the worker with the fewest channels.
  func add(_ pipeline: ChannelPipeline) {
    let newWorker = workers.withLock { workers -> Int? in
      if workers.count < maxThreads && workers.allSatisfy({ !$0.pipelines.isEmpty }) {
        workers.append(Worker(pipelines: [pipeline]))
        return workers.count - 1
      }
      let least = workers.indices.min { workers[$0].pipelines.count < workers[$1].pipelines.count }!
      workers[least].pipelines.append(pipeline)
      return nil
    }
    if let newWorker { startWorker(newWorker) }
  }

  /// Takes `pipeline` off its worker, which finishes it (consumes what its input still holds and ends its running
  /// plays at the last audio heard); returns once it has. The other channels run on untouched.
  func remove(_ pipeline: ChannelPipeline) {
    let finished = DispatchSemaphore(value: 0)
    let found = workers.withLock { workers -> Bool in
      guard let worker = workers.firstIndex(where: { $0.pipelines.contains { $0 === pipeline } }) else { return false }
      workers[worker].pipelines.removeAll { $0 === pipeline }
      workers[worker].leaving.append((pipeline, finished))
      return true
    }
    if found { finished.wait() }
  }

  /// Stops the workers: each consumes what its inputs still hold and ends its channels' running plays. Returns when
  /// all have finished. Control thread.
  func stop() {
    stopping.store(true, ordering: .releasing)
    watchDone.wait()
    for done in workers.withLock({ $0.map(\.done) }) { done.wait() }
  }

  private static func threadCPUMicroseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000 + time.tv_nsec / 1000
  }
}
