/// The `quota` report: content-quota compliance per channel, rule, day part and period.
///
/// Columns: `channel,rule,day_part,period_start,period_end,qualifying_plays,total_plays,fragments,share_percent,
/// target_percent,result`. `total_plays` counts the plays of the rule's kinds whose local start falls in the day
/// part and the period and that aired long enough to be a selection (``QuotaRule``); `fragments` counts those that
/// did not, which are left out of both numbers. `share_percent` is `qualifying_plays / total_plays` in percent with
/// one decimal; `result` is `pass` when the share reaches the target (compared exactly, before rounding), `fail`
/// when it does not, and `no plays` when nothing counted.
///
/// Each sub-quota of a rule follows the rule's row in a row of its own, named `rule / sub-quota`: its
/// `qualifying_plays` are the rule's qualifying plays that also qualify for it, its `total_plays` the rule's
/// qualifying plays, and its `fragments` empty (the rule's row has them).
///
/// A rule runs only on the channels it names (all when it names none). Periods are the rule's (weeks from its
/// `weekStartsOn`, Monday by default) unless `grouping` is given, on each station's local calendar; a period cut by
/// `--from` or `--to` shows the part it covers. Consecutive periods with no plays at all (none counted, no
/// fragments) are summarised in one `no plays` row that spans them.
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
    "channel", "rule", "day_part", "period_start", "period_end", "qualifying_plays", "total_plays", "fragments",
    "share_percent", "target_percent", "result",
  ]

  private struct Count {
    var qualifying = 0
    var total = 0
    var fragments = 0
    /// Per sub-quota: the qualifying plays that also qualify for it.
    var sub: [Int]

    var isEmpty: Bool { total == 0 && fragments == 0 }
  }

  /// What a rule makes of one item, worked out once per item.
  private struct Verdict {
    var counts: Bool
    var qualifies: Bool
    var minimumPlayedMilliseconds: Int64
    var subQualifies: [Bool]
  }

  package func write(from reader: PlayLogReader, to sink: any ReportRowSink, progress: ReportProgress? = nil) throws {
    try sink.writeRow(Self.header.map(CSVField.text))
    guard !rules.isEmpty else { return }
    let groupings = rules.map { grouping ?? $0.period }
    var channels = try scope.channels(in: reader)
    // periods[channel][rule], counts[channel][rule][period][dayPart]. Each rule's periods hold the span (none for
    // a channel the rule does not apply to); an open end of the span is widened to the edge of the periods, so
    // every period reported is whole.
    let periods = channels.map { channel in
      rules.indices.map { rule in
        rules[rule].applies(to: channel.name)
          ? channel.calendar.periods(
            groupings[rule], from: channel.fromMilliseconds, to: channel.toMilliseconds,
            weekStartsOn: rules[rule].weekStartsOn) : []
      }
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
        Array(
          repeating: Array(
            repeating: Count(sub: Array(repeating: 0, count: rules[rule].subQuotas.count)),
            count: rules[rule].dayParts.count),
          count: periods.count)
      }
    }
    var verdicts: [Int64: [Verdict]] = [:]
    func verdict(_ itemID: Int64) throws -> [Verdict] {
      if let known = verdicts[itemID] { return known }
      let item = try reader.item(itemID)
      let verdict = rules.map { rule in
        Verdict(
          counts: rule.counts(item), qualifies: rule.qualifies(item),
          minimumPlayedMilliseconds: rule.minimumPlayedMilliseconds(of: item),
          subQualifies: rule.subQuotas.map { $0.criterion.qualifies(item) })
      }
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
      ) { itemID, start, end in
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
          let isFragment = end - start < verdict[ruleIndex].minimumPlayedMilliseconds
          for (partIndex, part) in rule.dayParts.enumerated()
          where part.contains(weekday: weekday, timeOfDayMilliseconds: timeOfDay) {
            if isFragment {
              counts[channelIndex][ruleIndex][period][partIndex].fragments += 1
              continue
            }
            counts[channelIndex][ruleIndex][period][partIndex].total += 1
            guard verdict[ruleIndex].qualifies else { continue }
            counts[channelIndex][ruleIndex][period][partIndex].qualifying += 1
            for (sub, qualifies) in verdict[ruleIndex].subQualifies.enumerated() where qualifies {
              counts[channelIndex][ruleIndex][period][partIndex].sub[sub] += 1
            }
          }
        }
        count += 1
        if count % ReportScope.progressInterval == 0, let progress {
          progress((Double(channelIndex) + Double(start - channel.fromMilliseconds) / width) / Double(channels.count))
        }
      }
    }

    for (channelIndex, channel) in channels.enumerated() {
      // A period cut by --from or --to shows the part it covers.
      func bounds(_ first: ReportPeriod, _ last: ReportPeriod) -> [CSVField] {
        [
          .number(channel.calendar.format(max(first.startMilliseconds, channel.fromMilliseconds))),
          .number(channel.calendar.format(min(last.endMilliseconds, channel.toMilliseconds))),
        ]
      }
      func row(
        _ rule: String, _ part: String, _ first: ReportPeriod, _ last: ReportPeriod, qualifying: Int, total: Int,
        fragments: String, target: Double, isMet: Bool
      ) throws {
        let share = total == 0 ? "" : FixedDecimal.format(Double(qualifying) * 100 / Double(total), places: 1)
        let result = total == 0 ? "no plays" : isMet ? "pass" : "fail"
        try sink.writeRow(
          [.text(channel.name), .text(rule), .text(part)] + bounds(first, last) + [
            .number(String(qualifying)), .number(String(total)), .number(fragments), .number(share),
            .number(FixedDecimal.format(target, places: 1)), .text(result),
          ])
      }
      for (ruleIndex, rule) in rules.enumerated() {
        let rulePeriods = periods[channelIndex][ruleIndex]
        for (partIndex, part) in rule.dayParts.enumerated() {
          // The first of the run of periods with no plays that ends before `periodIndex`, if any.
          var emptySince: Int?
          func flushEmpty(before periodIndex: Int) throws {
            guard let first = emptySince else { return }
            emptySince = nil
            try row(
              rule.name, part.name, rulePeriods[first], rulePeriods[periodIndex - 1], qualifying: 0, total: 0,
              fragments: "0", target: rule.targetPercent, isMet: false)
          }
          for (periodIndex, period) in rulePeriods.enumerated() {
            let count = counts[channelIndex][ruleIndex][periodIndex][partIndex]
            if count.isEmpty {
              if emptySince == nil { emptySince = periodIndex }
              continue
            }
            try flushEmpty(before: periodIndex)
            try row(
              rule.name, part.name, period, period, qualifying: count.qualifying, total: count.total,
              fragments: String(count.fragments), target: rule.targetPercent,
              isMet: rule.isMet(qualifying: count.qualifying, total: count.total))
            for (subIndex, subQuota) in rule.subQuotas.enumerated() {
              try row(
                rule.name + " / " + subQuota.name, part.name, period, period, qualifying: count.sub[subIndex],
                total: count.qualifying, fragments: "", target: subQuota.targetPercent,
                isMet: subQuota.isMet(qualifying: count.sub[subIndex], total: count.qualifying))
            }
          }
          try flushEmpty(before: rulePeriods.count)
        }
      }
    }
  }
}
