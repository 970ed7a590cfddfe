import Foundation
import Reports

/// Applies the play log writer's commands to the store: keeps which play log row each play token writes to, so
/// that a play's updates reach its row, and makes a start that continues an earlier play of the same airing (cut by
/// a restart or a gap in the input) move that row on. Used by the writer's thread for live commands, and by the spool's replay at start.
///
/// Threads: the thread that owns the store.
struct PlayCommandApplier {
  /// The row a play token writes to.
  struct Target {
    var row: Int64
    /// When the row is an earlier play of the same airing that this play continues, the status it had: its start
    /// and reference offset stay, and a retraction gives it back that status.
    var continues: PlayStatus?
    /// The play as this applier recorded it, on the line its latest update gave it; nil for a row it did not
    /// record itself (a continued play, or one named by a spool entry).
    var play: PlayRecord?
  }

  let store: any PlayLogStorage
  private var targets: [UInt64: Target] = [:]

  init(store: any PlayLogStorage) { self.store = store }

  /// `command` as a spool entry, with the row it writes to when its start is in the play log already.
  func spoolEntry(for command: PlayLogWriter.Command) -> PlaySpool.Entry {
    let token: UInt64
    switch command {
    case .update(let updated, _, _, _, _, _, _): token = updated
    case .retract(let retracted): token = retracted
    case .start, .event, .eventEnded, .alertOpened, .alertClosed, .stretch, .reviseUnknown, .playClip, .listeners,
      .heartbeat, .stopped:
      return PlaySpool.Entry(command: command)
    }
    guard let target = targets[token] else { return PlaySpool.Entry(command: command) }
    return PlaySpool.Entry(command: command, row: target.row, continues: target.continues)
  }

  /// Writes one command (the entry's row, if it names one, is where an update or retraction goes when this applier
  /// did not see its start).
  /// - Parameter retrying: the command may be in the play log already (an earlier attempt failed with an error after
  ///   SQLite committed it, or the spool is replayed): a start or an event found there is not added again.
  /// - Returns: the earlier play that a start continues (or that an update moved the play onto), as it was; nil
  ///   otherwise.
  /// - Throws: ``PlayLogError`` for a command the store refuses; ``SQLiteError`` when the file cannot be written.
  @discardableResult
  mutating func apply(_ entry: PlaySpool.Entry, retrying: Bool) throws -> ContinuedPlay? {
    switch entry.command {
    case .start(let token, let play):
      if retrying, let recorded = try store.recordedPlayID(matching: play, startMayHaveMoved: true) {
        targets[token] = Target(row: recorded, continues: nil, play: play)
      } else if var reopened = try store.reopenPlayOfSameAiring(as: play, retrying: retrying) {
        // An open one is one this play reopened before its write was retried; `closed` is what it had before.
        if reopened.status == .open { reopened.status = .closed }
        guard play.status == .open else {
          // A whole play (`scan` writes each play once, at its end), no update to follow: the continued play is
          // whole again at once, with the later of the two ends (set by the reopening). A recording scanned a second
          // time lands here, play by play.
          try store.extend(playID: reopened.id, end: nil, confidence: play.confidence, status: play.status)
          return reopened
        }
        targets[token] = Target(row: reopened.id, continues: reopened.status)
        return reopened
      } else {
        targets[token] = Target(row: try store.record(play), continues: nil, play: play)
      }
    case .update(let token, let start, let end, let refOffsetSeconds, let speed, let confidence, let closed):
      guard let target = target(token, entry) else { return nil }  // its start was retracted or never recognized
      if let earlier = try foldIntoEarlierPart(
        token: token, target, start: start, end: end, refOffsetSeconds: refOffsetSeconds, speed: speed,
        confidence: confidence, closed: closed)
      {
        return earlier
      }
      do {
        if target.continues != nil {
          try store.extend(playID: target.row, end: end, confidence: confidence, status: closed ? .closed : .open)
        } else {
          try store.update(
            playID: target.row, start: start, end: end, refOffsetSeconds: refOffsetSeconds, speed: speed,
            confidence: confidence, status: closed ? .closed : .open)
        }
      } catch PlayLogError.noSuchPlay where retrying {
        // Retracted before the spool was emptied (the retraction follows in the spool, or was written).
      }
      if closed { targets[token] = nil }
    case .retract(let token):
      guard let target = target(token, entry) else { return nil }
      if let earlier = target.continues {
        // The part heard after the outage was a repeated section of another play: the airing's first part stays.
        try store.extend(playID: target.row, end: nil, confidence: nil, status: earlier)
      } else {
        do {
          try store.retract(playID: target.row)
        } catch PlayLogError.noSuchPlay where retrying {
          // Retracted before the spool was emptied.
        }
      }
      targets[token] = nil
    case .event(let channel, let kind, let start, let end, let detail):
      if retrying,
        try store.recordedEventID(channel: channel, kind: kind, start: start, end: end, detail: detail) != nil
      {
        return nil
      }
      try store.recordEvent(channel: channel, kind: kind, start: start, end: end, detail: detail)
    case .eventEnded(let channel, let kind, let start, let end):
      try store.endEvent(channel: channel, kind: kind, start: start, end: end)  // again, it changes nothing
    case .alertOpened(let channel, let kind, let start, let detail):
      try store.openAlert(channel: channel, kind: kind, start: start, detail: detail)
    case .alertClosed(let channel, let kind, let start, let end, let detail):
      try store.closeAlert(channel: channel, kind: kind, start: start, end: end, detail: detail)
    case .stretch(let stretch):
      try store.record(stretch)  // a stretch already there (same channel and start) is left as it is
    case .reviseUnknown(let revision):
      try store.revise(revision)  // applying it again changes nothing more
    case .playClip(let clip):
      try store.record(clip)  // a clip already there (same channel, play start and item) is left as it is
    case .listeners(let channel, let sampledAt, let listeners):
      try store.recordListeners(channel: channel, sampledAt: sampledAt, listeners: listeners)  // once, as a stretch
    case .heartbeat(let heartbeats):
      try store.recordHeartbeat(heartbeats)  // replaces the last one: applying it again changes nothing
    case .stopped:
      try store.clearHeartbeat()  // applying it again changes nothing
    }
    return nil
  }

  /// Folds a play into an earlier play of the same airing when an update moves it onto that play's line: the rest
  /// of an airing heard after an outage may first be found on a repeated section of the item, and moved to its
  /// true line only by a later update, when the start's check for the same airing has passed. The play's row goes,
  /// and the earlier play, open again, takes its end and its later updates.
  /// - Returns: the earlier play as it was; nil when the update leaves the play on its own line (or moved it onto no
  ///   earlier play's), and nothing was written.
  private mutating func foldIntoEarlierPart(
    token: UInt64, _ target: Target, start: Date?, end: Date, refOffsetSeconds: Double, speed: Double,
    confidence: Double, closed: Bool
  ) throws -> ContinuedPlay? {
    guard target.continues == nil, var moved = target.play else { return nil }
    let before = moved
    moved.start = start ?? moved.start
    moved.end = end
    moved.refOffsetSeconds = refOffsetSeconds
    moved.speed = speed
    moved.id = target.row  // not a candidate for its own earlier part
    // Where the line before the update puts the reference at the moved play's start.
    let elapsedSeconds = moved.start.timeIntervalSince(before.start)
    let shiftSeconds = abs(refOffsetSeconds - (before.refOffsetSeconds + elapsedSeconds * before.speed))
    guard shiftSeconds > Self.lineMoveSeconds,
      let earlier = try store.reopenPlayOfSameAiring(as: moved, retrying: false)
    else {
      targets[token]?.play = moved
      return nil
    }
    try store.retract(playID: target.row)
    try store.extend(playID: earlier.id, end: end, confidence: confidence, status: closed ? .closed : .open)
    targets[token] = closed ? nil : Target(row: earlier.id, continues: earlier.status, play: nil)
    return earlier
  }

  /// How far, in seconds of reference audio, an update must move a play's line for the applier to look again for
  /// an earlier play of the same airing: more than the matcher's refinement of a line (milliseconds), far less than
  /// the same-airing tolerance (`PlayLogStore.sameAiringToleranceSeconds`).
  static let lineMoveSeconds = 0.25

  private func target(_ token: UInt64, _ entry: PlaySpool.Entry) -> Target? {
    targets[token] ?? entry.row.map { Target(row: $0, continues: entry.continues) }
  }
}
