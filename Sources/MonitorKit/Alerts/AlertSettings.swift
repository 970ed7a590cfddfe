import Common
import Foundation
import Matcher

/// The `alerts` section of the configuration: the conditions' defaults for every channel (`AlertOverrides` over
/// `AlertConditions.defaults`; a channel's own `alerts` section changes them key by key), and where alerts are
/// delivered besides the play log and the log: webhooks and a command. Every key is optional.
///
/// Threads: a value; any thread.
struct AlertSettings: Sendable, Equatable {
  /// The conditions as written in the section.
  var overrides = AlertOverrides()
  /// Each alert opened or closed is POSTed as JSON to each of these (`AlertWebhook`).
  var webhooks: [AlertWebhookSettings] = []
  /// A shell command run for each alert opened or closed, with the alert in its environment and as JSON on its
  /// standard input (`AlertCommand`). Default: none.
  var command: String?
  /// How long the command may run before it is killed, in seconds. Default 10.
  var commandTimeoutSeconds = 10.0

  /// `noCatalog: {enabled: true}` without minutes: half an hour without a catalog item is unusual on a music
  /// channel, and usual enough on a talk channel that the latter sets its own.
  static let defaultNoCatalogMinutes = 30.0

  /// The monitor's conditions: the defaults with this section applied.
  var conditions: AlertConditions { overrides.applied(to: .defaults) }

  /// `channel`'s conditions: the monitor's with the channel's own `alerts` section applied.
  func conditions(for channel: ChannelConfiguration) -> AlertConditions {
    channel.alertOverrides.applied(to: conditions)
  }

  static let deliveryKeys = ["webhooks", "command", "commandTimeoutSeconds"]

  init() {}
}

extension AlertSettings: Decodable {
  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: AlertOverrides.conditionKeys + Self.deliveryKeys)
    let c = try decoder.container(keyedBy: AnyCodingKey.self)
    overrides = try AlertOverrides(from: c)
    webhooks = try c.decodeIfPresent([AlertWebhookSettings].self, forKey: .init(stringValue: "webhooks")) ?? []
    command = try c.decodeIfPresent(String.self, forKey: .init(stringValue: "command"))
    commandTimeoutSeconds =
      try c.decodeIfPresent(Double.self, forKey: .init(stringValue: "commandTimeoutSeconds")) ?? 10
  }
}

extension AlertOverrides: Decodable {
  /// A channel's `alerts` section: the conditions only (no `playLogUnwritable` or `nodeDown`, conditions of the
  /// whole monitor; no delivery, which is the monitor's).
  init(from decoder: any Decoder) throws {
    let monitorWide = Set(AlertKind.allCases.filter(\.isMonitorWide).map(\.settingsKey))
    try decoder.rejectUnknownKeys(known: Self.conditionKeys.filter { !monitorWide.contains($0) })
    try self.init(from: decoder.container(keyedBy: AnyCodingKey.self))
  }
}

extension AlertSettings: Encodable {
  func encode(to encoder: any Encoder) throws {
    try overrides.encode(to: encoder)
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    if !webhooks.isEmpty { try c.encode(webhooks, forKey: .init(stringValue: "webhooks")) }
    try c.encodeIfPresent(command, forKey: .init(stringValue: "command"))
    try c.encode(commandTimeoutSeconds, forKey: .init(stringValue: "commandTimeoutSeconds"))
  }
}

extension AlertOverrides: Encodable {
  /// The keys given, in the shape they are read.
  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    let sections: [(AlertKind, Section)] = [
      (.silence, silence), (.sourceDown, sourceDown), (.lagging, lagging), (.playLogUnwritable, playLogUnwritable),
      (.noCatalog, noCatalog), (.nodeDown, nodeDown),
    ]
    for (kind, section) in sections where section != Section() {
      var s = c.nestedContainer(keyedBy: AnyCodingKey.self, forKey: .init(stringValue: kind.settingsKey))
      try s.encodeIfPresent(section.enabled, forKey: .init(stringValue: "enabled"))
      try s.encodeIfPresent(section.belowDBFS, forKey: .init(stringValue: "belowDBFS"))
      try s.encodeIfPresent(section.forSeconds, forKey: .init(stringValue: "forSeconds"))
      try s.encodeIfPresent(section.overSeconds, forKey: .init(stringValue: "overSeconds"))
      try s.encodeIfPresent(section.minutes, forKey: .init(stringValue: "minutes"))
    }
    try c.encodeIfPresent(holdSeconds, forKey: .init(stringValue: "holdSeconds"))
  }
}
