import Reports
import Synchronization

/// The channels a PostgreSQL play log refused to this node when it connected (another live node holds them), handed
/// from the play log writer's thread, which finds them, to the monitor, which stops them. Refusals that come before
/// the monitor has set its handler wait for it.
///
/// Threads: any.
final class ChannelRefusals: Sendable {
  private let state = Mutex<(handler: (@Sendable ([PlayLogNodeError]) -> Void)?, waiting: [PlayLogNodeError])>(
    (nil, []))

  /// Hands `errors` to the handler, or keeps them until there is one.
  func report(_ errors: [PlayLogNodeError]) {
    let handler = state.withLock { state in
      if state.handler == nil { state.waiting += errors }
      return state.handler
    }
    handler?(errors)
  }

  /// Sets the handler, and hands it what came before.
  func handle(with handler: @escaping @Sendable ([PlayLogNodeError]) -> Void) {
    let waiting = state.withLock { state in
      state.handler = handler
      defer { state.waiting = [] }
      return state.waiting
    }
    if !waiting.isEmpty { handler(waiting) }
  }
}
