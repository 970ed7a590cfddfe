import Foundation

/// Checks made before anything is written, so that a bad value gives a clear error instead of a NULL in a NOT NULL
/// column (SQLite stores a NaN REAL as NULL) or a play that ends before it starts.
extension PlayLogStorage {
  func validate(_ play: PlayRecord) throws {
    func refuse(_ reason: String) -> PlayLogError { .invalidPlay(reason: reason, path: path) }
    guard !play.channel.isEmpty else { throw refuse("the channel name is empty") }
    guard !play.itemKey.isEmpty else { throw refuse("the catalog item key is empty (item \"\(play.metadata.title)\")") }
    for (name, date) in [("start", play.start), ("end", play.end), ("detection time", play.detectedAt)] {
      guard Self.isStorable(date) else { throw refuse("the \(name) \(date.timeIntervalSince1970) is out of range") }
    }
    guard play.end.millisecondsSince1970 >= play.start.millisecondsSince1970 else {
      throw refuse(
        "the end \(ISO8601Millis.format(play.end)) is before the start \(ISO8601Millis.format(play.start))")
    }
    if let duration = play.itemDurationSeconds, !(duration.isFinite && duration >= 0 && duration < 1e12) {
      throw refuse("the item duration \(duration) is not a finite number of seconds ≥ 0")
    }
    try validateNumbers(refOffsetSeconds: play.refOffsetSeconds, speed: play.speed, confidence: play.confidence)
  }

  /// Checks each promoted segment's play as ``validate(_:)`` does, and that it is `late`, before a promotion writes
  /// any of them. Shared by both stores.
  /// - Returns: each play's attributes as the play log stores them (JSON), in order.
  func validateLatePlays(_ plays: [LatePlay]) throws -> [String] {
    for late in plays {
      try validate(late.play)
      guard late.play.status == .late else {
        throw PlayLogError.invalidPlay(
          reason: "a promoted segment's play has status \(late.play.status.rawValue), not late", path: path)
      }
    }
    return try plays.map { try AttributesJSON.encode($0.play.metadata.attributes) }
  }

  /// Checks that a closed alert does not end before it starts. Shared by both stores.
  func validateAlertSpan(kind: String, start: Date, end: Date) throws {
    if end.millisecondsSince1970 < start.millisecondsSince1970 {
      throw PlayLogError.invalidEvent(
        reason: "the \(kind) alert ends at \(ISO8601Millis.format(end)), before its start "
          + ISO8601Millis.format(start),
        path: path)
    }
  }

  func validateNumbers(refOffsetSeconds: Double, speed: Double, confidence: Double) throws {
    for (name, value) in [("reference offset", refOffsetSeconds), ("speed", speed), ("confidence", confidence)] {
      guard value.isFinite, abs(value) < 1e12 else {
        throw PlayLogError.invalidPlay(reason: "the \(name) \(value) is not finite or out of range", path: path)
      }
    }
  }

  /// True for a date the log can store and give back unchanged (not clamped, see `millisecondLimit`).
  private static func isStorable(_ date: Date) -> Bool {
    let milliseconds = date.timeIntervalSince1970 * 1000
    return milliseconds.isFinite && abs(milliseconds) < Double(Date.millisecondLimit)
  }
}
