import Foundation

/// The play log in PostgreSQL, for a deployment of several monitors (nodes) that write one log: the same schema and
/// migrations as the SQLite ``PlayLogStore`` (`Migrations+PostgreSQL.swift`), the same writes, and the node's lease.
///
/// **Nodes.** A store belongs to one node (`--node`, by default the host name). While it is open, its session
/// holds the node's advisory lock, so a second monitor that starts as the same node is refused, and the server
/// frees the lock by itself when the node's session ends (a clean stop, a crash, SIGKILL, a power cut: the
/// server sees the connection close, or its TCP keepalive gives up). ``claim(channels:)`` records the node as the
/// owner of its channels (`channel_owners`); a channel that another node owns is refused while that node's lock is
/// held, and taken over once it is free. After a lost connection, the next call opens it again and takes the lock
/// back first. Recovery (``recoverOpenPlays()``) touches only the node's own open plays (`plays.node`); a channel
/// taken over from a node whose session ended brings the plays that node left open there, recovered by the claim,
/// so that the rest of an airing continues its play, and that node's writes of them are refused if it comes back.
///
/// **A start without the server.** ``init(startingWithoutServer:node:passwordFile:channels:)`` opens a store whose
/// server cannot be reached yet: its first write connects, brings the schema up to date, takes the node's lease and
/// claims the channels, and until then every call throws a connection-lost ``PostgreSQLError`` (the writer keeps
/// the plays in its spool). The channels' uniqueness cannot be checked while the server is down, so the node starts
/// them all and checks on connecting: a channel that another live node holds by then is refused
/// (``refusedChannels``, ``onChannelsRefused``), and every write of it throws
/// ``PlayLogNodeError/channelHeld(channel:node:url:)``, so that the plays this node heard on it meanwhile are not
/// written beside the other node's. The same check runs after every lost connection, since another node may take
/// a channel whose owner's session ended in the outage.
///
/// **Retries.** A call that fails because the server went away throws a ``PostgreSQLError`` whose
/// `isConnectionLost` is true; the play log writer keeps the command in its spool and retries it, and the
/// `recorded…ID` lookups find what a failed attempt had committed, so nothing is written twice.
///
/// Thread: one thread at a time — the monitor's play log writer thread.
public final class PostgreSQLPlayLogStore: PlayLogStorage {
  /// The URL, as given (without a password).
  public let path: String
  /// The node this store writes as.
  public let node: String
  let connection: PostgreSQLConnection
  private var claimedChannels: [String] = []
  /// Channels a reload removed whose ownership is not given up yet (the server could not be reached).
  private var releasedChannels: Set<String> = []
  /// The schema is up to date (the migrations ran on this server).
  private var isMigrated = false
  /// The channels this node claimed that another live node held when it connected, with that node.
  public private(set) var refusedChannels: [String: String] = [:]
  /// Told the errors of channels newly refused on connecting (on the thread that writes). Their writes throw.
  public var onChannelsRefused: (([PlayLogNodeError]) -> Void)?
  /// The channels taken over from nodes whose sessions had ended, said as the writer logs them (``takeNotices()``).
  private var notices: [String] = []

  /// Opens the play log at `url`, brings its schema up to date, and takes the lease of `node`.
  /// - Parameter passwordFile: a file holding the password (`database.passwordFile`); without it libpq reads
  ///   `PGPASSWORD` or `~/.pgpass`.
  /// - Throws: ``PostgreSQLError`` when the server cannot be reached; ``MigrationError`` for a log written by a
  ///   newer version; ``PlayLogNodeError/nodeRunning(node:url:)`` when another monitor runs as `node`.
  /// - Parameter leaseWaitSeconds: how long to wait for the node's lease when another session holds it: the
  ///   session of a node that was just killed ends a moment later, when the server sees its connection close.
  /// - Parameter existingOnly: a database without a play log is refused (``PostgreSQLError``) instead of given one:
  ///   a command that only changes a play log (`db retire`) creates none in a mistyped database.
  public init(
    url: String, node: String, passwordFile: String? = nil, leaseWaitSeconds: Double = defaultLeaseWaitSeconds,
    existingOnly: Bool = false
  ) throws {
    path = url
    self.node = node
    connection = try PostgreSQLConnection(url: url, passwordFile: passwordFile)
    if existingOnly { try Migrations.playLog.requirePlayLog(in: connection) }
    try Migrations.playLog.apply(to: connection)
    try takeNodeLease(waitSeconds: leaseWaitSeconds)
    isMigrated = true
    connection.onReconnect = { [unowned self] in try self.connected() }
  }

  /// Opens the play log at `url` for node `node` and its `channels`, whether or not the server can be reached now:
  /// the first call that needs it connects, migrates, takes the lease and claims `channels` (see the type's
  /// comment).
  /// - Throws: ``PostgreSQLError`` whose `isLoginRefused` is true when the server is up and refuses the login
  ///   (user, password, database); ``MigrationError``, ``PlayLogNodeError`` or a ``PostgreSQLError`` when the server
  ///   is up and refuses the node or a channel, as the other initializer and ``claim(channels:waitSeconds:)`` do.
  /// - Parameter waitingForHeldChannels: a channel that another live node holds is refused (``refusedChannels``)
  ///   instead of throwing, as on connecting: the node stands by for it (``freedChannels()``).
  public init(
    startingWithoutServer url: String, node: String, passwordFile: String? = nil, channels: [String],
    leaseWaitSeconds: Double = defaultLeaseWaitSeconds, waitingForHeldChannels: Bool = false
  ) throws {
    path = url
    self.node = node
    connection = try PostgreSQLConnection(url: url, passwordFile: passwordFile, waitingForServer: true)
    claimedChannels = channels
    connection.onReconnect = { [unowned self] in try self.connected() }
    guard connection.isOpen else { return }
    try Migrations.playLog.apply(to: connection)
    isMigrated = true
    try takeNodeLease(waitSeconds: leaseWaitSeconds)
    if waitingForHeldChannels {
      try settleChannels(recordingTakeovers: false)
    } else {
      try claim(channels: channels, waitSeconds: leaseWaitSeconds)
    }
  }

  /// Runs when the connection was opened (again): the schema on the first, then the node's lease and its channels.
  private func connected() throws {
    // The first connection of a node started without its server: its start's recovery, which follows, writes the
    // downtime of the channels it takes over, up to its start.
    let first = !isMigrated
    if !isMigrated {
      try Migrations.playLog.apply(to: connection)
      isMigrated = true
    }
    try takeNodeLease()
    try settleChannels(recordingTakeovers: !first)
  }

  /// The channels this node listens to now, after a reload: each is claimed as on connecting (one that another
  /// live node holds is refused: ``refusedChannels``, ``onChannelsRefused``, and its writes throw; one refused
  /// before, which the monitor stopped and the reload starts again, is tried again), and those removed are given
  /// up, so that another node may take them at its start. While the server cannot be reached, the next connection
  /// does both. A channel it takes over from a node whose session ended gets that node's downtime there, as a start
  /// would write it (``recordDowntime(ofChannel:takenFrom:at:)``).
  /// - Throws: a ``PostgreSQLError`` when the server cannot be reached.
  public func listen(to channels: [String]) throws {
    let removed = claimedChannels.filter { !channels.contains($0) }
    refusedChannels = [:]
    releasedChannels.formUnion(removed)
    releasedChannels.subtract(channels)
    claimedChannels = channels
    try settleChannels(recordingTakeovers: true)
  }

  /// The channels refused to this node whose holders' sessions have ended since (one lease probe each): a reload
  /// that listens to them again (``listen(to:)``) takes them over.
  /// - Throws: a ``PostgreSQLError`` when the server cannot be reached.
  public func freedChannels() throws -> [String] {
    try refusedChannels.sorted { $0.key < $1.key }.filter { try leaseIsFree(of: $0.value) }.map(\.key)
  }

  /// Gives up the channels released, and claims each listed channel not refused yet, reporting those another live
  /// node holds. With `recordingTakeovers`, a channel taken over gets its previous node's downtime until now (a
  /// reload's, also one made while the server could not be reached, whose gap then ends when this node connects);
  /// without (the first connection of a node started without its server), the start's recovery writes it
  /// (``recoverDowntime(channels:at:)``).
  private func settleChannels(recordingTakeovers: Bool) throws {
    for channel in releasedChannels.sorted() {
      try connection.query(
        "DELETE FROM channel_owners WHERE node = $1 AND channel_id IN (SELECT id FROM channels WHERE name = $2)",
        [.text(node), .text(channel)])
      releasedChannels.remove(channel)
    }
    var refused: [PlayLogNodeError] = []
    for channel in claimedChannels where refusedChannels[channel] == nil {
      do {
        try claim(channel, recordingTakeoverAt: recordingTakeovers ? Date() : nil)
      } catch let error as PlayLogNodeError {
        guard case .channelHeld(_, let owner, _) = error else { throw error }
        refusedChannels[channel] = owner
        refused.append(error)
      }
    }
    if !refused.isEmpty { onChannelsRefused?(refused) }
  }

  private func takeNodeLease(waitSeconds: Double) throws {
    let deadline = Date().addingTimeInterval(waitSeconds)
    while true {
      do {
        try takeNodeLease()
        return
      } catch let error as PlayLogNodeError where Date() < deadline {
        _ = error
        usleep(50_000)
      }
    }
  }

  /// How long a starting node waits for its lease by default, in seconds: a restart by systemd comes 2 s after
  /// the crash, and the server ends a killed node's session within milliseconds of the kernel closing its socket
  /// (on a lost network, only after TCP keepalive gives up: the refusal then names the node).
  public static let defaultLeaseWaitSeconds = 10.0

  public func close() throws { connection.close() }

  /// The advisory lock key of node `name`.
  private static let leaseKeySQL = "hashtextextended('broadcast-monitor node ' || $1::text, 0)"

  private func takeNodeLease() throws {
    let row = try connection.query("SELECT pg_try_advisory_lock(\(Self.leaseKeySQL))", [.text(node)])
    guard try row.first?.string(0) == "t" else { throw PlayLogNodeError.nodeRunning(node: node, url: path) }
  }

  /// Whether `node`'s lease is free: no session holds its lock, so the node is not running. A node is alive while
  /// its session holds its lock: this takes it, and gives it back at once.
  package func leaseIsFree(of node: String) throws -> Bool {
    let free = try connection.query("SELECT pg_try_advisory_lock(\(Self.leaseKeySQL))", [.text(node)])
    guard try free.first?.string(0) == "t" else { return false }
    try connection.query("SELECT pg_advisory_unlock(\(Self.leaseKeySQL))", [.text(node)])
    return true
  }

  /// Records this node as the owner of `channels`, each in its own transaction.
  /// - Parameter waitSeconds: how long to wait for a channel whose owner's lease is held (its session may be
  ///   ending, as for the node's own lease).
  /// - Throws: ``PlayLogNodeError/channelHeld(channel:node:url:)`` for a channel another live node owns.
  public func claim(channels: [String], waitSeconds: Double = defaultLeaseWaitSeconds) throws {
    let deadline = Date().addingTimeInterval(waitSeconds)
    for channel in channels {
      while true {
        do {
          try claim(channel)
          break
        } catch let error as PlayLogNodeError where Date() < deadline {
          _ = error
          usleep(50_000)
        }
      }
      if !claimedChannels.contains(channel) { claimedChannels.append(channel) }
    }
  }

  /// Claims `channel` in one transaction. Taking it over from a node whose session ended recovers that node's open
  /// plays there, and with `recordingTakeoverAt`, records its downtime there until then.
  private func claim(_ channel: String, recordingTakeoverAt takeover: Date? = nil) throws {
    let previous = try connection.transaction { () throws -> String? in
      let channelRowID = try anyChannelID(named: channel)
      let inserted = try connection.query(
        """
        INSERT INTO channel_owners(channel_id, node, since_ms) VALUES($1, $2, $3) ON CONFLICT DO NOTHING
        RETURNING channel_id
        """, [.integer(channelRowID), .text(node), .date(Date())])
      let owner = try connection.query(
        "SELECT node FROM channel_owners WHERE channel_id = $1 FOR UPDATE", [.integer(channelRowID)])[0].string(0)
      guard owner != node else {
        // A channel no node held (its node stopped cleanly, or was retired) whose gap is still open: it ends as this
        // node starts monitoring it. A start's recovery does that for the channels it starts with.
        if !inserted.isEmpty, let takeover { try endOpenGap(ofChannel: channelRowID, at: takeover) }
        return nil
      }
      guard try leaseIsFree(of: owner) else {
        throw PlayLogNodeError.channelHeld(channel: channel, node: owner, url: path)
      }
      try connection.query(
        "UPDATE channel_owners SET node = $2, since_ms = $3 WHERE channel_id = $1",
        [.integer(channelRowID), .text(node), .date(Date())])
      // The node that held it ended (killed, crashed, or cut off from the server) with plays open on it: they are
      // recovered here, as its own restart would recover them, so that the rest of an airing this node hears
      // continues its play (one airing, one play). That node's later writes of them are refused
      // (`refuseWritesOfHeldChannel`).
      try connection.query(
        """
        UPDATE plays SET status = 'recovered', updated_at_ms = $3
        WHERE channel_id = $1 AND node = $2 AND status = 'open'
        """,
        [.integer(channelRowID), .text(owner), .date(Date())])
      if let takeover { try recordDowntime(ofChannel: channelRowID, takenFrom: owner, at: takeover) }
      return owner
    }
    guard let previous else { return }
    notices.append(
      "channel \(channel) taken over from node \(previous), whose session had ended (killed, crashed, or cut off "
        + "from the server): its plays left open there are marked recovered"
        + (takeover == nil ? "" : ", and its downtime there is written as a gap from its last heartbeat"))
  }

  /// The channels taken over since the last call, as the play log writer logs them.
  public func takeNotices() -> [String] {
    defer { notices.removeAll() }
    return notices
  }

  @discardableResult
  public func record(_ play: PlayRecord) throws -> Int64 {
    try validate(play)
    let attributesJSON = try AttributesJSON.encode(play.metadata.attributes)
    return try connection.transaction { try insert(play, attributesJSON: attributesJSON) }
  }

  /// Records `plays` in one transaction (imports, `db copy`, the benchmark); returns their ids in order.
  @discardableResult
  public func record(contentsOf plays: [PlayRecord]) throws -> [Int64] {
    for play in plays { try validate(play) }
    let encoded = try plays.map { try AttributesJSON.encode($0.metadata.attributes) }
    return try connection.transaction { try zip(plays, encoded).map { try insert($0, attributesJSON: $1) } }
  }

  func insert(_ play: PlayRecord, attributesJSON: String) throws -> Int64 {
    let channelRowID = try channelID(named: play.channel)
    let itemRowID = try catalogItemID(for: play, attributesJSON: attributesJSON)
    return try connection.query(
      """
      INSERT INTO plays(channel_id, item_id, start_ms, end_ms, ref_offset_ms, speed, confidence, detected_at_ms,
        status, updated_at_ms, node)
      VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id
      """,
      [
        .integer(channelRowID), .integer(itemRowID), .date(play.start), .date(play.end),
        .integer(Date.milliseconds(fromSeconds: play.refOffsetSeconds)), .real(play.speed),
        .real(play.confidence), .date(play.detectedAt), .text(play.status.rawValue), .date(Date()), .text(node),
      ])[0].int64(0)
  }

  public func update(
    playID: Int64, start newStart: Date?, end: Date, refOffsetSeconds: Double, speed: Double, confidence: Double,
    status: PlayStatus
  ) throws {
    try validateNumbers(refOffsetSeconds: refOffsetSeconds, speed: speed, confidence: confidence)
    try connection.transaction {
      try refuseWritesOfHeldChannel(play: playID)
      let start = try newStart?.millisecondsSince1970 ?? startMilliseconds(ofPlay: playID)
      guard end.millisecondsSince1970 >= start else {
        throw PlayLogError.invalidPlay(
          reason: "new end \(ISO8601Millis.format(end)) of play \(playID) is before its start "
            + ISO8601Millis.format(Date(millisecondsSince1970: start)),
          path: path)
      }
      let updated = try connection.query(
        """
        UPDATE plays SET start_ms = $1, end_ms = $2, ref_offset_ms = $3, speed = $4, confidence = $5, status = $6,
          updated_at_ms = $7
        WHERE id = $8 RETURNING id
        """,
        [
          .integer(start), .date(end), .integer(Date.milliseconds(fromSeconds: refOffsetSeconds)), .real(speed),
          .real(confidence), .text(status.rawValue), .date(Date()), .integer(playID),
        ])
      guard !updated.isEmpty else { throw PlayLogError.noSuchPlay(id: playID, path: path) }
    }
  }

  private func startMilliseconds(ofPlay playID: Int64) throws -> Int64 {
    guard let row = try connection.query("SELECT start_ms FROM plays WHERE id = $1", [.integer(playID)]).first
    else { throw PlayLogError.noSuchPlay(id: playID, path: path) }
    return try row.int64(0)
  }

  public func retract(playID: Int64) throws {
    try refuseWritesOfHeldChannel(play: playID)
    let deleted = try connection.query("DELETE FROM plays WHERE id = $1 RETURNING id", [.integer(playID)])
    guard !deleted.isEmpty else { throw PlayLogError.noSuchPlay(id: playID, path: path) }
  }

  /// Marks this node's `open` plays `recovered` (other nodes' running plays stay open).
  @discardableResult
  public func recoverOpenPlays() throws -> [Int64] {
    let rows = try connection.query(
      """
      UPDATE plays SET status = 'recovered', updated_at_ms = $2 WHERE status = 'open' AND node = $1
      RETURNING id, start_ms
      """, [.text(node), .date(Date())])
    return try rows.map { (try $0.int64(1), try $0.int64(0)) }.sorted { $0 < $1 }.map(\.1)
  }

  public func reopenPlayOfSameAiring(as play: PlayRecord, retrying: Bool) throws -> ContinuedPlay? {
    try refuseIfHeld(play.channel)
    let playStart = play.start.millisecondsSince1970
    let gapMilliseconds = Date.milliseconds(fromSeconds: PlayLogStore.restartGapSeconds)
    return try connection.transaction {
      let rows = try connection.query(
        """
        SELECT p.id, p.start_ms, p.ref_offset_ms, p.speed, p.status, p.end_ms FROM plays AS p
          JOIN channels AS c ON c.id = p.channel_id
          JOIN catalog_items AS i ON i.id = p.item_id
        WHERE c.name = $1 AND i.item_key = $2 AND (p.status IN ('recovered', 'closed') OR $3::boolean)
          AND p.start_ms <= $4 AND p.end_ms >= $5 AND p.id <> $6
        ORDER BY p.end_ms DESC, p.id DESC
        FOR UPDATE OF p
        """,
        [
          .text(play.channel), .text(play.itemKey), .boolean(retrying), .integer(playStart),
          .integer(playStart - gapMilliseconds), .integer(play.id ?? -1),
        ])
      for row in rows {
        guard
          let airing = PlayLogStore.sameAiring(
            play, earlierStartMilliseconds: try row.int64(1), earlierReferenceMilliseconds: try row.int64(2),
            earlierSpeed: try row.double(3), earlierEndMilliseconds: try row.int64(5)),
          let status = PlayStatus(rawValue: try row.string(4))
        else { continue }
        let id = try row.int64(0)
        let line = airing == .fromYoungPart ? PlayLogStore.line(of: play, carriedBackTo: try row.int64(1)) : nil
        try connection.query(
          """
          UPDATE plays SET status = 'open', end_ms = GREATEST(end_ms, $1), updated_at_ms = $2,
            ref_offset_ms = coalesce($3::bigint, ref_offset_ms), speed = coalesce($4::double precision, speed)
          WHERE id = $5
          """,
          [
            .date(play.end), .date(Date()), .integer(line?.referenceMilliseconds),
            line.map { .real($0.speed) } ?? .null, .integer(id),
          ])
        return ContinuedPlay(id: id, status: status, end: try row.date(5))
      }
      return nil
    }
  }

  public func extend(playID: Int64, end: Date?, confidence: Double?, status: PlayStatus) throws {
    try validateNumbers(refOffsetSeconds: 0, speed: 1, confidence: confidence ?? 0)
    try connection.transaction {
      try refuseWritesOfHeldChannel(play: playID)
      let start = try startMilliseconds(ofPlay: playID)
      if let end, end.millisecondsSince1970 < start {
        throw PlayLogError.invalidPlay(
          reason: "new end \(ISO8601Millis.format(end)) of play \(playID) is before its start "
            + ISO8601Millis.format(Date(millisecondsSince1970: start)),
          path: path)
      }
      try connection.query(
        """
        UPDATE plays SET end_ms = coalesce($1::bigint, end_ms),
          confidence = GREATEST(confidence, coalesce($2::double precision, confidence)), status = $3,
          updated_at_ms = $4
        WHERE id = $5
        """,
        [.date(end), confidence.map { .real($0) } ?? .null, .text(status.rawValue), .date(Date()), .integer(playID)])
    }
  }

  public func recordedPlayID(matching play: PlayRecord, startMayHaveMoved: Bool) throws -> Int64? {
    try connection.query(
      """
      SELECT p.id FROM plays AS p
        JOIN channels AS c ON c.id = p.channel_id
        JOIN catalog_items AS i ON i.id = p.item_id
      WHERE c.name = $1 AND (p.start_ms = $2 OR $3::boolean) AND i.item_key = $4 AND p.detected_at_ms = $5
      ORDER BY p.start_ms = $2 DESC, p.id
      LIMIT 1
      """,
      [
        .text(play.channel), .date(play.start), .boolean(startMayHaveMoved), .text(play.itemKey),
        .date(play.detectedAt),
      ]
    ).first.map { try $0.int64(0) }
  }

  public func recordedEventID(
    channel: String?, kind: EventKind, start: Date, end: Date?, detail: String
  ) throws -> Int64? {
    try connection.query(
      """
      SELECT e.id FROM events AS e LEFT JOIN channels AS c ON c.id = e.channel_id
      WHERE c.name IS NOT DISTINCT FROM $1::text AND e.kind = $2 AND e.start_ms = $3
        AND (e.end_ms IS NOT DISTINCT FROM $4::bigint OR $4::bigint IS NULL) AND e.detail = $5
      LIMIT 1
      """,
      [.text(channel), .text(kind.rawValue), .date(start), .date(end), .text(detail)]
    ).first.map { try $0.int64(0) }
  }

  @discardableResult
  public func recordEvent(
    channel: String?, kind: EventKind, start: Date, end: Date? = nil, detail: String = ""
  ) throws -> Int64 {
    try PlayLogStore.checkEventEnd(kind: kind, start: start, end: end, path: path)
    return try connection.transaction {
      let channelRowID = try channel.map { try self.channelID(named: $0) }
      return try connection.query(
        "INSERT INTO events(channel_id, kind, start_ms, end_ms, detail) VALUES($1, $2, $3, $4, $5) RETURNING id",
        [.integer(channelRowID), .text(kind.rawValue), .date(start), .date(end), .text(detail)])[0].int64(0)
    }
  }

  public func endEvent(channel: String, kind: EventKind, start: Date, end: Date) throws {
    try PlayLogStore.checkEventEnd(kind: kind, start: start, end: end, path: path)
    try connection.transaction {
      _ = try connection.query(
        """
        UPDATE events SET end_ms = $1
        WHERE kind = $2 AND start_ms = $3 AND end_ms IS NULL AND channel_id = (SELECT id FROM channels WHERE name = $4)
        """,
        [.date(end), .text(kind.rawValue), .date(start), .text(channel)])
    }
  }

  /// Throws ``PlayLogNodeError/channelHeld(channel:node:url:)`` when play `playID` is of a channel refused to this
  /// node on connecting: the node that holds it took this node's open plays there over (`claim`), and continues
  /// them, so what this node heard on it while cut off is not written into them.
  private func refuseWritesOfHeldChannel(play playID: Int64) throws {
    guard !refusedChannels.isEmpty else { return }
    let rows = try connection.query(
      "SELECT c.name FROM plays AS p JOIN channels AS c ON c.id = p.channel_id WHERE p.id = $1", [.integer(playID)])
    if let name = try rows.first?.string(0) { try refuseIfHeld(name) }
  }

  /// Throws ``PlayLogNodeError/channelHeld(channel:node:url:)`` for a channel refused to this node on connecting.
  private func refuseIfHeld(_ channel: String) throws {
    if let owner = refusedChannels[channel] {
      throw PlayLogNodeError.channelHeld(channel: channel, node: owner, url: path)
    }
  }

  /// The id of the channel called `name`, adding it if new, for a write of this node. Inside the caller's
  /// transaction.
  /// - Throws: ``PlayLogNodeError/channelHeld(channel:node:url:)`` for a channel refused to this node on connecting.
  func channelID(named name: String) throws -> Int64 {
    try refuseIfHeld(name)
    return try anyChannelID(named: name)
  }

  /// The id of the channel called `name`, adding it if new. Inside the caller's transaction.
  func anyChannelID(named name: String) throws -> Int64 {
    try connection.query("INSERT INTO channels(name) VALUES($1) ON CONFLICT(name) DO NOTHING", [.text(name)])
    return try connection.query("SELECT id FROM channels WHERE name = $1", [.text(name)])[0].int64(0)
  }

  /// The id of the play's catalog item, adding it if new and updating its metadata if it changed (as SQLite's).
  private func catalogItemID(for play: PlayRecord, attributesJSON: String) throws -> Int64 {
    let durationMilliseconds = play.itemDurationSeconds.map(Date.milliseconds(fromSeconds:))
    try connection.query(
      """
      INSERT INTO catalog_items(item_key, title, artist, album, isrc, label, kind, attributes_json, duration_ms)
      VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9)
      ON CONFLICT(item_key) DO UPDATE SET
        title = excluded.title, artist = excluded.artist, album = excluded.album, isrc = excluded.isrc,
        label = excluded.label, kind = excluded.kind, attributes_json = excluded.attributes_json,
        duration_ms = coalesce(excluded.duration_ms, catalog_items.duration_ms)
      WHERE catalog_items.title IS DISTINCT FROM excluded.title OR catalog_items.artist IS DISTINCT FROM excluded.artist
        OR catalog_items.album IS DISTINCT FROM excluded.album OR catalog_items.isrc IS DISTINCT FROM excluded.isrc
        OR catalog_items.label IS DISTINCT FROM excluded.label OR catalog_items.kind IS DISTINCT FROM excluded.kind
        OR catalog_items.attributes_json IS DISTINCT FROM excluded.attributes_json
        OR (excluded.duration_ms IS NOT NULL AND catalog_items.duration_ms IS DISTINCT FROM excluded.duration_ms)
      """,
      [
        .text(play.itemKey), .text(play.metadata.title), .text(play.metadata.artist), .text(play.metadata.album),
        .text(play.metadata.isrc), .text(play.metadata.label), .text(play.metadata.kind.rawValue),
        .text(attributesJSON),
        .integer(durationMilliseconds),
      ])
    return try connection.query("SELECT id FROM catalog_items WHERE item_key = $1", [.text(play.itemKey)])[0].int64(0)
  }
}

@available(*, unavailable, message: "a PostgreSQLPlayLogStore is used by one thread at a time: open one per thread")
extension PostgreSQLPlayLogStore: Sendable {}
