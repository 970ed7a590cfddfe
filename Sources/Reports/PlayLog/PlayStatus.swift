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
}
