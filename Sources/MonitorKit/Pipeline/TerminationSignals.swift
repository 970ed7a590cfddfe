import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM (and, for the daemon, SIGHUP) taken through dispatch sources instead of ending the process, so
/// that a command can stop cleanly and `run` can reload: the actions run on a private serial dispatch queue, never on
/// a JACK thread and never in a signal context. The one place the package takes signals (the console's SIGWINCH,
/// a window size and not a request, is the console's own).
///
/// Threads: create it on the main thread before any other thread starts (before opening a JACK client or starting a
/// subprocess): it blocks both signals in the calling thread, the threads started afterwards inherit that, and the
/// dispatch sources then receive the signals whichever thread they were sent to. `onSignal(_:)`, `onHangUp(_:)` and
/// `received` are for any thread. Keep the value alive for as long as the signals should be taken.
final class TerminationSignals: @unchecked Sendable {
  /// The signals that stop a command.
  static let taken: [Int32] = [SIGINT, SIGTERM]

  /// What the sources' handlers share with the rest: the first signal's number (0 while none arrived) and the
  /// action to run.
  private final class Shared: Sendable {
    let first = Atomic<Int32>(0)
    let action = Mutex<(@Sendable (Int32) -> Void)?>(nil)
    let hangUpAction = Mutex<(@Sendable () -> Void)?>(nil)
  }

  private let sources: [DispatchSourceSignal]
  private let shared = Shared()

  /// Blocks SIGINT and SIGTERM (and SIGHUP with `hangUp`) on this thread and starts taking them. A SIGHUP before
  /// `onHangUp(_:)` is set is dropped: there is nothing to reload yet.
  init(hangUp: Bool = false) {
    let signals = Self.taken + (hangUp ? [SIGHUP] : [])
    var blocked = sigset_t()
    sigemptyset(&blocked)
    for signal in signals { sigaddset(&blocked, signal) }
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
    let queue = DispatchQueue(label: "broadcast-monitor.signals")
    let shared = self.shared
    sources = signals.map { signal in
      let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
      source.setEventHandler {
        if signal == SIGHUP {
          shared.hangUpAction.withLock { $0 }?()
          return
        }
        _ = shared.first.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing)
        shared.action.withLock { $0 }?(signal)
      }
      source.resume()
      return source
    }
  }

  deinit {
    for source in sources { source.cancel() }
  }

  /// Runs `action` with the signal's number on the signal queue at each signal from now on, and right away (with
  /// the first one's) if one already arrived.
  func onSignal(_ action: @escaping @Sendable (Int32) -> Void) {
    shared.action.withLock { $0 = action }
    if let received { action(received) }
  }

  /// Runs `action` on the signal queue at each SIGHUP from now on (only with `init(hangUp: true)`).
  func onHangUp(_ action: @escaping @Sendable () -> Void) {
    shared.hangUpAction.withLock { $0 = action }
  }

  /// The first signal that arrived, or `nil` while none did.
  var received: Int32? {
    let signal = shared.first.load(ordering: .acquiring)
    return signal == 0 ? nil : signal
  }

  /// `SIGINT`, `SIGTERM`, or `signal N`.
  static func name(_ signal: Int32) -> String {
    switch signal {
    case SIGINT: return "SIGINT"
    case SIGTERM: return "SIGTERM"
    default: return "signal \(signal)"
    }
  }
}
