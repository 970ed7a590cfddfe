import Foundation

/// The node's heartbeat and its last run's downtime (see `PlayLogStore+Downtime.swift`): a node's rows are its own,
/// and a channel's row moves to the node that holds the channel now.
extension PostgreSQLPlayLogStore {
  /// Replaces the node's heartbeats with `heartbeats` in one transaction, but those of channels refused to this node
  /// (another live node holds them: their heartbeat is that node's), and writes the node's own heartbeat
  /// (`node_heartbeats`) with the channels kept, also when none are (every channel waits for another node: the node
  /// runs all the same).
  public func recordHeartbeat(_ heartbeats: [ChannelHeartbeat]) throws {
    let kept = heartbeats.filter { refusedChannels[$0.channel] == nil }
    let channelsJSON = String(decoding: try JSONEncoder().encode(kept.map(\.channel).sorted()), as: UTF8.self)
    try connection.transaction {
      try connection.query(
        """
        INSERT INTO node_heartbeats(node, channels_json, written_at_ms) VALUES($1, $2, \(Self.serverMillisecondsSQL))
        ON CONFLICT(node) DO UPDATE SET channels_json = excluded.channels_json, written_at_ms = excluded.written_at_ms
        """, [.text(node), .text(channelsJSON)])
      try connection.query("DELETE FROM channel_heartbeats WHERE node = $1", [.text(node)])
      guard !kept.isEmpty else { return }
      let names = kept.indices.map { "($\($0 + 1)::text)" }.joined(separator: ", ")
      try connection.query(
        "INSERT INTO channels(name) SELECT name FROM (VALUES \(names)) AS n(name) ON CONFLICT(name) DO NOTHING",
        kept.map { .text($0.channel) })
      let rows = kept.indices.map { "($\(2 * $0 + 2)::text, $\(2 * $0 + 3)::bigint)" }.joined(separator: ", ")
      try connection.query(
        """
        INSERT INTO channel_heartbeats(channel_id, node, heard_through_ms, written_at_ms)
        SELECT c.id, $1, h.heard_through_ms, \(Self.serverMillisecondsSQL)
        FROM (VALUES \(rows)) AS h(name, heard_through_ms) JOIN channels AS c ON c.name = h.name
        ON CONFLICT(channel_id) DO UPDATE SET node = excluded.node, heard_through_ms = excluded.heard_through_ms,
          written_at_ms = excluded.written_at_ms
        """, [.text(node)] + kept.flatMap { [PostgreSQLValue.text($0.channel), .date($0.heardThrough)] })
    }
  }

  /// Deletes the node's heartbeat and its channels' (a clean stop), in one transaction: the other nodes then see it
  /// stopped, not down, and its next start finds no downtime to record.
  public func clearHeartbeat() throws {
    try connection.transaction {
      try connection.query("DELETE FROM channel_heartbeats WHERE node = $1", [.text(node)])
      try connection.query("DELETE FROM node_heartbeats WHERE node = $1", [.text(node)])
    }
  }

  /// The server's clock, in milliseconds since 1970: the heartbeats' write times are the server's, which every
  /// node reads alike.
  static let serverMillisecondsSQL = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"

  /// The other nodes with heartbeats in the play log, by name: each one's channels (those another node has taken
  /// over apart, with that node), when it last wrote its heartbeat (the newest of its rows, by the server's clock),
  /// and whether its session has ended. A node's own row (`node_heartbeats`) keeps a node that died visible after its
  /// channels' rows moved to the nodes that took them over; a channel's row written before migration 011 has no
  /// write time, and the time it heard through stands in; a node that wrote channel rows before migration 013 has
  /// no row of its own, and its channels' rows stand in.
  public func peerNodes() throws -> [PeerNode] {
    var peers: [String: PeerNode] = [:]
    func heard(_ name: String, written: Int64, now: Int64) {
      let silentSeconds = Double(now - written) / 1000
      guard var peer = peers[name] else {
        peers[name] = PeerNode(
          node: name, channels: [], lastHeartbeat: Date(millisecondsSince1970: written), silentSeconds: silentSeconds,
          sessionEnded: false)
        return
      }
      if silentSeconds < peer.silentSeconds {
        peer.silentSeconds = silentSeconds
        peer.lastHeartbeat = Date(millisecondsSince1970: written)
      }
      peers[name] = peer
    }
    let channelRows = try connection.query(
      """
      SELECT h.node, c.name, coalesce(h.written_at_ms, h.heard_through_ms), \(Self.serverMillisecondsSQL)
      FROM channel_heartbeats AS h JOIN channels AS c ON c.id = h.channel_id
      WHERE h.node <> $1 ORDER BY h.node, c.name
      """, [.text(node)])
    for row in channelRows {
      let name = try row.string(0)
      heard(name, written: try row.int64(2), now: try row.int64(3))
      peers[name]?.channels.append(try row.string(1))
    }
    let nodeRows = try connection.query(
      """
      SELECT node, channels_json, written_at_ms, \(Self.serverMillisecondsSQL) FROM node_heartbeats
      WHERE node <> $1 ORDER BY node
      """, [.text(node)])
    if !nodeRows.isEmpty {
      let owners = try Dictionary(
        connection.query("SELECT c.name, o.node FROM channel_owners AS o JOIN channels AS c ON c.id = o.channel_id")
          .map { (try $0.string(0), try $0.string(1)) }, uniquingKeysWith: { first, _ in first })
      for row in nodeRows {
        let name = try row.string(0)
        heard(name, written: try row.int64(2), now: try row.int64(3))
        // A row that cannot be read (edited by hand) names no channel; the channels' own rows still do.
        let listed = (try? JSONDecoder().decode([String].self, from: Data(try row.string(1).utf8))) ?? []
        for channel in listed where !(peers[name]?.channels.contains(channel) ?? true) {
          if let owner = owners[channel], owner != name {
            peers[name]?.takenOver[channel] = owner
          } else {
            peers[name]?.channels.append(channel)
          }
        }
        peers[name]?.channels.sort()
      }
    }
    var sorted = peers.values.sorted { $0.node < $1.node }
    for index in sorted.indices { sorted[index].sessionEnded = try leaseIsFree(of: sorted[index].node) }
    return sorted
  }

  /// What a gap written from the heartbeat of a node whose channel another node took over says.
  static func takenOverDetail(from previous: String, by node: String) -> String {
    "node \(previous) ended without stopping (killed, crashed, a power cut or cut off from the server): not heard "
      + "from its last heartbeat until node \(node) took the channel over"
  }

  /// Records what node `previous` left on the channel `channelRowID` when its session ended, as its own start would:
  /// a gap from its heartbeat there until `takeover` (none while the channel's own gap is open, which ends then), and
  /// its open alerts there closed. For a channel a reload takes over, inside the claim's transaction; a start does the
  /// same for every channel it holds (``recoverDowntime(channels:at:)``, ``recoverOpenAlerts(at:)``).
  func recordDowntime(ofChannel channelRowID: Int64, takenFrom previous: String, at takeover: Date) throws {
    let gap = EventKind.gap.rawValue
    try connection.query(
      """
      INSERT INTO events(channel_id, kind, start_ms, end_ms, detail)
      SELECT channel_id, $3, LEAST(heard_through_ms, $4::bigint), $4::bigint, $5 FROM channel_heartbeats
      WHERE channel_id = $1 AND node = $2
        AND NOT EXISTS (SELECT 1 FROM events WHERE channel_id = $1 AND kind = $3 AND end_ms IS NULL)
      """,
      [
        .integer(channelRowID), .text(previous), .text(gap), .date(takeover),
        .text(Self.takenOverDetail(from: previous, by: node)),
      ])
    try connection.query(
      "DELETE FROM channel_heartbeats WHERE channel_id = $1 AND node = $2", [.integer(channelRowID), .text(previous)])
    try endOpenGap(ofChannel: channelRowID, at: takeover)
    try connection.query(
      """
      UPDATE alerts SET end_ms = GREATEST(start_ms, $2),
        detail = detail || '; still open when node ' || $3 || ' ended, closed when node ' || $4 || ' took the channel over'
      WHERE channel_id = $1 AND end_ms IS NULL
      """, [.integer(channelRowID), .date(takeover), .text(previous), .text(node)])
  }

  /// Ends the channel's open gap, if it has one, at `end` (or at its start, if later).
  func endOpenGap(ofChannel channelRowID: Int64, at end: Date) throws {
    try connection.query(
      "UPDATE events SET end_ms = GREATEST(start_ms, $2) WHERE channel_id = $1 AND kind = $3 AND end_ms IS NULL",
      [.integer(channelRowID), .date(end), .text(EventKind.gap.rawValue)])
  }

  /// Records the node's last run's downtime, as the SQLite store's does, for the heartbeats the node wrote and
  /// those of the channels it holds now (a channel it took over from a node that was killed), and the gaps of its
  /// own channels among `channels`.
  @discardableResult
  public func recoverDowntime(channels: [String], at end: Date) throws -> RecoveredDowntime {
    try connection.transaction {
      var recovered = RecoveredDowntime()
      for gap in try writeGapsFromHeartbeats(endingAt: end, on: channels, detail: PlayLogStore.killedRunDetail).gaps {
        recovered.add(killedRunGapFrom: gap.start)
      }
      guard !channels.isEmpty else { return recovered }
      // One pass over the events, however many channels.
      let ended = channels.indices.map { "$\($0 + 4)" }.joined(separator: ", ")
      recovered.endedGaps = try connection.query(
        """
        UPDATE events SET end_ms = GREATEST(start_ms, $1)
        WHERE kind = $2 AND end_ms IS NULL AND channel_id IN (
          SELECT o.channel_id FROM channel_owners AS o JOIN channels AS c ON c.id = o.channel_id
          WHERE o.node = $3 AND c.name IN (\(ended)))
        RETURNING id
        """, [.date(end), .text(EventKind.gap.rawValue), .text(node)] + channels.map { .text($0) }
      ).count
      return recovered
    }
  }

  /// Writes the node's downtime from its heartbeats, and deletes them, inside the caller's transaction: a gap from
  /// each heartbeat the node wrote and each of the channels it holds now (a channel it took over from a node that was
  /// killed), but on a channel whose gap is already open; each ends at `end` on the channels in `channels` and stays
  /// open on the others. Returns the gaps written (channel and start, by channel name) and how many heartbeats went.
  func writeGapsFromHeartbeats(endingAt end: Date, on channels: [String], detail: String) throws -> (
    gaps: [(channel: String, start: Date)], heartbeats: Int
  ) {
    let names = channels.indices.map { "$\($0 + 5)" }.joined(separator: ", ")
    let listened = channels.isEmpty ? "false" : "c.name IN (\(names))"
    let mine = "(h.node = $1 OR h.channel_id IN (SELECT channel_id FROM channel_owners WHERE node = $1))"
    let gaps = try connection.query(
      """
      WITH written AS (
        INSERT INTO events(channel_id, kind, start_ms, end_ms, detail)
        SELECT h.channel_id, $2, LEAST(h.heard_through_ms, $3::bigint),
          CASE WHEN \(listened) THEN $3::bigint END, $4
        FROM channel_heartbeats AS h JOIN channels AS c ON c.id = h.channel_id
        WHERE \(mine) AND h.channel_id NOT IN (
          SELECT channel_id FROM events WHERE kind = $2 AND end_ms IS NULL AND channel_id IS NOT NULL)
        RETURNING channel_id, start_ms)
      SELECT c.name, written.start_ms FROM written JOIN channels AS c ON c.id = written.channel_id ORDER BY c.name
      """,
      [.text(node), .text(EventKind.gap.rawValue), .date(end), .text(detail)] + channels.map { .text($0) }
    ).map { (channel: try $0.string(0), start: Date(millisecondsSince1970: try $0.int64(1))) }
    let heartbeats = try connection.query(
      "DELETE FROM channel_heartbeats AS h WHERE \(mine) RETURNING h.channel_id", [.text(node)]
    ).count
    return (gaps, heartbeats)
  }
}
