import Foundation

/// An earlier play that a play of the same airing continues, as ``PlayLogStorage/reopenPlayOfSameAiring(as:retrying:)``
/// found it before reopening it.
public struct ContinuedPlay: Sendable, Equatable {
  /// The earlier play's row.
  public var id: Int64
  /// Its status before it was reopened: `recovered` (a restart cut the airing), `closed` (a gap in the input did),
  /// or `open` when a retried write finds the play it reopened before.
  public var status: PlayStatus
  /// Its end before it was reopened.
  public var end: Date

  public init(id: Int64, status: PlayStatus, end: Date) {
    self.id = id
    self.status = status
    self.end = end
  }

  /// True when the earlier play already spans `play` (which starts within it, as every continuing play does): the
  /// same audio logged a second time, as when a recording is scanned again into the same play log, not the rest of
  /// an airing that an outage cut. Compared to the millisecond, as the play log stores times.
  public func spans(_ play: PlayRecord) -> Bool { end.millisecondsSince1970 >= play.end.millisecondsSince1970 }
}
