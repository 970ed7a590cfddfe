import Foundation

/// The plays one channel recognized since the start, as its status shows them: how many started, and the newest few
/// with their times (the console's plays panel and detail view read them from `ChannelStatus`, typed, instead of
/// parsing the log's play events back).
///
/// The count is of every play started, withdrawn ones included, across catalog reloads; the list keeps the newest
/// `kept` plays, withdrawn ones removed.
///
/// Threads: the channel's worker (its `PlayEventSink`s write it, the pipeline copies it into the status).
final class PlayHistory {
  /// Plays kept in the list: more than a console of any height shows in its plays panel.
  static let kept = 100

  private(set) var startedCount = 0
  /// The newest plays, oldest start first.
  private(set) var recent: [ChannelStatus.RecentPlay] = []

  /// A play went on air; `id` is its play-log token.
  func started(id: UInt64, channel: String, title: String, artist: String, start: Date) {
    startedCount += 1
    recent.append(ChannelStatus.RecentPlay(id: id, channel: channel, title: title, artist: artist, start: start))
    if recent.count > Self.kept { recent.removeFirst(recent.count - Self.kept) }
  }

  /// The play log's times for a play as they now stand: its start, which the matcher can move after the play was first
  /// shown (a line refitted, an opening judged masked: up to `noisyOpeningSnapSeconds` earlier), and its end once it
  /// ended.
  func logged(id: UInt64, start: Date, end: Date?) {
    guard let index = recent.lastIndex(where: { $0.id == id }) else { return }
    recent[index].start = start
    if let end { recent[index].end = end }
  }

  /// Takes over `earlier`'s count and list: a channel restarted by a reload counts its plays since the monitor
  /// started.
  func continuing(_ earlier: PlayHistory) {
    startedCount = earlier.startedCount
    recent = earlier.recent
  }

  /// A play was withdrawn (a repeated section of a longer play): it is not in the play log, so not in the list.
  func withdrawn(id: UInt64) {
    recent.removeAll { $0.id == id }
  }
}
