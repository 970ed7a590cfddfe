import Foundation
import Reports

/// `broadcast-monitor db`: the play log's engines and nodes.
/// - `db copy --from plays.sqlite --to postgresql://USER@HOST:PORT/DB` moves an existing play log into PostgreSQL,
///   table by table with every row's id (`PlayLogCopy`), then compares both sides' row counts and checksums.
///   Resumable: run again, it goes on after the last row copied.
/// - `db nodes --db postgresql://…` lists the nodes of a PostgreSQL play log that have heartbeats: those running, and
///   those that ended without stopping.
/// - `db retire --db postgresql://… --node NAME` retires a node of a PostgreSQL play log that ended without stopping
///   and will not run again (`PostgreSQLPlayLogStore.retire`).
enum DatabaseCommand {
  /// EX_DATAERR: the copy does not match its source.
  static let mismatchStatus: Int32 = 65
  /// EX_TEMPFAIL: the node to retire is running.
  static let nodeRunningStatus: Int32 = 75

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let spec = CommandTable.db
    guard let sub = args.first else { throw UsageError(CommandHelp.help(spec)) }
    guard let subSpec = spec.subcommand(sub) else { throw UsageError(CommandHelp.unknownSubcommand(sub, of: spec)) }
    let a = try CommandLineArguments(args.dropFirst(), for: subSpec)
    guard a.positionals.isEmpty else { throw UsageError(CommandHelp.help(subSpec)) }
    switch sub {
    case "retire": return try retire(a)
    case "nodes": return try nodes(a)
    default: return try copy(a)
    }
  }

  /// The PostgreSQL play log `--db`, refused when it names an SQLite file: only PostgreSQL has nodes.
  private static func postgreSQLPlayLog(_ a: CommandLineArguments, command: String) throws -> String {
    let url = try a.required("db")
    guard PlayLogLocation.isPostgreSQL(url) else {
      throw UsageError(
        "--db \(url): only a PostgreSQL play log has nodes to \(command) (postgresql://USER@HOST:PORT/DB); an SQLite "
          + "play log has one writer, whose next start recovers what it left")
    }
    return url
  }

  /// Lists the nodes with heartbeats in the PostgreSQL play log `--db`, one tab-separated line each.
  private static func nodes(_ a: CommandLineArguments) throws -> Int32 {
    let url = try postgreSQLPlayLog(a, command: "list")
    // The nodes as one of them sees them, less itself: a name no node has, whose lease this takes and which writes
    // nothing.
    let store = try PostgreSQLPlayLogStore(
      url: url, node: "broadcast-monitor db nodes, pid \(getpid())", leaseWaitSeconds: 0, existingOnly: true)
    defer { try? store.close() }
    let peers = try store.peerNodes()
    print(nodesTable(peers).joined(separator: "\n"))
    if peers.isEmpty {
      printError("db nodes: no node has a heartbeat in \(url): none runs, and none ended without stopping")
    }
    return 0
  }

  /// `db nodes`' lines: a header, then per node its name, state (as the API's), its channels, those another node
  /// took over (`channel=node`), its last heartbeat and how many seconds before the check that was.
  static func nodesTable(_ peers: [PeerNode]) -> [String] {
    ["node\tstate\tchannels\ttaken_over\tlast_heartbeat\tsilent_s"]
      + peers.map { peer in
        let takenOver = peer.takenOver.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let fields = [
          peer.node, ChannelsDocument.nodeState(peer, heartbeatAgeSeconds: peer.silentSeconds),
          peer.channels.joined(separator: ","), takenOver.joined(separator: ","),
          ISO8601Millis.format(peer.lastHeartbeat), String(format: "%.1f", peer.silentSeconds),
        ]
        return fields.map(DisplayWidth.printable).joined(separator: "\t")
      }
  }

  private static func copy(_ a: CommandLineArguments) throws -> Int32 {
    let from = try a.required("from")
    let to = try a.required("to")
    guard !PlayLogLocation.isPostgreSQL(from) else {
      throw UsageError("--from \(from): name the SQLite play log file to copy")
    }
    guard PlayLogLocation.isPostgreSQL(to) else {
      throw UsageError("--to \(to): name the PostgreSQL play log, postgresql://USER@HOST:PORT/DB")
    }
    guard FileManager.default.fileExists(atPath: from) else {
      throw UsageError("--from \(from): no such play log; give the file that `run` or `scan --db` writes")
    }
    // A monitor writing the play log would change it under the copy: the copy takes the play log's lock, as a
    // second monitor would, and is refused (75) while one runs. A play log where no lock file can be made (a
    // read-only backup) has no monitor writing it.
    var lock: PlayLogLock?
    do {
      lock = try PlayLogLock(playLog: from, command: "db copy")
    } catch PlayLogLockError.unusable {
      lock = nil
    }
    defer { lock?.release() }
    let progress = ProgressReporter()
    let summary: PlayLogCopy.Summary
    do {
      summary = try PlayLogCopy.copy(sqlite: from, toPostgreSQL: to) { table, rows in
        progress.update("db copy: \(table): \(rows) rows")
      }
    } catch let error as PlayLogCopyTargetError {
      progress.finish()
      printError("broadcast-monitor: \(error)")
      return Self.mismatchStatus
    }
    progress.finish()
    for table in summary.sourceRows.keys.sorted() {
      let same =
        summary.sourceRows[table] == summary.targetRows[table]
        && summary.sourceChecksums[table] == summary.targetChecksums[table]
      printError(
        "db copy: \(table): \(summary.copiedRows[table] ?? 0) rows copied now; \(summary.sourceRows[table] ?? 0) in "
          + "\(from), \(summary.targetRows[table] ?? 0) in \(to); checksum "
          + (same ? "equal" : "DIFFERENT"))
    }
    guard summary.isVerified else {
      printError(
        "broadcast-monitor: db copy: \(to) does not hold the same rows as \(from) (see above): it held other rows "
          + "before the copy (copy into a new database), or it changed during the copy (a node writes it)")
      return Self.mismatchStatus
    }
    printError("db copy: verified: \(to) holds every row of \(from)")
    return 0
  }

  /// Retires node `--node` of the PostgreSQL play log `--db`, and says what that changed.
  private static func retire(_ a: CommandLineArguments) throws -> Int32 {
    let url = try postgreSQLPlayLog(a, command: "retire")
    let node = try a.required("node")
    let store: PostgreSQLPlayLogStore
    do {
      store = try PostgreSQLPlayLogStore(
        url: url, node: node, leaseWaitSeconds: Self.leaseWaitSeconds, existingOnly: true)
    } catch PlayLogNodeError.nodeRunning {
      printError(
        "broadcast-monitor: db retire: node \(node) is running on the play log \(url) (its session holds its lease): "
          + "a running node is not retired. Stop it first: a clean stop clears its heartbeat and needs no retiring")
      return Self.nodeRunningStatus
    }
    defer { try? store.close() }
    let retirement = try store.retire(keepingOpen: [AlertKind.nodeDown.rawValue])
    for line in report(retirement, node: node, url: url) { printError(line) }
    return 0
  }

  /// How long `db retire` waits for the node's lease: a node killed a moment ago frees it within milliseconds.
  static let leaseWaitSeconds = 2.0

  /// What `db retire` says it did, one line each.
  static func report(_ retirement: NodeRetirement, node: String, url: String) -> [String] {
    guard !retirement.isEmpty else {
      return [
        "db retire: node \(node) left nothing in \(url) to retire (no heartbeat, channel, open play or open alert): "
          + "it was retired already, stopped cleanly, or never ran under that name"
      ]
    }
    func list(_ names: [String]) -> String { names.isEmpty ? "none" : names.joined(separator: ", ") }
    var lines = ["db retire: node \(node) of \(url) retired"]
    lines.append("  open plays marked recovered: \(retirement.recoveredPlays.count)")
    lines.append(
      "  channels given up: \(list(retirement.releasedChannels))"
        + (retirement.releasedChannels.isEmpty
          ? "" : " (no node monitors them now; a node whose configuration lists them claims them at its start)"))
    lines.append(
      "  gaps opened at its last heartbeat: \(list(retirement.openedGaps))"
        + (retirement.openedGaps.isEmpty ? "" : " (each ends when a node monitors the channel again)"))
    lines.append("  open alerts closed: \(retirement.closedAlerts)")
    if retirement.hadHeartbeat {
      lines.append(
        "  heartbeat removed: the running nodes no longer count it down, and close node_down once it has been "
          + "clear for alerts.holdSeconds (within 10 s plus that, 10 s by default)")
    }
    return lines
  }
}
