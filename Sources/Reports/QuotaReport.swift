/// The `quota` report: content-quota compliance per channel, rule, day part and period.
///
/// Columns: `channel,rule,day_part,period_start,period_end,qualifying_plays,total_plays,share_percent,
/// target_percent,result`. `total_plays` counts the plays of the rule's kinds whose local start falls in the day
/// part and the period; `share_percent` is `qualifying_plays / total_plays` in percent with one decimal;
/// `result` is `pass` when the share reaches the target (compared exactly, before rounding), `fail` when it does
/// not, and `no plays` when nothing counted. Periods are the rule's (weeks from Monday by default) unless
/// `grouping` is given, on each station's local calendar; a period cut by `--from` or `--to` shows the part it
/// covers.
///
/// Thread: any one thread (the reader's).
package struct QuotaReport: Sendable {
  package let scope: ReportScope
  package let rules: [QuotaRule]
  package let grouping: ReportGrouping?

  package init(scope: ReportScope, rules: [QuotaRule], grouping: ReportGrouping? = nil) {
    self.scope = scope
    self.rules = rules
    self.grouping = grouping
  }

  package static let header = [
    "channel", "rule", "day_part", "period_start", "period_end", "qualifying_plays", "total_plays", "share_percent",
    "target_percent", "result",
  ]

  private struct Count {
    var qualifying = 0
    var total = 0
  }

  package func write(from reader: PlayLogReader, to sink: any ReportRowSink, progress: ReportProgress? = nil) throws {
    try sink.writeRow(Self.header.map(CSVField.text))
    guard !rules.isEmpty else { return }
    let groupings = rules.map { grouping ?? $0.period }
    var channels = try scope.channels(in: reader)
    // periods[channel][rule], counts[channel][rule][period][dayPart]. Each rule's periods hold the span; an open
    // end of the span is widened to the edge of the periods, so every period reported is whole.
    let periods = channels.map { channel in
      groupings.map { channel.calendar.periods($0, from: channel.fromMilliseconds, to: channel.toMilliseconds) }
    }
    for index in channels.indices {
      let all = periods[index].joined()
      if scope.from == nil, let first = all.map(\.startMilliseconds).min() {
        channels[index].fromMilliseconds = first
      }
      if scope.to == nil, let last = all.map(\.endMilliseconds).max() { channels[index].toMilliseconds = last }
    }
    var counts = periods.map { perRule in
      perRule.enumerated().map { rule, periods in
        Array(repeating: Array(repeating: Count(), count: rules[rule].dayParts.count), count: periods.count)
      }
    }
    // Whether each item counts and qualifies, per rule, worked out once per item.
    var verdicts: [Int64: [(counts: Bool, qualifies: Bool)]] = [:]
    func verdict(_ itemID: Int64) throws -> [(counts: Bool, qualifies: Bool)] {
      if let known = verdicts[itemID] { return known }
      let item = try reader.item(itemID)
      let verdict = rules.map { ($0.counts(item), $0.qualifies(item)) }
      verdicts[itemID] = verdict
      return verdict
    }

    // One pass over each channel's plays (by start time, a week per read); each play is placed by its local
    // weekday and time of day.
    for (channelIndex, channel) in channels.enumerated() {
      let calendar = channel.calendar
      var cursors = Array(repeating: 0, count: rules.count)
      let width = Double(max(channel.toMilliseconds - channel.fromMilliseconds, 1))
      var count = 0
      try reader.forEachStart(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds, toMilliseconds: channel.toMilliseconds
      ) { itemID, start, _ in
        let verdict = try verdict(itemID)
        let weekday = LocalCalendar.weekdayIndex(ofDay: calendar.day(of: start))
        let timeOfDay = calendar.timeOfDayMilliseconds(start)
        for (ruleIndex, rule) in rules.enumerated() where verdict[ruleIndex].counts {
          let rulePeriods = periods[channelIndex][ruleIndex]
          while cursors[ruleIndex] < rulePeriods.count && start >= rulePeriods[cursors[ruleIndex]].endMilliseconds {
            cursors[ruleIndex] += 1
          }
          let period = cursors[ruleIndex]
          guard period < rulePeriods.count, rulePeriods[period].contains(start) else { continue }
          for (partIndex, part) in rule.dayParts.enumerated()
          where part.contains(weekday: weekday, timeOfDayMilliseconds: timeOfDay) {
            counts[channelIndex][ruleIndex][period][partIndex].total += 1
            if verdict[ruleIndex].qualifies { counts[channelIndex][ruleIndex][period][partIndex].qualifying += 1 }
          }
        }
        count += 1
        if count % ReportScope.progressInterval == 0, let progress {
          progress((Double(channelIndex) + Double(start - channel.fromMilliseconds) / width) / Double(channels.count))
        }
      }
    }

    for (channelIndex, channel) in channels.enumerated() {
      for (ruleIndex, rule) in rules.enumerated() {
        for (partIndex, part) in rule.dayParts.enumerated() {
          for (periodIndex, period) in periods[channelIndex][ruleIndex].enumerated() {
            let count = counts[channelIndex][ruleIndex][periodIndex][partIndex]
            let share =
              count.total == 0
              ? ""
              : FixedDecimal.format(
                Double(count.qualifying) * 100 / Double(count.total), places: 1)
            let result =
              count.total == 0
              ? "no plays" : rule.isMet(qualifying: count.qualifying, total: count.total) ? "pass" : "fail"
            try sink.writeRow([
              .text(channel.name), .text(rule.name), .text(part.name),
              // A period cut by --from or --to shows the part it covers.
              .number(channel.calendar.format(max(period.startMilliseconds, channel.fromMilliseconds))),
              .number(channel.calendar.format(min(period.endMilliseconds, channel.toMilliseconds))),
              .number(String(count.qualifying)),
              .number(String(count.total)), .number(share), .number(FixedDecimal.format(rule.targetPercent, places: 1)),
              .text(result),
            ])
          }
        }
      }
    }
  }
}
