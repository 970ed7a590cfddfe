import Common
import Matcher
import Reports

/// The checks the `reports` section passes when the configuration is loaded, and its conversion to the types the
/// reports use (once, at load time).
extension ReportSettings {
  /// Throws the first problem as a `ConfigurationError` naming the key (`monitor.json5: reports.quotaRules[0].name`).
  func validate(origin: ConfigurationOrigin) throws(ConfigurationError) {
    if let soundExchange {
      if soundExchange.serviceName.isEmpty {
        throw ConfigurationError(
          keyPath: origin.place(of: "reports.soundExchange.serviceName"),
          reason: "is empty; give the service's name as licensed, such as \"CKUA Radio Network\"")
      }
      if soundExchange.transmissionCategory.isEmpty {
        throw ConfigurationError(
          keyPath: origin.place(of: "reports.soundExchange.transmissionCategory"),
          reason: "is empty; give SoundExchange's transmission category code for the service, such as \"B\"")
      }
      if !SoundExchangeReport.transmissionCategories.contains(soundExchange.transmissionCategory) {
        throw ConfigurationError(
          keyPath: origin.place(of: "reports.soundExchange.transmissionCategory"),
          reason: "`\(soundExchange.transmissionCategory)` is not a transmission category of 37 CFR 370.4; give one of "
            + SoundExchangeReport.transmissionCategories.joined(separator: ", ")
            + " (D to G are reserved), such as \"B\" for a broadcaster's simulcast")
      }
      if let listeners = soundExchange.listenersPerPlay,
        !(listeners >= 0 && listeners <= HourlyAudienceFile.maximumListeners)
      {
        throw ConfigurationError(
          keyPath: origin.place(of: "reports.soundExchange.listenersPerPlay"),
          reason: "\(listeners) is not a number of listeners from 0 to 1000000000; leave the key out when it is not "
            + "known")
      }
      for (channel, settings) in soundExchange.channels.sorted(by: { $0.key < $1.key }) {
        if let name = settings.serviceName, name.isEmpty {
          throw ConfigurationError(
            keyPath: origin.place(of: "reports.soundExchange.channels.\(channel).serviceName"),
            reason: "is empty; give the call letters the channel is licensed under, such as \"WXYZ-FM\", or leave "
              + "it out for serviceName")
        }
        if let mount = settings.icecastMount, !mount.hasPrefix("/") {
          throw ConfigurationError(
            keyPath: origin.place(of: "reports.soundExchange.channels.\(channel).icecastMount"),
            reason: "`\(mount)` is not a mount; give the path listeners request, such as \"/live\"")
        }
        if let url = settings.icecastStatsURL, IcecastStatsSampler.endpoint(url) == nil {
          throw ConfigurationError(
            keyPath: origin.place(of: "reports.soundExchange.channels.\(channel).icecastStatsURL"),
            reason: "`\(url)` is not an http:// or https:// URL; give Icecast's JSON stats, such as "
              + "\"http://icecast.example:8000/status-json.xsl\"")
        }
      }
      let seconds = soundExchange.icecastStatsSeconds
      if !(seconds >= 1 && seconds <= ListenerSamples.longestIntervalSeconds) {
        throw ConfigurationError(
          keyPath: origin.place(of: "reports.soundExchange.icecastStatsSeconds"),
          reason: "\(seconds) is not a number of seconds from 1 to \(Int(ListenerSamples.longestIntervalSeconds)); "
            + "15 samples a stream's listeners four times a minute")
      }
    }
    if proofOfPlay.advertiserAttribute.isEmpty {
      throw ConfigurationError(
        keyPath: origin.place(of: "reports.proofOfPlay.advertiserAttribute"),
        reason: "is empty; name the metadata column that holds the advertiser, such as \"advertiser\"")
    }
    _ = try quotaRules(origin: origin)
  }

  /// The quota rules, checked, as the `quota` report uses them.
  func quotaRules(origin: ConfigurationOrigin) throws(ConfigurationError) -> [QuotaRule] {
    var rules: [QuotaRule] = []
    for (index, settings) in quotaRules.enumerated() {
      func fail(_ key: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(keyPath: origin.place(of: "reports.quotaRules[\(index)].\(key)"), reason: reason)
      }
      if settings.name.isEmpty { throw fail("name", "is empty; name the rule, such as \"CRTC Canadian content\"") }
      if let first = quotaRules.firstIndex(where: { $0.name == settings.name }), first < index {
        throw fail("name", "`\(settings.name)` is already the name of quotaRules[\(first)]; give each rule its own")
      }
      let criterion = try Self.criterion(
        attribute: settings.attribute, qualifyingValues: settings.qualifyingValues, flags: settings.flags,
        minimumFlags: settings.minimumFlags, fail: fail)
      if settings.kinds.isEmpty {
        throw fail("kinds", "name the item kinds that count, such as [\"song\"]")
      }
      if !(settings.targetPercent.isFinite && (0...100).contains(settings.targetPercent)) {
        throw fail("targetPercent", "\(settings.targetPercent) is not a percentage 0…100")
      }
      let startDay = settings.weekStartsOn.lowercased()
      guard
        let weekStartsOn = DayPartSettings.weekdayNames.firstIndex(of: startDay)
          ?? Self.fullWeekdayNames.firstIndex(of: startDay)
      else {
        throw fail(
          "weekStartsOn",
          "`\(settings.weekStartsOn)` is not a weekday; use \(DayPartSettings.weekdayNames.joined(separator: ", "))")
      }
      if let channels = settings.channels, channels.isEmpty || channels.contains(where: \.isEmpty) {
        throw fail("channels", "name the channels the rule applies to, such as [\"fm\"], or leave it out for all")
      }
      if settings.minimumPlayedFraction != nil && settings.minimumPlayedSeconds != nil {
        throw fail(
          "minimumPlayedSeconds", "give either minimumPlayedFraction or minimumPlayedSeconds, not both")
      }
      if let fraction = settings.minimumPlayedFraction, !(fraction.isFinite && (0...1).contains(fraction)) {
        throw fail(
          "minimumPlayedFraction", "\(fraction) is not a share of the item's length 0…1, such as 0.9")
      }
      if let seconds = settings.minimumPlayedSeconds, !(seconds >= 0 && seconds <= 86_400) {
        throw fail("minimumPlayedSeconds", "\(seconds) is not a number of seconds from 0 to 86400, such as 60")
      }
      var subQuotas: [QuotaSubQuota] = []
      for (subIndex, sub) in settings.subQuotas.enumerated() {
        func failSub(_ key: String, _ reason: String) -> ConfigurationError {
          fail("subQuotas[\(subIndex)].\(key)", reason)
        }
        if sub.name.isEmpty {
          throw failSub("name", "is empty; name the sub-quota, such as \"new productions or new talent\"")
        }
        if let first = settings.subQuotas.firstIndex(where: { $0.name == sub.name }), first < subIndex {
          throw failSub("name", "`\(sub.name)` is already the name of subQuotas[\(first)]; give each its own")
        }
        let subCriterion = try Self.criterion(
          attribute: sub.attribute, qualifyingValues: sub.qualifyingValues, flags: sub.flags,
          minimumFlags: sub.minimumFlags, fail: failSub)
        if !(sub.targetPercent.isFinite && (0...100).contains(sub.targetPercent)) {
          throw failSub("targetPercent", "\(sub.targetPercent) is not a percentage 0…100")
        }
        subQuotas.append(QuotaSubQuota(name: sub.name, criterion: subCriterion, targetPercent: sub.targetPercent))
      }
      if settings.dayParts.isEmpty {
        throw fail("dayParts", "is empty; leave it out for the whole week, or list the parts to check")
      }
      var dayParts: [DayPart] = []
      for (partIndex, part) in settings.dayParts.enumerated() {
        let place = "dayParts[\(partIndex)]"
        if part.name.isEmpty { throw fail("\(place).name", "is empty; name the day part, such as \"Mon-Fri 6-18\"") }
        var weekdays: Set<Int> = []
        for (dayIndex, day) in part.days.enumerated() {
          guard let weekday = DayPartSettings.weekdayNames.firstIndex(of: day.lowercased()) else {
            throw fail(
              "\(place).days[\(dayIndex)]",
              "`\(day)` is not a weekday; use \(DayPartSettings.weekdayNames.joined(separator: ", "))")
          }
          weekdays.insert(weekday)
        }
        if weekdays.isEmpty { throw fail("\(place).days", "is empty; list at least one weekday") }
        guard let start = Self.minutes(part.startTime), start < 1440 else {
          throw fail("\(place).startTime", "`\(part.startTime)` is not a time HH:MM from 00:00 to 23:59")
        }
        guard let end = Self.minutes(part.endTime) else {
          throw fail("\(place).endTime", "`\(part.endTime)` is not a time HH:MM from 00:01 to 24:00")
        }
        if end <= start {
          throw fail(
            "\(place).endTime",
            "\(part.endTime) is not after startTime \(part.startTime); a day part cannot cross midnight, so split "
              + "it in two")
        }
        dayParts.append(DayPart(name: part.name, weekdays: weekdays, startMinute: start, endMinute: end))
      }
      var rule = QuotaRule(
        name: settings.name, attribute: "", kinds: Set(settings.kinds), targetPercent: settings.targetPercent,
        period: settings.period, weekStartsOn: weekStartsOn, dayParts: dayParts,
        channels: settings.channels.map(Set.init),
        minimumPlayedFraction: settings.minimumPlayedFraction ?? QuotaRule.defaultMinimumPlayedFraction,
        minimumPlayedSeconds: settings.minimumPlayedSeconds, subQuotas: subQuotas)
      rule.criterion = criterion
      rules.append(rule)
    }
    return rules
  }

  /// The weekday names in full, Monday first, which `weekStartsOn` also takes.
  static let fullWeekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

  /// What qualifies an item for a rule or a sub-quota, checked; `fail` names the key.
  private static func criterion(
    attribute: String, qualifyingValues: [String], flags: [String], minimumFlags: Int,
    fail: (String, String) -> ConfigurationError
  ) throws(ConfigurationError) -> QuotaCriterion {
    if attribute.isEmpty {
      throw fail("attribute", "is empty; name the metadata column that qualifies an item, such as \"mapl\"")
    }
    if qualifyingValues.isEmpty == flags.isEmpty {
      throw fail(
        "qualifyingValues",
        "give either qualifyingValues (values that qualify, such as [\"fr\"]) or flags with minimumFlags "
          + "(such as [\"M\", \"A\", \"P\", \"L\"] and 2), not both and not neither")
    }
    if !flags.isEmpty && !(1...flags.count).contains(minimumFlags) {
      throw fail("minimumFlags", "\(minimumFlags) is out of range; use 1…\(flags.count)")
    }
    return QuotaCriterion(
      attribute: attribute, qualifyingValues: qualifyingValues, flags: flags, minimumFlags: minimumFlags)
  }

  /// `HH:MM` as minutes after midnight, 0…1440 (`24:00`); nil for anything else.
  static func minutes(_ text: String) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int(parts[0]),
      let minutes = Int(parts[1]), parts.allSatisfy({ $0.allSatisfy(\.isASCII) }), (0...24).contains(hours),
      (0...59).contains(minutes), hours < 24 || minutes == 0
    else { return nil }
    return hours * 60 + minutes
  }
}
