import Matcher

/// Keeps every event a stream matcher reports, in order. One thread: the matcher's.
public final class CollectingSink: MatchEventSink {
  public private(set) var events: [MatchEvent] = []

  public init() {}

  public func receive(_ event: MatchEvent) { events.append(event) }

  /// The play events (started, continues, ended, retracted), without the no-match reports.
  public var playEvents: [MatchEvent] {
    events.filter {
      if case .noMatch = $0 { return false }
      return true
    }
  }

  public var started: [MatchedPlay] {
    events.compactMap {
      if case .playStarted(let p) = $0 { return p }
      return nil
    }
  }

  public var continued: [MatchedPlay] {
    events.compactMap {
      if case .playContinues(let p) = $0 { return p }
      return nil
    }
  }

  /// Plays as they ended, in the order they ended.
  public var ended: [MatchedPlay] {
    events.compactMap {
      if case .playEnded(let p) = $0 { return p }
      return nil
    }
  }

  /// Plays withdrawn after they were reported as started.
  public var retracted: [MatchedPlay] {
    events.compactMap {
      if case .playRetracted(let p) = $0 { return p }
      return nil
    }
  }

  /// Stream times of the no-match reports.
  public var noMatchTimes: [Double] {
    events.compactMap {
      if case .noMatch(let t) = $0 { return t }
      return nil
    }
  }
}

extension MatchEvent {
  /// The play an event is about, or nil for a no-match report.
  public var play: MatchedPlay? {
    switch self {
    case .playStarted(let p), .playContinues(let p), .playEnded(let p), .playRetracted(let p): p
    case .noMatch: nil
    }
  }
}
