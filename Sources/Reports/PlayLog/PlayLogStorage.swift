import Foundation

/// What `run` and `scan` write to a play log, whatever holds it: ``PlayLogStore`` (an SQLite file, one machine) or
/// ``PostgreSQLPlayLogStore`` (a PostgreSQL database that several monitors, the nodes, write at once). The play
/// log writer (`PlayLogWriter`, `PlayCommandApplier`) and the spool's replay use only this.
///
/// Requirements for an implementation, which the shared contract test (`PlayLogStorageContractTests`) checks
/// against both:
/// - every call is one transaction, durable when it returns;
/// - a call that throws anything but a ``PlayLogError`` may be retried with the same arguments (the writer keeps
///   the command in its spool and retries it), and the `recorded…ID` lookups find what an attempt committed before
///   it failed, so that nothing is written twice;
/// - ``recoverOpenPlays()``, ``recoverDowntime(channels:at:)`` and ``recoverOpenAlerts(at:)`` touch only what this
///   writer may own (all of an SQLite file's; in PostgreSQL, the node's own plays and heartbeats, and its channels'
///   gaps and alerts);
/// - times are stored to the millisecond, doubles exactly.
///
/// Thread: one thread at a time (the writer's thread).
public protocol PlayLogStorage: AnyObject {
  /// The play log, as the user named it: a file path or a `postgresql://` URL (never with a password).
  var path: String { get }
  /// Closes the play log; further calls throw.
  func close() throws
  /// What happened to the store that the writer should log, since the last call.
  func takeNotices() -> [String]
  /// Records a play (its channel and catalog item too, if new); returns its id.
  @discardableResult func record(_ play: PlayRecord) throws -> Int64
  /// Moves a play's end (and start, when given) and refreshes its match values and status.
  func update(
    playID: Int64, start: Date?, end: Date, refOffsetSeconds: Double, speed: Double, confidence: Double,
    status: PlayStatus) throws
  /// Deletes a play the matcher withdrew.
  func retract(playID: Int64) throws
  /// Marks this writer's `open` plays `recovered`; returns their ids, oldest first.
  @discardableResult func recoverOpenPlays() throws -> [Int64]
  /// Continues an earlier play of the same airing instead of recording `play` (see `PlayLogStore`'s).
  func reopenPlayOfSameAiring(as play: PlayRecord, retrying: Bool) throws -> ContinuedPlay?
  /// Moves on a continued play: its end, its confidence (the higher) and its status.
  func extend(playID: Int64, end: Date?, confidence: Double?, status: PlayStatus) throws
  /// The id of a recorded play of the same channel, item, start and detection time; nil when none.
  func recordedPlayID(matching play: PlayRecord, startMayHaveMoved: Bool) throws -> Int64?
  /// The id of a recorded event with the same values; nil when none. Without `end`, an event whose end was given
  /// since (``endEvent(channel:kind:start:end:)``) is found too.
  func recordedEventID(channel: String?, kind: EventKind, start: Date, end: Date?, detail: String) throws -> Int64?
  /// Records an event; returns its id.
  @discardableResult
  func recordEvent(channel: String?, kind: EventKind, start: Date, end: Date?, detail: String) throws -> Int64
  /// Gives the channel's `kind` event that started at `start`, recorded without an end, its end; nothing when it has
  /// one.
  func endEvent(channel: String, kind: EventKind, start: Date, end: Date) throws
  /// Replaces this writer's heartbeats with `heartbeats` (the channels it listens to now, and through when it heard
  /// each). In PostgreSQL the node's own heartbeat is written too, also with no channel (they all wait for other
  /// nodes).
  func recordHeartbeat(_ heartbeats: [ChannelHeartbeat]) throws
  /// Deletes this writer's heartbeats, as a clean stop does: its next start finds no downtime to record, and in
  /// PostgreSQL the other nodes see it stopped, not down.
  func clearHeartbeat() throws
  /// Records the last run's downtime, at a start that listens to `channels` from `end`: each channel whose
  /// heartbeat the last run left (it was killed) gets a gap from its heartbeat, and the gaps still without an end
  /// (a stop, or a gap of the input, that the run ended during) of `channels` end at `end`; a channel this start
  /// does not listen to keeps its gap open. Returns what it wrote and ended. In PostgreSQL, only the node's own
  /// channels and heartbeats.
  @discardableResult func recoverDowntime(channels: [String], at end: Date) throws -> RecoveredDowntime
  /// The channels this writer listens to now, after a reload. In PostgreSQL the node claims those added (one that
  /// another live node holds is refused, and its writes throw) and gives up those removed; nothing in SQLite, whose
  /// play log has one writer.
  func listen(to channels: [String]) throws
  /// The channels refused to this node (another live node held them) whose holders' sessions have ended since: a
  /// reload that listens to them again takes them over. Empty in SQLite, whose play log has one writer.
  func freedChannels() throws -> [String]
  /// The other nodes that have heartbeats in the play log (they run, or ended without stopping), and when each
  /// last wrote them; a node's own are not among them. Empty in SQLite, whose play log has one writer.
  func peerNodes() throws -> [PeerNode]
  /// Records an open alert unless it is there (an alert is its channel, kind and start); true when added.
  @discardableResult func openAlert(channel: String?, kind: String, start: Date, detail: String) throws -> Bool
  /// Closes an alert (adding it closed when its opening was lost).
  func closeAlert(channel: String?, kind: String, start: Date, end: Date, detail: String) throws
  /// Closes the alerts this writer's previous run left open, at `end`; returns how many.
  @discardableResult func recoverOpenAlerts(at end: Date) throws -> Int
  /// Records a labelled stretch of the air and its unknown segment, unless there (same channel and start).
  func record(_ stretch: AirStretchRecord) throws
  /// Records the audio clip of a catalog play, unless there (same channel, play start and item).
  func record(_ clip: PlayClipRecord) throws
  /// Every unknown segment's cluster, offset and fingerprint, oldest first.
  func unknownFingerprints() throws -> [(cluster: Int64, clusterOffsetSeconds: Double, fingerprint: String)]
  /// Every unknown segment as the clusters are rebuilt from it (with whether its cluster was promoted), oldest first.
  func unknownReferences() throws -> [UnknownReferenceRow]
  /// Applies a revision of an unknown segment (a cluster split in two), unless its cluster was promoted.
  func revise(_ revision: UnknownSegmentRevision) throws
  /// The unknown segments of a cluster, by start (`catalog add --from-unknown`).
  func unknownSegments(cluster: Int64) throws -> [UnknownSegment]
  /// Records each segment's `late` play and links the segment to it, in one transaction, skipping a segment that
  /// has its play already; returns the plays' ids.
  @discardableResult func recordLatePlays(_ plays: [LatePlay], identifiedAt: Date) throws -> [Int64]
  /// Records a channel's stream listener count at `sampledAt`, unless a sample of that channel and time is there.
  func recordListeners(channel: String, sampledAt: Date, listeners: Int) throws
}

/// What only a play log that several nodes write (PostgreSQL) does has nothing to do here: an SQLite play log has one
/// writer, and every channel is its own.
extension PlayLogStore: PlayLogStorage {
  public func listen(to channels: [String]) throws {}

  public func freedChannels() throws -> [String] { [] }

  public func peerNodes() throws -> [PeerNode] { [] }
}

extension PlayLogStorage {
  /// What happened to the store that the writer should log, since the last call (`PlayLogStore`: a file deleted
  /// while in use and written back); none by default.
  public func takeNotices() -> [String] { [] }

  /// Records an event with no end (an instant, or one still going on).
  @discardableResult
  public func recordEvent(channel: String?, kind: EventKind, start: Date, detail: String) throws -> Int64 {
    try recordEvent(channel: channel, kind: kind, start: start, end: nil, detail: detail)
  }
}
