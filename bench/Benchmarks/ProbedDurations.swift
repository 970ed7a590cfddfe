import Foundation

/// Durations filled in by concurrent probes.
final class ProbedDurations: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var values: [Double?]
  init(count: Int) { values = [Double?](repeating: nil, count: count) }
  func set(_ i: Int, _ value: Double?) {
    lock.lock()
    values[i] = value
    lock.unlock()
  }
}
