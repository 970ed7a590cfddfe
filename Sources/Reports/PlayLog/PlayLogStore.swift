import Foundation

/// The play log: an SQLite file that records every play the monitor hears, with a mirror of each item's catalog
/// metadata (so reports work without the catalog file) and the events that explain gaps.
///
/// Every write is one transaction, synced to disk before it returns (see ``SQLiteDatabase``), so a play that was
/// recorded survives a crash or a power cut.
///
/// Thread: one thread at a time — the monitor's single play-log writer thread. A store is not Sendable and must
/// not be shared between threads without external serialization. A report that runs on another thread opens its
/// own `PlayLogStore` on the same file: the file is in WAL mode, so it reads without blocking the writer.
public final class PlayLogStore {
  /// The file, as given to ``init(path:)``.
  public let path: String
  let database: SQLiteDatabase

  /// Opens the play log at `path` (creating it, but not its folder), or an in-memory log for ":memory:", and
  /// brings its schema up to date.
  /// - Throws: ``SQLiteError`` when the file cannot be opened or written; ``MigrationError`` when it was written
  ///   by a newer version of broadcast-monitor; ``ForeignDatabaseError`` when it is another program's database.
  public init(path: String) throws {
    self.path = path
    // Another program's database is refused before the open below switches its journal to write-ahead logging.
    if let tables = SQLiteDatabase.tableNames(inExistingFile: path),
      let foreign = ForeignDatabaseError(path: path, databaseName: "play log", tables: tables)
    {
      throw foreign
    }
    database = try SQLiteDatabase(path: path, name: "play log")
    try Migrations.playLog.apply(to: database)
  }

  /// A play log that opens on first use, for `run` started while the file cannot be opened (a disk so full that
  /// SQLite cannot create its files): every call tries again, throwing the open's ``SQLiteError`` until it opens,
  /// and the schema is brought up to date when it does.
  public init(openingLater path: String) {
    self.path = path
    database = SQLiteDatabase(openingLater: path, name: "play log") { try Migrations.playLog.apply(to: $0) }
  }

  /// What the writer should log since the last call: a file deleted while in use and written back
  /// (`SQLiteDatabase+Restore`).
  public func takeNotices() -> [String] { database.takeNotices() }

  /// Closes the file. Further calls throw. (Dropping the store closes it too, without reporting errors.)
  public func close() throws {
    try database.close()
  }

  /// Records a play: adds its channel and the catalog item's metadata if new (updating the metadata if the
  /// catalog changed it), then the play, all in one transaction.
  /// - Returns: the play's id, for ``update(playID:end:refOffsetSeconds:speed:confidence:status:)``.
  /// - Throws: ``PlayLogError/invalidPlay(reason:path:)`` for an empty channel or item key, an end before the
  ///   start, or a number that is not finite; ``SQLiteError`` when the file cannot be written.
  @discardableResult
  public func record(_ play: PlayRecord) throws -> Int64 {
    try validate(play)
    let attributesJSON = try AttributesJSON.encode(play.metadata.attributes)
    return try database.transaction { try insert(play, attributesJSON: attributesJSON) }
  }

  /// Records `plays` in one transaction, synced once: all of them or, when one is refused or the file cannot be
  /// written, none. The same checks and SQL as ``record(_:)``, for imports and generated logs (the benchmark); the
  /// monitor records each play in its own transaction as it is heard.
  /// - Returns: the plays' ids, in order.
  @discardableResult
  public func record(contentsOf plays: [PlayRecord]) throws -> [Int64] {
    var attributes: [[String: String]: String] = [:]
    var encoded: [String] = []
    encoded.reserveCapacity(plays.count)
    for play in plays {
      try validate(play)
      if let known = attributes[play.metadata.attributes] {
        encoded.append(known)
      } else {
        let json = try AttributesJSON.encode(play.metadata.attributes)
        attributes[play.metadata.attributes] = json
        encoded.append(json)
      }
    }
    return try database.transaction {
      try zip(plays, encoded).map { try insert($0, attributesJSON: $1) }
    }
  }

  /// Inserts one play (and its channel and item, if new) inside the caller's transaction; returns its id.
  func insert(_ play: PlayRecord, attributesJSON: String) throws -> Int64 {
    let channelRowID = try channelID(named: play.channel)
    let itemRowID = try catalogItemID(for: play, attributesJSON: attributesJSON)
    try database.run(
      """
      INSERT INTO plays(channel_id, item_id, start_ms, end_ms, ref_offset_ms, speed, confidence, detected_at_ms,
        status, updated_at_ms)
      VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .integer(channelRowID), .integer(itemRowID), .date(play.start), .date(play.end),
        .integer(Date.milliseconds(fromSeconds: play.refOffsetSeconds)), .real(play.speed),
        .real(play.confidence), .date(play.detectedAt), .text(play.status.rawValue), .date(Date()),
      ])
    return database.lastInsertRowID
  }

  /// Moves a recorded play's end and refreshes its match values and status (an open play as it goes on, then
  /// closed; or recovered after a crash). With `start`, the play's start moves too: the matcher refines a start
  /// after it first reports the play (more matches, or the play moved from a repeated section to the track's
  /// opening), and the log keeps the refined one.
  /// - Throws: ``PlayLogError/noSuchPlay(id:path:)`` for an unknown id; ``PlayLogError/invalidPlay(reason:path:)``
  ///   for an end before the play's start or a number that is not finite; ``SQLiteError`` when the file cannot be
  ///   written.
  public func update(
    playID: Int64, start newStart: Date? = nil, end: Date, refOffsetSeconds: Double, speed: Double,
    confidence: Double, status: PlayStatus
  ) throws {
    try validateNumbers(refOffsetSeconds: refOffsetSeconds, speed: speed, confidence: confidence)
    try database.transaction {
      guard let row = try database.firstRow("SELECT start_ms FROM plays WHERE id = ?", [.integer(playID)]) else {
        throw PlayLogError.noSuchPlay(id: playID, path: path)
      }
      let start = try newStart?.millisecondsSince1970 ?? row.int64(0)
      guard end.millisecondsSince1970 >= start else {
        throw PlayLogError.invalidPlay(
          reason: "new end \(ISO8601Millis.format(end)) of play \(playID) is before its start "
            + ISO8601Millis.format(Date(millisecondsSince1970: start)),
          path: path)
      }
      try database.run(
        """
        UPDATE plays SET start_ms = ?, end_ms = ?, ref_offset_ms = ?, speed = ?, confidence = ?, status = ?,
          updated_at_ms = ?
        WHERE id = ?
        """,
        [
          .integer(start), .date(end), .integer(Date.milliseconds(fromSeconds: refOffsetSeconds)), .real(speed),
          .real(confidence), .text(status.rawValue), .date(Date()), .integer(playID),
        ])
    }
  }

  /// The id of the channel called `name`, adding it if new. Runs inside the caller's transaction.
  func channelID(named name: String) throws -> Int64 {
    try database.run("INSERT INTO channels(name) VALUES(?) ON CONFLICT(name) DO NOTHING", [.text(name)])
    guard let row = try database.firstRow("SELECT id FROM channels WHERE name = ?", [.text(name)]) else {
      preconditionFailure("channel \(name) is missing right after its insert")
    }
    return try row.int64(0)
  }

  /// The id of the play's catalog item, adding it if new and updating its metadata if it changed (a known
  /// duration is kept when the play does not give one). Runs inside the caller's transaction.
  private func catalogItemID(for play: PlayRecord, attributesJSON: String) throws -> Int64 {
    let durationMilliseconds = play.itemDurationSeconds.map(Date.milliseconds(fromSeconds:))
    try database.run(
      """
      INSERT INTO catalog_items(item_key, title, artist, album, isrc, label, kind, attributes_json, duration_ms)
      VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(item_key) DO UPDATE SET
        title = excluded.title, artist = excluded.artist, album = excluded.album, isrc = excluded.isrc,
        label = excluded.label, kind = excluded.kind, attributes_json = excluded.attributes_json,
        duration_ms = coalesce(excluded.duration_ms, catalog_items.duration_ms)
      WHERE catalog_items.title IS NOT excluded.title OR catalog_items.artist IS NOT excluded.artist
        OR catalog_items.album IS NOT excluded.album OR catalog_items.isrc IS NOT excluded.isrc
        OR catalog_items.label IS NOT excluded.label OR catalog_items.kind IS NOT excluded.kind
        OR catalog_items.attributes_json IS NOT excluded.attributes_json
        OR (excluded.duration_ms IS NOT NULL AND catalog_items.duration_ms IS NOT excluded.duration_ms)
      """,
      [
        .text(play.itemKey), .text(play.metadata.title), .text(play.metadata.artist), .text(play.metadata.album),
        .text(play.metadata.isrc), .text(play.metadata.label), .text(play.metadata.kind.rawValue),
        .text(attributesJSON),
        .integer(durationMilliseconds),
      ])
    guard let row = try database.firstRow("SELECT id FROM catalog_items WHERE item_key = ?", [.text(play.itemKey)])
    else {
      preconditionFailure("catalog item \(play.itemKey) is missing right after its upsert")
    }
    return try row.int64(0)
  }
}

@available(*, unavailable, message: "a PlayLogStore is used by one thread at a time: open one per thread")
extension PlayLogStore: Sendable {}
