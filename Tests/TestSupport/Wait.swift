import Foundation

/// Waiting on a condition with a deadline, the way tests synchronise with other threads and processes instead of
/// sleeping a fixed time: the wait ends as soon as the condition holds, and a generous deadline keeps a slow machine
/// from failing the test while a broken condition still ends it.
public enum Wait {
  /// Polls `condition` every `pollSeconds` until it holds (true) or `seconds` have passed (false, after one last
  /// look). Blocks the calling thread.
  @discardableResult
  public static func until(
    seconds: Double, pollSeconds: Double = 0.01, _ condition: () throws -> Bool
  ) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try condition() { return true }
      Thread.sleep(forTimeInterval: pollSeconds)
    }
    return try condition()
  }
}
