/// The `quota` report: content-quota compliance per channel, rule, day part and period.
///
/// Columns: `channel,rule,day_part,period_start,period_end,qualifying_plays,total_plays,share_percent,
/// target_percent,result`. `total_plays` counts the plays of the rule's kinds whose local start falls in the day
/// part and the period; `share_percent` is `qualifying_plays / total_plays` in percent with one decimal;
/// `result` is `pass` when the share reaches the target (compared exactly, before rounding), `fail` when it does
/// not, and `no plays` when nothing counted. Periods are the rule's (weeks from Monday by default) unless
/// `grouping` is given, on each station's local calendar.
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
    // Open spans widen to whole periods of the longest grouping among the rules.
    let widest: ReportGrouping = groupings.contains(.month) ? .month : groupings.contains(.week) ? .week : .day
    let channels = try scope.channels(in: reader, grouping: widest)
    // periods[channel][rule], counts[channel][rule][period][dayPart]
    let periods = channels.map { channel in
      groupings.map { channel.calendar.periods($0, from: channel.fromMilliseconds, to: channel.toMilliseconds) }
    }
    var counts = periods.map { perRule in
      perRule.enumerated().map { rule, periods in
        Array(repeating: Array(repeating: Count(), count: rules[rule].dayParts.count), count: periods.count)
      }
    }
    var cursors = channels.map { _ in Array(repeating: 0, count: rules.count) }
    // Whether each item counts and qualifies, per rule, worked out once per item.
    var verdicts: [Int64: [(counts: Bool, qualifies: Bool)]] = [:]

    try ReportScope.forEachPlay(of: channels, in: reader, progress: progress) { play, channelIndex in
      let verdict: [(counts: Bool, qualifies: Bool)]
      if let known = verdicts[play.itemID] {
        verdict = known
      } else {
        let item = try reader.item(play.itemID)
        verdict = rules.map { ($0.counts(item), $0.qualifies(item)) }
        verdicts[play.itemID] = verdict
      }
      let calendar = channels[channelIndex].calendar
      let weekday = LocalCalendar.weekdayIndex(ofDay: calendar.day(of: play.startMilliseconds))
      let timeOfDay = calendar.timeOfDayMilliseconds(play.startMilliseconds)
      for (ruleIndex, rule) in rules.enumerated() where verdict[ruleIndex].counts {
        let rulePeriods = periods[channelIndex][ruleIndex]
        var period = cursors[channelIndex][ruleIndex]
        while period < rulePeriods.count && play.startMilliseconds >= rulePeriods[period].endMilliseconds {
          period += 1
        }
        cursors[channelIndex][ruleIndex] = period
        guard period < rulePeriods.count, rulePeriods[period].contains(play.startMilliseconds) else { continue }
        for (partIndex, part) in rule.dayParts.enumerated()
        where part.contains(weekday: weekday, timeOfDayMilliseconds: timeOfDay) {
          counts[channelIndex][ruleIndex][period][partIndex].total += 1
          if verdict[ruleIndex].qualifies { counts[channelIndex][ruleIndex][period][partIndex].qualifying += 1 }
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
              .number(channel.calendar.format(period.startMilliseconds)),
              .number(channel.calendar.format(period.endMilliseconds)), .number(String(count.qualifying)),
              .number(String(count.total)), .number(share), .number(FixedDecimal.format(rule.targetPercent, places: 1)),
              .text(result),
            ])
          }
        }
      }
    }
  }
}
