/// A stretch of one channel's air with one label, as the air watch closes it: `report segments` has one row per
/// stretch, and an `unknown-music` stretch is an unknown segment.
public struct AirStretch: Sendable, Equatable {
  public var label: AirLabel
  /// Stream time of the start and end, in seconds.
  public var startSeconds: Double
  public var endSeconds: Double
  /// The catalog item's key, for `catalog`.
  public var item: String?
  /// Mean of the windows' music scores, 0…1: how sure the classifier is that this is music.
  public var musicConfidence: Double
  /// For `unknown-music`: the stretch's fingerprint (the matcher's query peaks over it, frames from the stretch's
  /// start), for clustering repeats.
  public var signature: Signature?
  /// For `unknown-music`, when the air watch keeps audio: the stretch's air audio, mono at the fingerprint rate (the
  /// newest part only, when the stretch is longer than the watch's ring holds).
  public var audio: [Float]?
  /// Stream time of `audio`'s first sample: the stretch's start when the ring still held it, later when the stretch
  /// began before the oldest audio the ring holds.
  public var audioStartSeconds: Double?

  public init(
    label: AirLabel, startSeconds: Double, endSeconds: Double, item: String? = nil, musicConfidence: Double,
    signature: Signature? = nil
  ) {
    self.label = label
    self.startSeconds = startSeconds
    self.endSeconds = endSeconds
    self.item = item
    self.musicConfidence = musicConfidence
    self.signature = signature
  }

  public var durationSeconds: Double { endSeconds - startSeconds }
}
