import Foundation

/// The CPU the whole process uses, in percent of one core, averaged over at least a second.
///
/// Threads: the thread that owns the value.
struct ProcessCPU {
  private var lastWall = ProcessCPU.wallSeconds()
  private var lastCPU = ProcessCPU.processSeconds()
  private var percent: Double?

  /// The share of one core the process used since the sample before, updated at most once a second.
  mutating func percentSinceLastSample() -> Double? {
    let wall = Self.wallSeconds()
    guard wall - lastWall >= 1 else { return percent }
    let cpu = Self.processSeconds()
    percent = (cpu - lastCPU) / (wall - lastWall) * 100
    (lastWall, lastCPU) = (wall, cpu)
    return percent
  }

  static func processSeconds() -> Double { seconds(CLOCK_PROCESS_CPUTIME_ID) }
  static func threadSeconds() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }
  static func wallSeconds() -> Double { seconds(CLOCK_MONOTONIC) }

  private static func seconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
