/// Unknown music on a channel's air now, as its air watch sees it: what a console shows instead of silence.
///
/// A value type: safe to pass between threads.
public struct UnknownMusicOnAir: Sendable, Equatable {
  /// Stream time of its start, in seconds.
  public var sinceSeconds: Double
  /// Its cluster, once its recent audio matched an earlier unknown segment; nil until then (or for music never
  /// heard before).
  public var cluster: Int64?

  public init(sinceSeconds: Double, cluster: Int64? = nil) {
    self.sinceSeconds = sinceSeconds
    self.cluster = cluster
  }
}
