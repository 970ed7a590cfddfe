import Foundation

/// Retiring a node that ended without stopping and will not run again (`broadcast-monitor db retire`).
extension PostgreSQLPlayLogStore {
  /// Retires this store's node, in one transaction, as if it had stopped cleanly at its last heartbeat: its plays left
  /// open are marked `recovered`; each channel it still heard gets a gap from its last heartbeat, open until a node
  /// monitors the channel again; its heartbeats are deleted, so that the other nodes no longer see it down and close
  /// their `node_down` alert at their next check; its open alerts are closed, but the monitor's own of the kinds in
  /// `sharedKinds`; and the channels still its own are given up, for a node whose configuration lists them to claim.
  /// Retiring a node again changes nothing.
  ///
  /// The store holds the node's lease (its initializer took it), so the node is not running: a running node is
  /// refused there (``PlayLogNodeError/nodeRunning(node:url:)``), and cannot start while this runs.
  /// - Parameter sharedKinds: alerts of the whole monitor whose row every running node shares, and closes when its
  ///   condition ends (`node_down`: the node it names is back): the node that opened the row first is not the only
  ///   one that has it open.
  /// - Throws: a ``PostgreSQLError`` when the server cannot be reached or refuses a statement.
  public func retire(at now: Date = Date(), keepingOpen sharedKinds: [String]) throws -> NodeRetirement {
    let owned = "SELECT channel_id FROM channel_owners WHERE node = $1"
    let placeholders = sharedKinds.indices.map { "$\($0 + 3)" }.joined(separator: ", ")
    let kept = sharedKinds.isEmpty ? "true" : "kind NOT IN (\(placeholders))"
    return try connection.transaction {
      var retirement = NodeRetirement()
      retirement.recoveredPlays = try recoverOpenPlays()
      let downtime = try writeGapsFromHeartbeats(endingAt: now, on: [], detail: Self.retiredDetail(node))
      retirement.openedGaps = downtime.gaps.map(\.channel)
      let nodeBeat = try connection.query("DELETE FROM node_heartbeats WHERE node = $1 RETURNING node", [.text(node)])
      retirement.hadHeartbeat = downtime.heartbeats > 0 || !nodeBeat.isEmpty
      retirement.closedAlerts =
        try connection.query(
          """
          UPDATE alerts SET end_ms = GREATEST(start_ms, $2),
            detail = detail || '; still open when node ' || $1 || ' ended, closed when it was retired'
          WHERE end_ms IS NULL AND (channel_id IN (\(owned)) OR (channel_id IS NULL AND node = $1 AND \(kept)))
          RETURNING id
          """, [.text(node), .date(now)] + sharedKinds.map { .text($0) }
        ).count
      retirement.releasedChannels = try connection.query(
        """
        WITH released AS (DELETE FROM channel_owners WHERE node = $1 RETURNING channel_id)
        SELECT c.name FROM released JOIN channels AS c ON c.id = released.channel_id ORDER BY c.name
        """, [.text(node)]
      ).map { try $0.string(0) }
      return retirement
    }
  }

  /// What the gap written on a retired node's channel says.
  static func retiredDetail(_ node: String) -> String {
    "node \(node) ended without stopping (killed, crashed, a power cut or cut off from the server) and was retired: "
      + "not monitored from its last heartbeat until a node monitors the channel again"
  }
}
