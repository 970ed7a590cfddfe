/// Whether a channel's matcher keeps up with real time, from the lag the pipeline observes after each pump.
///
/// The lag is the audio that has arrived in the channel's input and waits there to be analysed, in seconds
/// (`ChannelInput.backlogSeconds`): for JACK, what the port rings hold; for a stream or a file, what its ring holds
/// and could be read now. The matcher runs on the channel's worker and keeps no queue of its own, so that audio is
/// exactly how far the analysis is behind the source. The same measure is right for every kind of input; the other
/// one, wall-clock time minus the time stamp of the newest audio analysed, is not: it grows while a source is silent
/// (a gap, a stream reconnecting, a JACK server away) although the matcher waits for nothing, and it adds the
/// latency of the source itself. The lag cannot exceed the input's ring (30 s for a stream or a file,
/// `jack.ringSeconds` for JACK): past that, audio is dropped and reported as overruns.
///
/// A worker that keeps up leaves less than a chunk waiting (8192 frames, about 1 s at the fingerprint rate of
/// 8 kHz); a network stream's server sends a new listener a burst of up to about 10 s of buffered audio at once,
/// which such a worker clears within a second or two. So a channel is reported as lagging only when the lag has been
/// at least `lagThresholdSeconds` for `holdSeconds`, and as caught up only when it has been below
/// `caughtUpSeconds` for `holdSeconds`: one report per episode, however the lag wavers within it.
///
/// A value type owned by the channel's worker.
struct LagTracker: Equatable, Sendable {
  /// A lag at or above this (held for `holdSeconds`) makes the channel lagging. Twice the chunk a worker that keeps
  /// up may leave waiting, and well below the smallest ring in use (JACK's default of 10 s), so that a channel is
  /// reported as lagging before it drops audio.
  static let lagThresholdSeconds = 2.0
  /// A lagging channel has caught up when its lag stays below this (for `holdSeconds`): at most one chunk waits.
  /// Half the threshold, so that a lag hovering around the threshold does not start and end episodes.
  static let caughtUpSeconds = 1.0
  /// How long the lag must stay past a limit before the state changes: longer than a burst-on-connect takes to clear,
  /// short enough that a person sees a lagging channel within seconds.
  static let holdSeconds = 2.0

  /// A change of state, to be reported.
  enum Change: Equatable, Sendable {
    /// The channel fell behind: since `since` (the first observation at or above the threshold), the lag now.
    case lagging(since: Double, lagSeconds: Double)
    /// The channel caught up (or, when `finish` reports it, stopped while lagging): the episode from `since` to
    /// `until`, the most it was behind, and the lag now.
    case caughtUp(since: Double, until: Double, maxLagSeconds: Double, lagSeconds: Double)
  }

  /// The newest lag observed, in seconds.
  private(set) var lagSeconds = 0.0
  /// When the current episode began (wall-clock seconds since 1970), nil while the channel keeps up.
  private(set) var laggingSince: Double?
  /// The largest lag observed in the current episode (or, before it is reported, since the lag crossed the
  /// threshold).
  private(set) var maxLagSeconds = 0.0
  /// The first of the observations in a row that are on the other side of the limit for the current state.
  private var crossedAt: Double?

  /// Notes a lag of `lagSeconds` at `now` (wall-clock seconds since 1970); returns the change it makes, if any.
  mutating func observe(lagSeconds lag: Double, at now: Double) -> Change? {
    lagSeconds = lag
    if let since = laggingSince {
      maxLagSeconds = max(maxLagSeconds, lag)
      guard lag < Self.caughtUpSeconds else {
        crossedAt = nil
        return nil
      }
      let below = crossedAt ?? now
      crossedAt = below
      guard now - below >= Self.holdSeconds else { return nil }
      laggingSince = nil
      crossedAt = nil
      return .caughtUp(since: since, until: now, maxLagSeconds: maxLagSeconds, lagSeconds: lag)
    }
    guard lag >= Self.lagThresholdSeconds else {
      crossedAt = nil
      return nil
    }
    maxLagSeconds = crossedAt == nil ? lag : max(maxLagSeconds, lag)
    let above = crossedAt ?? now
    crossedAt = above
    guard now - above >= Self.holdSeconds else { return nil }
    laggingSince = above
    crossedAt = nil
    return .lagging(since: above, lagSeconds: lag)
  }

  /// Ends the current episode at `now`, when there is one (the channel stops while lagging).
  mutating func finish(at now: Double) -> Change? {
    crossedAt = nil
    guard let since = laggingSince else { return nil }
    laggingSince = nil
    return .caughtUp(since: since, until: now, maxLagSeconds: maxLagSeconds, lagSeconds: lagSeconds)
  }
}
