import Foundation
import JackInput

/// What the JACK server did to a capture's timeline while a test ran: the xruns it reported to the capture, and the
/// cycles in which the capture's process callback did not run (its frame times jumped by more than a period).
///
/// On a loaded machine (CI runs the test suites in parallel on 2 cores) the server now and then misses a deadline.
/// Then a late client's cycle is lost: a capture misses one period of what it was fed, or a player's output is not
/// ready in time. A sample-for-sample expectation cannot hold across such a cycle, whatever the code under test
/// does, so those tests run again when the server was disturbed (`retrying(attempts:_:)`). A run JACK did not
/// disturb must still be exact: a dropped, repeated or reordered sample then fails the test.
///
/// Threads: a value; any thread.
public struct JackDisturbance: CustomStringConvertible, Sendable {
  /// Xruns the server reported (to every client: any client's miss counts).
  public var xruns: Int
  /// Periods of frame time in which the capture's process callback did not run.
  public var skippedCycles: Int

  /// Read from a capture after it is closed (so that no cycle runs meanwhile).
  public init(of capture: JackCapture) {
    xruns = capture.xruns
    guard let first = capture.firstFrameTime else {
      skippedCycles = 0
      return
    }
    // Every cycle the callback ran added one period to `framesProcessed`; the frame times span every cycle.
    let spanned = Int(capture.lastFrameTime &- first) + capture.bufferSize
    skippedCycles = max(0, spanned - capture.framesProcessed) / capture.bufferSize
  }

  /// True when the server reported no xrun and the capture ran every cycle.
  public var isNone: Bool { xruns == 0 && skippedCycles == 0 }

  public var description: String {
    "JACK reported \(xruns) xrun\(xruns == 1 ? "" : "s") and the capture skipped \(skippedCycles) "
      + "cycle\(skippedCycles == 1 ? "" : "s")"
  }

  /// Runs `attempt` until the JACK server runs it undisturbed, at most `attempts` times, and returns the last
  /// attempt's result and disturbance. Put the expectations after this call, on that result: a test that still
  /// fails after `attempts` disturbed runs says so in its messages (include the disturbance in them).
  public static func retrying<Result>(
    attempts: Int = 3, _ attempt: () async throws -> (Result, JackDisturbance)
  ) async throws -> (Result, JackDisturbance) {
    precondition(attempts >= 1)
    var number = 1
    while true {
      let (result, disturbance) = try await attempt()
      if disturbance.isNone || number == attempts { return (result, disturbance) }
      FileHandle.standardError.write(
        Data("JACK test attempt \(number) of \(attempts) disturbed (\(disturbance)); running it again\n".utf8))
      number += 1
    }
  }
}
