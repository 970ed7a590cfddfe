import Foundation

/// What the live monitor needs beyond recording: withdrawing a play the matcher retracted, closing the plays a
/// stopped monitor left open, and continuing a play when the rest of its airing is heard after a restart or a gap.
extension PlayLogStore {
  /// How far the rest of an airing may lie from the earlier play's line to be the same airing, in seconds of
  /// reference audio (at most half the item's length, see ``reopenPlayOfSameAiring(as:retrying:)``): the earlier
  /// play's reference position, carried forward at its speed to the new play's start, against the new play's
  /// reference offset (or the new play's line carried back, whichever is closer: either may be the young one). Audio
  /// heard again after an outage is placed anew (by JACK's frame time after a restart of the monitor or of jackd,
  /// or by its arrival on a stream's new connection, which starts with the server's burst of buffered audio), and a
  /// young play's first reference offset is not yet refined: in `bench/chaos.py` (30 minutes, 16 channels,
  /// SIGKILLs, jackd restarts and stream drops) the rests came back up to 1.65 s off their first parts' lines, and
  /// one young play's first offset was 2.3 s off its refined value. A second airing of the same item is a whole item
  /// length apart.
  public static let sameAiringToleranceSeconds = 3.0

  /// How long after an earlier play's last confirmed end the rest of its airing may continue it, in seconds. A
  /// restart (systemd's 2 s, loading the catalog, the matcher's first match), a jackd restart or a stream's
  /// reconnection takes well under a minute; after a longer outage the log keeps the two plays apart, so that one
  /// play never spans minutes nobody heard.
  public static let restartGapSeconds = 300.0

  /// An earlier part shorter than this (start to last confirmed end) was a young play when its airing was cut, and
  /// its line may be a repeated section's, not yet taken over by the airing's true line (the matcher's
  /// `MatcherTuning.youngPlaySeconds`, 20 s, within which a stronger line of the same track takes a play over). The
  /// rest of its airing heard after the outage may then lie a phrase away from it: in `bench/chaos.py` (seed 1, 12
  /// minutes), two SIGKILLs came 2 and 8 s after a song was first found, 9.4 and 9.9 s of reference off its true
  /// line, and the rest of each airing was logged as a second play. Seconds.
  public static let youngPartSeconds = 20.0

  /// How far the rest of a young part's airing (``youngPartSeconds``) may lie from the part's line to be the same
  /// airing, in seconds of reference, and within half the item's length: the matcher's `nearbyLineSeconds`, within
  /// which it takes a young play over. A second airing of the item is a whole item length apart, or it would overlap
  /// the first; only an item restarted from its top within that distance (a spot cut after a few seconds and begun
  /// again) is taken for one airing, as the matcher itself takes it while the first part is young. Seconds.
  public static let youngPartLineSeconds = 10.0

  /// Deletes a play that the matcher withdrew (a repeated section of a track that a stronger play explains).
  /// - Throws: ``PlayLogError/noSuchPlay(id:path:)`` for an unknown id; ``SQLiteError`` when the file cannot be
  ///   written.
  public func retract(playID: Int64) throws {
    try database.transaction {
      let deleted = try database.run("DELETE FROM plays WHERE id = ?", [.integer(playID)])
      guard deleted == 1 else { throw PlayLogError.noSuchPlay(id: playID, path: path) }
    }
  }

  /// Marks every play still `open` as `recovered`: a monitor that stopped without closing them (a crash, a power
  /// cut, SIGKILL) left them open, and their end stays the last time the match was confirmed. Call it once at start,
  /// before recording anything.
  /// - Returns: the recovered plays' ids, oldest first.
  /// - Throws: ``SQLiteError`` when the file cannot be written.
  @discardableResult
  public func recoverOpenPlays() throws -> [Int64] {
    try database.transaction {
      var ids: [Int64] = []
      try database.forEachRow("SELECT id FROM plays WHERE status = 'open' ORDER BY start_ms, id", []) { row in
        ids.append(try row.int64(0))
      }
      try database.run(
        "UPDATE plays SET status = 'recovered', updated_at_ms = ? WHERE status = 'open'", [.date(Date())])
      return ids
    }
  }

  /// Continues an earlier play instead of recording `play` as a new one, when they are one airing cut by an outage
  /// (a restart of the monitor, which left the play `recovered`, or a gap in the input, which closed it): the same
  /// item on the same channel, on the same line (within ``sameAiringToleranceSeconds``, and within half the
  /// item's length when it is known; for a young earlier part, ``youngPartSeconds``, within
  /// ``youngPartLineSeconds``), and `play` starting at most ``restartGapSeconds`` after the earlier play's end.
  /// The earlier play is `open` again (its start, reference offset and speed stay, but a young part's line, which
  /// takes `play`'s; its end moves to `play`'s end if that is later); move it on with
  /// ``extend(playID:end:confidence:status:)``. When `play` has an id (a recorded
  /// play whose line an update moved), that play itself is not a candidate.
  /// - Parameter retrying: also continue an `open` play of the same airing: a write that is retried (after an
  ///   error, or from the spool on the next start) may find the play it reopened before.
  /// - Returns: the continued play as it was (its status `closed` or `recovered`, or `open` when retrying); nil
  ///   when there is none, and nothing changed.
  /// - Throws: ``SQLiteError`` when the file cannot be written.
  public func reopenPlayOfSameAiring(as play: PlayRecord, retrying: Bool = false) throws -> ContinuedPlay? {
    let playStart = play.start.millisecondsSince1970
    let gapMilliseconds = Date.milliseconds(fromSeconds: Self.restartGapSeconds)
    return try database.transaction {
      var found: ContinuedPlay?
      var line: (referenceMilliseconds: Int64, speed: Double)?
      try database.forEachRow(
        """
        SELECT p.id, p.start_ms, p.ref_offset_ms, p.speed, p.status, p.end_ms FROM plays AS p
          JOIN channels AS c ON c.id = p.channel_id
          JOIN catalog_items AS i ON i.id = p.item_id
        WHERE c.name = ? AND i.item_key = ? AND (p.status IN ('recovered', 'closed') OR ?) AND p.start_ms <= ?
          AND p.end_ms >= ? AND p.id <> ?
        ORDER BY p.end_ms DESC, p.id DESC
        """,
        [
          .text(play.channel), .text(play.itemKey), .integer(retrying ? 1 : 0), .integer(playStart),
          .integer(playStart - gapMilliseconds), .integer(play.id ?? -1),
        ]
      ) { row in
        guard found == nil,
          let airing = Self.sameAiring(
            play, earlierStartMilliseconds: try row.int64(1), earlierReferenceMilliseconds: try row.int64(2),
            earlierSpeed: try row.double(3), earlierEndMilliseconds: try row.int64(5))
        else { return }
        guard let status = PlayStatus(rawValue: try row.string(4)) else { return }
        found = ContinuedPlay(id: try row.int64(0), status: status, end: try row.date(5))
        if airing == .fromYoungPart { line = Self.line(of: play, carriedBackTo: try row.int64(1)) }
      }
      guard let found else { return nil }
      try database.run(
        """
        UPDATE plays SET status = 'open', end_ms = max(end_ms, ?), updated_at_ms = ?,
          ref_offset_ms = coalesce(?, ref_offset_ms), speed = coalesce(?, speed)
        WHERE id = ?
        """,
        [
          .date(play.end), .date(Date()), .integer(line?.referenceMilliseconds), line.map { .real($0.speed) } ?? .null,
          .integer(found.id),
        ])
      return found
    }
  }

  /// True when `play` is the rest of `earlier`'s airing, by the rule of ``reopenPlayOfSameAiring(as:retrying:)``:
  /// the same channel and item, `earlier` starting no later and ending at most ``restartGapSeconds`` before `play`
  /// starts, and `play` on its line. The live monitor's channel status applies it to the plays it lists, so that
  /// the rest of an airing is not counted as a play of its own there either.
  package static func continuesAiring(_ play: PlayRecord, of earlier: PlayRecord) -> Bool {
    let playStart = play.start.millisecondsSince1970
    let earlierStart = earlier.start.millisecondsSince1970
    return play.channel == earlier.channel && play.itemKey == earlier.itemKey && earlierStart <= playStart
      && earlier.end.millisecondsSince1970 >= playStart - Date.milliseconds(fromSeconds: restartGapSeconds)
      && sameAiring(
        play, earlierStartMilliseconds: earlierStart,
        earlierReferenceMilliseconds: Date.milliseconds(fromSeconds: earlier.refOffsetSeconds),
        earlierSpeed: earlier.speed, earlierEndMilliseconds: earlier.end.millisecondsSince1970) != nil
  }

  /// How a play continues an earlier part of its airing (``sameAiring(_:earlierStartMilliseconds:earlierReferenceMilliseconds:earlierSpeed:earlierEndMilliseconds:)``).
  enum SameAiring: Equatable {
    /// On the earlier part's line.
    case onLine
    /// Near a young earlier part's line (``youngPartSeconds``), which the play's line replaces.
    case fromYoungPart
  }

  /// `play`'s line carried back to `startMilliseconds`: the reference offset there, not below 0, and its speed.
  static func line(of play: PlayRecord, carriedBackTo startMilliseconds: Int64) -> (
    referenceMilliseconds: Int64, speed: Double
  ) {
    let elapsed = Double(play.start.millisecondsSince1970 - startMilliseconds)
    let reference = play.refOffsetSeconds * 1000 - elapsed * play.speed
    return (max(0, Int64(reference.rounded())), play.speed)
  }

  /// Whether `play` continues an earlier play of its item (that started at `earlierStartMilliseconds` at
  /// `earlierReferenceMilliseconds` into the item, at `earlierSpeed`, and was last confirmed at
  /// `earlierEndMilliseconds`), and how: on its line, within ``sameAiringToleranceSeconds``; or, when the earlier
  /// part is young (``youngPartSeconds``) and the item's length known, near it, within ``youngPartLineSeconds``;
  /// either within half the item's length. Nil when neither. Shared by both stores.
  static func sameAiring(
    _ play: PlayRecord, earlierStartMilliseconds rowStart: Int64, earlierReferenceMilliseconds: Int64,
    earlierSpeed rowSpeed: Double, earlierEndMilliseconds rowEnd: Int64
  ) -> SameAiring? {
    let halfLengthSeconds = play.itemDurationSeconds.map { $0 > 0 ? $0 / 2 : Double.infinity } ?? .infinity
    let playReference = play.refOffsetSeconds * 1000
    let rowReference = Double(earlierReferenceMilliseconds)
    let elapsed = Double(play.start.millisecondsSince1970 - rowStart)
    let offRowLine = abs(playReference - (rowReference + elapsed * rowSpeed)) / rowSpeed
    let offPlayLine = abs(rowReference - (playReference - elapsed * play.speed)) / play.speed
    let offMilliseconds = min(offRowLine, offPlayLine)
    if offMilliseconds <= min(sameAiringToleranceSeconds, halfLengthSeconds) * 1000 { return .onLine }
    let young = Double(rowEnd - rowStart) < youngPartSeconds * 1000
    if young && halfLengthSeconds.isFinite && offMilliseconds <= min(youngPartLineSeconds, halfLengthSeconds) * 1000 {
      return .fromYoungPart
    }
    return nil
  }

  /// Moves on a play continued by ``reopenPlayOfSameAiring(as:retrying:)``: its end (when given), its
  /// confidence (the higher of the two) and its status. Its start, reference offset and speed stay those of the
  /// airing's first part.
  /// - Throws: ``PlayLogError/noSuchPlay(id:path:)`` for an unknown id; ``PlayLogError/invalidPlay(reason:path:)``
  ///   for an end before the play's start or a confidence that is not finite; ``SQLiteError`` when the file cannot
  ///   be written.
  public func extend(playID: Int64, end: Date?, confidence: Double?, status: PlayStatus) throws {
    try validateNumbers(refOffsetSeconds: 0, speed: 1, confidence: confidence ?? 0)
    try database.transaction {
      guard let row = try database.firstRow("SELECT start_ms FROM plays WHERE id = ?", [.integer(playID)]) else {
        throw PlayLogError.noSuchPlay(id: playID, path: path)
      }
      let start = try row.int64(0)
      if let end, end.millisecondsSince1970 < start {
        throw PlayLogError.invalidPlay(
          reason: "new end \(ISO8601Millis.format(end)) of play \(playID) is before its start "
            + ISO8601Millis.format(Date(millisecondsSince1970: start)),
          path: path)
      }
      try database.run(
        """
        UPDATE plays SET end_ms = coalesce(?, end_ms), confidence = max(confidence, coalesce(?, confidence)),
          status = ?, updated_at_ms = ?
        WHERE id = ?
        """,
        [.date(end), confidence.map { .real($0) } ?? .null, .text(status.rawValue), .date(Date()), .integer(playID)])
    }
  }
}
