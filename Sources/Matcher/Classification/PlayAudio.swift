/// The air audio of a catalog play, cut by the air watch from its ring when the play ends (`AirWatch.playAudio`).
///
/// A value type: safe to pass between threads.
public struct PlayAudio: Sendable {
  /// The play as it ended.
  public var play: MatchedPlay
  /// Mono at the fingerprint rate: the play's air audio, or its newest part when the play began before the oldest
  /// audio the ring holds.
  public var samples: [Float]
  /// Stream time of the first sample: the play's start, or later when the ring no longer held it.
  public var startSeconds: Double

  public init(play: MatchedPlay, samples: [Float], startSeconds: Double) {
    self.play = play
    self.samples = samples
    self.startSeconds = startSeconds
  }

  /// True when the audio lacks the play's start (the play was longer than the ring holds).
  public var lacksStart: Bool { startSeconds > play.startSeconds }
}
