import Common
import Foundation
import Matcher
import Reports
import TestSupport
import Testing

@testable import MonitorKit

@Suite("ReportSettings")
struct ReportSettingsTests {
  let folder: ConfigurationFolder

  init() throws {
    folder = try ConfigurationFolder()
  }

  /// The minimal configuration with `reports` added.
  func load(reports: String) throws -> MonitorConfiguration {
    try folder.load(
      """
      {catalogPath: "catalog.bmcat", databasePath: "plays.sqlite", channels: [{name: "fm", source: "jack"}],
       reports: \(reports)}
      """)
  }

  @Test("Without a reports section: no SoundExchange settings, ads by advertiser, no quota rules")
  func defaults() throws {
    let configuration = try folder.load(ConfigurationFolder.minimal)
    #expect(configuration.reports == ReportSettings())
    #expect(configuration.reports.soundExchange == nil)
    #expect(configuration.reports.proofOfPlay == ProofOfPlaySettings(kind: .ad, advertiserAttribute: "advertiser"))
    #expect(configuration.reports.quotaRules.isEmpty)
  }

  @Test("A transmission category in lower case is taken in upper case, as the report and its file name need it")
  func transmissionCategoryInUpperCase() throws {
    let configuration = try load(reports: "{soundExchange: {serviceName: \"x\", transmissionCategory: \"b\"}}")
    #expect(configuration.reports.soundExchange?.transmissionCategory == "B")
  }

  @Test("A quota rule becomes the rule the report checks, with its documented defaults")
  func quotaRule() throws {
    let configuration = try load(
      reports: """
        {quotaRules: [{name: "CanCon", attribute: "mapl", flags: ["M", "A", "P", "L"], minimumFlags: 2,
          targetPercent: 35, dayParts: [{name: "Mon-Fri 6-18", days: ["mon", "tue", "wed", "thu", "fri"],
          startTime: "06:00", endTime: "18:00"}, {name: "late", startTime: "18:00"}]}]}
        """)
    let rules = try configuration.reports.quotaRules(origin: ConfigurationOrigin(file: "monitor.json5"))
    #expect(
      rules == [
        QuotaRule(
          name: "CanCon", attribute: "mapl", flags: ["M", "A", "P", "L"], minimumFlags: 2, kinds: [.song],
          targetPercent: 35, period: .week,
          dayParts: [
            DayPart(name: "Mon-Fri 6-18", weekdays: Set(0...4), startMinute: 360, endMinute: 1080),
            DayPart(name: "late", weekdays: Set(0...6), startMinute: 1080, endMinute: 1440),
          ])
      ])
  }

  @Test("A quota rule's week start, channels, fragment threshold and sub-quotas reach the rule")
  func quotaRuleScope() throws {
    let configuration = try load(
      reports: """
        {quotaRules: [{name: "FR", attribute: "language", qualifyingValues: ["fr"], targetPercent: 40,
          weekStartsOn: "Sunday", channels: ["fm"], minimumPlayedSeconds: 60,
          subQuotas: [{name: "new", attribute: "novelty", qualifyingValues: ["new talent"], targetPercent: 50}]}]}
        """)
    let rules = try configuration.reports.quotaRules(origin: ConfigurationOrigin(file: "monitor.json5"))
    #expect(
      rules == [
        QuotaRule(
          name: "FR", attribute: "language", qualifyingValues: ["fr"], targetPercent: 40, weekStartsOn: 6,
          channels: ["fm"], minimumPlayedSeconds: 60,
          subQuotas: [
            QuotaSubQuota(
              name: "new", criterion: QuotaCriterion(attribute: "novelty", qualifyingValues: ["new talent"]),
              targetPercent: 50)
          ])
      ])
    #expect(rules[0].minimumPlayedFraction == 0.9)
  }

  @Test(
    "A bad value is refused with its key path and the fix",
    arguments: [
      ("{soundExchange: {serviceName: \"\", transmissionCategory: \"B\"}}", "reports.soundExchange.serviceName"),
      ("{soundExchange: {serviceName: \"x\"}}", "reports.soundExchange.transmissionCategory"),
      (
        "{soundExchange: {serviceName: \"x\", transmissionCategory: \"E\"}}",
        "reports.soundExchange.transmissionCategory"
      ),
      (
        "{soundExchange: {serviceName: \"x\", transmissionCategory: \"BB\"}}",
        "reports.soundExchange.transmissionCategory"
      ),
      (
        "{soundExchange: {serviceName: \"x\", transmissionCategory: \"B\", listenersPerPlay: 1e300}}",
        "reports.soundExchange.listenersPerPlay"
      ),
      (
        "{soundExchange: {serviceName: \"x\", transmissionCategory: \"B\", channels: {fm: {serviceName: \"\"}}}}",
        "reports.soundExchange.channels.fm.serviceName"
      ),
      (
        "{soundExchange: {serviceName: \"x\", transmissionCategory: \"B\", channels: {fm: {icecastMount: \"live\"}}}}",
        "reports.soundExchange.channels.fm.icecastMount"
      ),
      ("{proofOfPlay: {kind: \"ad\", advertizer: \"x\"}}", "reports.proofOfPlay.advertizer"),
      ("{proofOfPlay: {kind: \"advert\"}}", "reports.proofOfPlay.kind"),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], kinds: [\"songs\"]}]}",
        "reports.quotaRules[0].kinds[0]"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 135, qualifyingValues: [\"y\"]}]}",
        "reports.quotaRules[0].targetPercent"
      ),
      ("{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35}]}", "reports.quotaRules[0].qualifyingValues"),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, flags: [\"M\"], minimumFlags: 2}]}",
        "reports.quotaRules[0].minimumFlags"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], dayParts: "
          + "[{name: \"d\", days: [\"monday\"]}]}]}", "reports.quotaRules[0].dayParts[0].days[0]"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], dayParts: "
          + "[{name: \"d\", startTime: \"18:00\", endTime: \"06:00\"}]}]}", "reports.quotaRules[0].dayParts[0].endTime"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], dayParts: "
          + "[{name: \"d\", startTime: \"6:00\"}]}]}", "reports.quotaRules[0].dayParts[0].startTime"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, period: \"year\", qualifyingValues: [\"y\"]}]}",
        "reports.quotaRules[0].period"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], "
          + "weekStartsOn: \"funday\"}]}", "reports.quotaRules[0].weekStartsOn"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], channels: []}]}",
        "reports.quotaRules[0].channels"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], "
          + "minimumPlayedFraction: 1.5}]}", "reports.quotaRules[0].minimumPlayedFraction"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], "
          + "minimumPlayedFraction: 0.5, minimumPlayedSeconds: 30}]}", "reports.quotaRules[0].minimumPlayedSeconds"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], "
          + "minimumPlayedSeconds: 1e300}]}", "reports.quotaRules[0].minimumPlayedSeconds"
      ),
      (
        "{quotaRules: [{name: \"q\", attribute: \"a\", targetPercent: 35, qualifyingValues: [\"y\"], "
          + "subQuotas: [{name: \"s\", attribute: \"b\", flags: [\"N\"], targetPercent: 150}]}]}",
        "reports.quotaRules[0].subQuotas[0].targetPercent"
      ),
      (
        "{soundExchange: {serviceName: \"S\", transmissionCategory: \"B\", channels: {web: {icecastStatsURL: "
          + "\"icecast:8000/status-json.xsl\"}}}}", "reports.soundExchange.channels.web.icecastStatsURL"
      ),
      (
        "{soundExchange: {serviceName: \"S\", transmissionCategory: \"B\", icecastStatsSeconds: 300}}",
        "reports.soundExchange.icecastStatsSeconds"
      ),
    ])
  func refused(reports: String, keyPath: String) throws {
    let error = try #require(throws: ConfigurationError.self) { try load(reports: reports) }
    #expect(error.keyPath == "monitor.json5: \(keyPath)", "\(error)")
  }

  @Test("The example configuration's reports section loads: SoundExchange, proof of play, CRTC and France rules")
  func example() throws {
    let example = Fixtures.packageRoot.appendingPathComponent("config/monitor.example.json5").path
    let configuration = try MonitorConfiguration.decode(
      file: example, currentDirectory: "/", suppliedElsewhere: [.catalogPath, .databasePath, .channels])
    try configuration.reports.validate(origin: ConfigurationOrigin(file: example))
    #expect(
      configuration.reports.soundExchange
        == SoundExchangeSettings(
          serviceName: "Example FM", transmissionCategory: "B", listenersPerPlay: 1200,
          channels: [
            "web": SoundExchangeChannelSettings(
              serviceName: "Example FM HD2", icecastMount: "/live",
              icecastStatsURL: "http://127.0.0.1:8000/status-json.xsl")
          ]))
    let rules = try configuration.reports.quotaRules(origin: ConfigurationOrigin(file: example))
    #expect(rules.map(\.name) == ["CRTC Canadian content", "France 40% francophone"])
    #expect(rules[0].dayParts.map(\.name) == ["broadcast week", "Mon-Fri 6-18"])
    #expect(rules[1].targetPercent == 40 && rules[1].dayParts.count == 1)
    #expect(rules[0].weekStartsOn == 6 && rules[0].channels == ["fm1", "fm2"])
    #expect(rules[1].subQuotas.map(\.name) == ["new productions or new talent"])
  }
}
