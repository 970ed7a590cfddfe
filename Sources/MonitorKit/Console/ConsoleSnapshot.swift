import Foundation

/// Everything the console shows at one moment, copied out of the running monitor: the input of `ConsoleLayout`.
///
/// A value type: safe to pass between threads.
struct ConsoleSnapshot: Sendable, Equatable {
  /// The time of the snapshot (durations on air are counted to it).
  var now: Date
  var overview: MonitorOverview
  var channels: [ChannelStatus]
  /// Recent events of the log, oldest first (the detail view shows the channel's). The plays panels read the
  /// channels' typed `recentPlays`, not these.
  var events: [MonitorEvent]
  /// CPU the whole process used since the previous frame, in percent of one core; nil for the first frame.
  var cpuPercent: Double?
  /// The zone the console shows times in (see `ConsoleView.displayZone(of:)`).
  var timeZone = TimeZone(identifier: "UTC")!
}

/// What the person looking at the console chose: the selected channel and whether its detail view is open.
///
/// A value type; the console's thread owns it.
struct ConsoleSelection: Sendable, Equatable {
  /// Index into the snapshot's channels.
  var channel = 0
  var showsDetail = false

  /// A key press applied: Up/Down move the selection, Enter opens the detail view, Esc closes it.
  mutating func apply(_ key: ConsoleKey, channelCount: Int) {
    switch key {
    case .up: channel = max(0, channel - 1)
    case .down: channel = min(max(0, channelCount - 1), channel + 1)
    case .pageUp: channel = max(0, channel - 10)
    case .pageDown: channel = min(max(0, channelCount - 1), channel + 10)
    case .home: channel = 0
    case .end: channel = max(0, channelCount - 1)
    case .enter: showsDetail = channelCount > 0
    case .escape: showsDetail = false
    case .quit, .interrupt, .other: break
    }
    channel = min(channel, max(0, channelCount - 1))
  }
}
