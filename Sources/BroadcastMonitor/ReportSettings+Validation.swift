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
      if let listeners = soundExchange.listenersPerPlay, !(listeners.isFinite && listeners >= 0) {
        throw ConfigurationError(
          keyPath: origin.place(of: "reports.soundExchange.listenersPerPlay"),
          reason: "\(listeners) is not a number of listeners ≥ 0; leave the key out when it is not known")
      }
    }
    if proofOfPlay.kind.isEmpty {
      throw ConfigurationError(
        keyPath: origin.place(of: "reports.proofOfPlay.kind"), reason: "is empty; use for example \"ad\"")
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
      if settings.attribute.isEmpty {
        throw fail("attribute", "is empty; name the metadata column that qualifies an item, such as \"mapl\"")
      }
      if settings.qualifyingValues.isEmpty == settings.flags.isEmpty {
        throw fail(
          "qualifyingValues",
          "give either qualifyingValues (values that qualify, such as [\"fr\"]) or flags with minimumFlags "
            + "(such as [\"M\", \"A\", \"P\", \"L\"] and 2), not both and not neither")
      }
      if !settings.flags.isEmpty && !(1...settings.flags.count).contains(settings.minimumFlags) {
        throw fail("minimumFlags", "\(settings.minimumFlags) is out of range; use 1…\(settings.flags.count)")
      }
      if settings.kinds.isEmpty || settings.kinds.contains(where: \.isEmpty) {
        throw fail("kinds", "name the item kinds that count, such as [\"song\"]")
      }
      if !(settings.targetPercent.isFinite && (0...100).contains(settings.targetPercent)) {
        throw fail("targetPercent", "\(settings.targetPercent) is not a percentage 0…100")
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
      rules.append(
        QuotaRule(
          name: settings.name, attribute: settings.attribute, qualifyingValues: settings.qualifyingValues,
          flags: settings.flags, minimumFlags: settings.minimumFlags, kinds: Set(settings.kinds),
          targetPercent: settings.targetPercent, period: settings.period, dayParts: dayParts))
    }
    return rules
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
