import Common

/// Scanning the plays of a report's channels.
extension ReportScope {
  /// How often a scan reports progress, in plays.
  static let progressInterval = 4096

  /// Hands `body` every play of `channels` (of items of `itemKind` only, when given) that starts in its channel's
  /// span, in air order, with the index of its channel in `channels`. One channel is read through its index; several in one pass over their joint span.
  /// - Parameter progress: called every few thousand plays with the fraction of the span done.
  package static func forEachPlay(
    of channels: [Channel], in reader: PlayLogReader, itemKind: ItemKind? = nil, progress: ReportProgress?,
    _ body: (PlaySpan, Int) throws -> Void
  ) throws {
    let spans = channels.filter { $0.fromMilliseconds < $0.toMilliseconds }
    guard let from = spans.map(\.fromMilliseconds).min(), let to = spans.map(\.toMilliseconds).max() else { return }
    var indexOfChannel: [Int64: Int] = [:]
    for (index, channel) in channels.enumerated() { indexOfChannel[channel.id] = index }
    var count = 0
    let width = Double(max(to - from, 1))
    try reader.forEachPlay(
      channelID: channels.count == 1 ? channels[0].id : nil, itemKind: itemKind, fromMilliseconds: from,
      toMilliseconds: to
    ) { play in
      count += 1
      if count % progressInterval == 0, let progress {
        progress(Double(play.startMilliseconds - from) / width)
      }
      guard let index = indexOfChannel[play.channelID] else { return }
      let channel = channels[index]
      guard play.startMilliseconds >= channel.fromMilliseconds, play.startMilliseconds < channel.toMilliseconds
      else { return }
      try body(play, index)
    }
    progress?(1)
  }

  /// The one calendar of a table that mixes `channels`: theirs when they share a time zone.
  /// - Throws: ``ReportError/mixedTimeZones(_:)`` when they do not.
  package static func sharedCalendar(of channels: [Channel]) throws -> LocalCalendar? {
    let zones = Set(channels.map(\.calendar.timeZone.identifier))
    guard zones.count <= 1 else {
      throw ReportError.mixedTimeZones(
        Dictionary(uniqueKeysWithValues: channels.map { ($0.name, $0.calendar.timeZone.identifier) }))
    }
    guard let first = channels.first else { return nil }
    // A calendar whose table covers every channel's span.
    let from = channels.map(\.fromMilliseconds).min() ?? first.fromMilliseconds
    let to = channels.map(\.toMilliseconds).max() ?? first.toMilliseconds
    return LocalCalendar(
      timeZone: first.calendar.timeZone, fromMilliseconds: from,
      toMilliseconds: to + 40 * LocalCalendar.millisecondsPerDay)
  }
}
