/// Where a play is in its life in the play log.
///
/// A value type: safe to pass between threads.
public enum PlayStatus: String, Sendable, CaseIterable, Codable {
  /// Still on air: its end is the latest time the match was confirmed, and will move.
  case open
  /// Finished: its end is final.
  case closed
  /// Left open by a monitor that stopped (crash, power cut) and closed on restart: its end is the last time the
  /// match was confirmed, and the play may have lasted longer.
  case recovered
  /// Identified after it aired: an unknown segment whose cluster was later added to the catalog
  /// (`catalog add --from-unknown`). Its start and end are the segment's, final; the play log keeps when it was
  /// identified (`identified_at_ms`).
  case late

  /// True when the play's end is where it stopped on air (closed, or identified late), not a last confirmation.
  package var hasFinalEnd: Bool { self == .closed || self == .late }
}
