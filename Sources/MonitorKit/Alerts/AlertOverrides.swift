import Common
import Matcher

/// An `alerts` section's conditions as written: every key optional, applied over the defaults (the monitor's
/// `alerts` section) or over the monitor's conditions (a channel's `alerts` section), key by key.
///
/// JSON: `{silence: {belowDBFS: -50, forSeconds: 15}, sourceDown: {forSeconds: 10}, lagging: {overSeconds: 10,
/// forSeconds: 0}, playLogUnwritable: {forSeconds: 10}, noCatalog: {minutes: 30}, nodeDown: {forSeconds: 60},
/// holdSeconds: 10}`; each condition also takes `enabled: false` (or `true`, for `noCatalog` with the monitor's
/// minutes).
///
/// Threads: a value; any thread.
struct AlertOverrides: Sendable, Equatable {
  /// One condition's section; which keys it takes depends on the condition.
  struct Section: Sendable, Equatable {
    var enabled: Bool?
    var belowDBFS: Double?
    var forSeconds: Double?
    var overSeconds: Double?
    var minutes: Double?
  }

  var silence = Section()
  var sourceDown = Section()
  var lagging = Section()
  var playLogUnwritable = Section()
  var noCatalog = Section()
  var nodeDown = Section()
  var holdSeconds: Double?

  /// The keys of each condition's section.
  static let sectionKeys: [AlertKind: [String]] = [
    .silence: ["enabled", "belowDBFS", "forSeconds"],
    .sourceDown: ["enabled", "forSeconds"],
    .lagging: ["enabled", "overSeconds", "forSeconds"],
    .playLogUnwritable: ["enabled", "forSeconds"],
    .noCatalog: ["enabled", "minutes"],
    .nodeDown: ["enabled", "forSeconds"],
  ]

  /// No overrides.
  init() {}

  /// Reads the conditions' keys of an `alerts` object (the caller has checked for unknown keys); `channel`: a
  /// channel's section, which has no `playLogUnwritable` or `nodeDown` (conditions of the whole monitor).
  init(from c: KeyedDecodingContainer<AnyCodingKey>) throws {
    func section(_ kind: AlertKind) throws -> Section {
      let key = AnyCodingKey(stringValue: kind.settingsKey)
      guard c.contains(key) else { return Section() }
      let decoder = try c.superDecoder(forKey: key)
      try decoder.rejectUnknownKeys(known: Self.sectionKeys[kind] ?? [])
      let s = try decoder.container(keyedBy: AnyCodingKey.self)
      func number(_ name: String) throws -> Double? {
        try s.decodeIfPresent(Double.self, forKey: .init(stringValue: name))
      }
      return Section(
        enabled: try s.decodeIfPresent(Bool.self, forKey: .init(stringValue: "enabled")),
        belowDBFS: try number("belowDBFS"), forSeconds: try number("forSeconds"),
        overSeconds: try number("overSeconds"), minutes: try number("minutes"))
    }
    silence = try section(.silence)
    sourceDown = try section(.sourceDown)
    lagging = try section(.lagging)
    playLogUnwritable = try section(.playLogUnwritable)
    noCatalog = try section(.noCatalog)
    nodeDown = try section(.nodeDown)
    holdSeconds = try c.decodeIfPresent(Double.self, forKey: .init(stringValue: "holdSeconds"))
  }

  /// The keys of an `alerts` object that hold conditions.
  static let conditionKeys = AlertKind.allCases.map(\.settingsKey) + ["holdSeconds"]

  /// `base` with every key given here replaced. `enabled: false` turns a condition off; `enabled: true`, or any of
  /// its values, turns it on (the defaults fill the values not given).
  func applied(to base: AlertConditions) -> AlertConditions {
    var a = base
    let defaults = AlertConditions.defaults
    func on(_ section: Section, _ isOn: Bool) -> Bool {
      section.enabled ?? (isOn || section != Section())
    }
    a.silence =
      on(silence, base.silence != nil)
      ? AlertConditions.Silence(
        belowDBFS: silence.belowDBFS ?? base.silence?.belowDBFS ?? defaults.silence!.belowDBFS,
        forSeconds: silence.forSeconds ?? base.silence?.forSeconds ?? defaults.silence!.forSeconds) : nil
    a.sourceDownForSeconds =
      on(sourceDown, base.sourceDownForSeconds != nil)
      ? sourceDown.forSeconds ?? base.sourceDownForSeconds ?? defaults.sourceDownForSeconds : nil
    a.lagging =
      on(lagging, base.lagging != nil)
      ? AlertConditions.Lagging(
        overSeconds: lagging.overSeconds ?? base.lagging?.overSeconds ?? defaults.lagging!.overSeconds,
        forSeconds: lagging.forSeconds ?? base.lagging?.forSeconds ?? defaults.lagging!.forSeconds) : nil
    a.playLogUnwritableForSeconds =
      on(playLogUnwritable, base.playLogUnwritableForSeconds != nil)
      ? playLogUnwritable.forSeconds ?? base.playLogUnwritableForSeconds ?? defaults.playLogUnwritableForSeconds
      : nil
    a.noCatalogSeconds =
      on(noCatalog, base.noCatalogSeconds != nil)
      ? noCatalog.minutes.map { $0 * 60 } ?? base.noCatalogSeconds ?? AlertSettings.defaultNoCatalogMinutes * 60 : nil
    a.nodeDownForSeconds =
      on(nodeDown, base.nodeDownForSeconds != nil)
      ? nodeDown.forSeconds ?? base.nodeDownForSeconds ?? defaults.nodeDownForSeconds : nil
    a.holdSeconds = holdSeconds ?? base.holdSeconds
    return a
  }
}
