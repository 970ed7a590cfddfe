import Foundation
import Reports

/// The plays one channel recognized since the start, as its status shows them: how many started, and the newest few
/// with their times (the console's plays panel and detail view read them from `ChannelStatus`, typed, instead of
/// parsing the log's play events back).
///
/// The count is of every play started, withdrawn ones included, across catalog reloads; the list keeps the newest
/// `kept` plays, withdrawn ones removed. A play that is the rest of an airing listed here (cut by a gap in the input:
/// the play log's rule, `PlayLogStore.continuesAiring`) is not counted again: it takes over the earlier play's
/// entry, as it takes over its row in the play log. A play that an update moves onto such an earlier play's line
/// (first found on a repeated section of the item) takes over its entry then, as the play log writer folds its row
/// into that play's (`PlayCommandApplier`); it stays counted, since the count is a counter that never goes down.
///
/// Threads: the channel's worker (its `PlayEventSink`s write it, the pipeline copies it into the status).
final class PlayHistory {
  /// Plays kept in the list: more than a console of any height shows in its plays panel.
  static let kept = 100

  private(set) var startedCount = 0
  /// The newest plays, oldest start first.
  private(set) var recent: [ChannelStatus.RecentPlay] = []
  /// Each listed play as the play log has it (its line as its latest update gave it, its end once it ended), keyed
  /// by its entry's id: what a later play is compared with to tell the rest of its airing.
  private var records: [UInt64: PlayRecord] = [:]
  /// The plays that continue a listed play, with that play's end before: their entry is the earlier play's, and a
  /// withdrawal gives it that end back.
  private var continuations: [UInt64: Date] = [:]

  /// A play went on air; `id` is its play-log token.
  func started(id: UInt64, _ play: PlayRecord) {
    if let index = recent.indices.reversed().first(where: { continues(play, recent[$0]) }),
      let earlierEnd = recent[index].end
    {
      continuations[id] = earlierEnd
      records[id] = records.removeValue(forKey: recent[index].id)
      recent[index].id = id
      recent[index].end = nil
      return
    }
    startedCount += 1
    recent.append(
      ChannelStatus.RecentPlay(
        id: id, channel: play.channel, title: play.metadata.title, artist: play.metadata.artist, start: play.start))
    records[id] = play
    if recent.count > Self.kept {
      for dropped in recent.prefix(recent.count - Self.kept) {
        records[dropped.id] = nil
        continuations[dropped.id] = nil
      }
      recent.removeFirst(recent.count - Self.kept)
    }
  }

  /// The play log's times and line for a play as they now stand: its start, which the matcher can move after the
  /// play was first shown (a line refitted, an opening judged masked: up to `noisyOpeningSnapSeconds` earlier), and
  /// its end once it ended. A play that continues an earlier one keeps that play's start and line, as its row does.
  func logged(id: UInt64, start: Date, end: Date?, refOffsetSeconds: Double, speed: Double) {
    guard let index = recent.lastIndex(where: { $0.id == id }) else { return }
    if continuations[id] == nil {
      let before = records[id]
      recent[index].start = start
      records[id]?.start = start
      records[id]?.refOffsetSeconds = refOffsetSeconds
      records[id]?.speed = speed
      if let before, let moved = records[id], Self.lineMoved(from: before, to: moved),
        fold(id: id, at: index, end: end)
      {
        return
      }
    }
    if let end {
      recent[index].end = end
      records[id]?.end = end
    }
  }

  /// Takes over `earlier`'s count and list: a channel restarted by a reload counts its plays since the monitor
  /// started.
  func continuing(_ earlier: PlayHistory) {
    startedCount = earlier.startedCount
    recent = earlier.recent
    records = earlier.records
    continuations = earlier.continuations
  }

  /// A play was withdrawn (a repeated section of a longer play): it is not in the play log, so not in the list. A
  /// withdrawn play that continued an earlier one leaves that play listed, with its end as it was.
  func withdrawn(id: UInt64) {
    if let earlierEnd = continuations.removeValue(forKey: id) {
      guard let index = recent.lastIndex(where: { $0.id == id }) else { return }
      recent[index].end = earlierEnd
      records[id]?.end = earlierEnd
      return
    }
    recent.removeAll { $0.id == id }
    records[id] = nil
  }

  /// Folds the play `id`, listed at `index`, into the earlier listed play whose airing its line now continues: that
  /// play's entry takes `id` and `end` (nil: on air again), and the play's own entry goes. False when no listed play
  /// ended on its line.
  private func fold(id: UInt64, at index: Int, end: Date?) -> Bool {
    guard let moved = records[id],
      let earlier = recent.indices.reversed().first(where: { $0 != index && continues(moved, recent[$0]) }),
      let earlierEnd = recent[earlier].end
    else { return false }
    continuations[id] = earlierEnd
    records[id] = records.removeValue(forKey: recent[earlier].id)
    if let end { records[id]?.end = end }
    recent[earlier].id = id
    recent[earlier].end = end
    recent.remove(at: index)
    return true
  }

  /// True when an update moved a play's line by more than the play log writer's refinement
  /// (`PlayCommandApplier.lineMoveSeconds`): where the line before puts the reference at the play's new start, against
  /// the update's reference offset.
  private static func lineMoved(from before: PlayRecord, to after: PlayRecord) -> Bool {
    let elapsedSeconds = after.start.timeIntervalSince(before.start)
    let shiftSeconds = abs(after.refOffsetSeconds - (before.refOffsetSeconds + elapsedSeconds * before.speed))
    return shiftSeconds > PlayCommandApplier.lineMoveSeconds
  }

  /// True when `play` is the rest of the airing of `entry`, a play that ended.
  private func continues(_ play: PlayRecord, _ entry: ChannelStatus.RecentPlay) -> Bool {
    guard entry.end != nil, let earlier = records[entry.id] else { return false }
    return PlayLogStore.continuesAiring(play, of: earlier)
  }
}
