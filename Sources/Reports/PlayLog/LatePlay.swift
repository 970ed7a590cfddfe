/// The play an unknown segment becomes when its cluster is added to the catalog: the segment's row id and the play
/// (status `late`).
///
/// A value type: safe to pass between threads.
public struct LatePlay: Sendable, Equatable {
  public var segmentID: Int64
  public var play: PlayRecord

  public init(segmentID: Int64, play: PlayRecord) {
    self.segmentID = segmentID
    self.play = play
  }
}
