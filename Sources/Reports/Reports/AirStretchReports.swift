import Foundation

/// The channels of `report segments` and `report unknown`: those of the scope, each over the stretches it has
/// (bounds given by `--from` and `--to` still apply).
extension ReportScope {
  package func stretchChannels(in reader: PlayLogReader) throws -> [Channel] {
    let all = try reader.channels()
    var selected = all.map { (id: $0.key, name: $0.value) }.sorted { $0.name < $1.name }
    if let channelName {
      selected = selected.filter { $0.name == channelName }
      guard !selected.isEmpty else {
        throw ReportError.noSuchChannel(channelName, known: all.values.sorted(), path: reader.path)
      }
    }
    return try selected.compactMap { channel in
      guard let range = try reader.stretchRange(channelID: channel.id) else { return nil }
      let approximateFrom = from?.approximateMilliseconds ?? range.first
      let approximateTo = to?.approximateMilliseconds ?? range.last + 1
      let calendar = LocalCalendar(
        timeZone: timeZone(of: channel.name), fromMilliseconds: min(approximateFrom, approximateTo),
        toMilliseconds: max(approximateFrom, approximateTo) + 40 * LocalCalendar.millisecondsPerDay)
      let fromMilliseconds = from?.milliseconds(on: calendar) ?? range.first
      let toMilliseconds = to?.milliseconds(on: calendar) ?? range.last + 1
      if let from, let to, toMilliseconds <= fromMilliseconds { throw ReportError.emptySpan(from: from, to: to) }
      return Channel(
        id: channel.id, name: channel.name, calendar: calendar, fromMilliseconds: fromMilliseconds,
        toMilliseconds: toMilliseconds)
    }
  }
}
