/// One condition of one channel, from observations to an alert that opens once and closes once: the condition must
/// hold for `forSeconds` before the alert opens, and be clear for `holdSeconds` before it closes, so that a value
/// hovering at its threshold does not open and close an alert at every crossing.
///
/// The alert's span runs from the first observation that held (or the `since` the caller gives for it) to the first
/// one that was clear for good. Observations come in time order; times are seconds in any one time base.
///
/// A value type; used by one thread (`AlertEvaluator`'s).
struct AlertTracker: Sendable, Equatable {
  /// How long the condition must hold before the alert opens, in seconds.
  let forSeconds: Double
  /// How long the condition must be clear before the alert closes, in seconds.
  let holdSeconds: Double
  /// Since when the condition has held (the alert is pending or open); nil while it is clear.
  private(set) var onset: Double?
  private(set) var isOpen = false
  /// While open: since when the condition has been clear.
  private var clearSince: Double?

  enum Change: Sendable, Equatable {
    /// The alert opened; the condition has held since `since`.
    case opened(since: Double)
    /// The alert closed: the condition held from `since` to `until`.
    case closed(since: Double, until: Double)
  }

  init(forSeconds: Double, holdSeconds: Double) {
    self.forSeconds = forSeconds
    self.holdSeconds = holdSeconds
  }

  /// Notes whether the condition `holds` at `time`; `since`, when the condition holds and was clear, is when it
  /// began if the caller knows better (the last audio heard, the end of the last play). Returns the alert's change.
  mutating func observe(_ holds: Bool, at time: Double, since: Double? = nil) -> Change? {
    if holds {
      clearSince = nil
      if onset == nil { onset = min(since ?? time, time) }
      if !isOpen, let onset, time - onset >= forSeconds {
        isOpen = true
        return .opened(since: onset)
      }
      return nil
    }
    guard isOpen, let onset else {
      onset = nil
      return nil
    }
    let clear = clearSince ?? time
    clearSince = clear
    guard time - clear >= holdSeconds else { return nil }
    self.onset = nil
    clearSince = nil
    isOpen = false
    return .closed(since: onset, until: clear)
  }

  /// Ends the tracking at `time` (the monitor stops, the file ended): an open alert closes at once, at `time` or
  /// when the condition cleared if it already had.
  mutating func finish(at time: Double) -> Change? {
    defer {
      onset = nil
      clearSince = nil
      isOpen = false
    }
    guard isOpen, let onset else { return nil }
    return .closed(since: onset, until: max(onset, clearSince ?? time))
  }
}
