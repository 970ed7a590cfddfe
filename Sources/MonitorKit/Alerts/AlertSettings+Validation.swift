import Common
import Foundation
import Matcher

/// The checks the `alerts` section and the channels' `alerts` sections pass before anything starts.
extension AlertSettings {
  /// Throws the first problem, naming where it was written (`origin`) and how to fix it.
  func validate(origin: ConfigurationOrigin, channels: [ChannelConfiguration]) throws(ConfigurationError) {
    try Self.validate(overrides, place: { origin.place(of: "alerts.\($0)") })
    for (i, channel) in channels.enumerated() {
      try Self.validate(channel.alertOverrides, place: { origin.place(ofChannel: i, "alerts.\($0)") })
    }
    for (i, webhook) in webhooks.enumerated() {
      let url = URL(string: webhook.url)
      if !(url?.scheme == "http" || url?.scheme == "https") || url?.host == nil {
        throw ConfigurationError(
          keyPath: origin.place(of: "alerts.webhooks[\(i)].url"),
          reason: "`\(webhook.url)` is not an http:// or https:// URL; write the whole URL, such as "
            + "https://hooks.example.org/radio")
      }
    }
    if command?.trimmingCharacters(in: .whitespaces).isEmpty == true {
      throw ConfigurationError(
        keyPath: origin.place(of: "alerts.command"),
        reason: "is empty; name a command such as /usr/local/bin/page-engineer, or leave the key out")
    }
    // A command named by its path is checked now, not when the first alert fires (a search of $PATH is the shell's).
    if let program = command?.split(whereSeparator: \.isWhitespace).first.map(String.init), program.hasPrefix("/"),
      access(program, X_OK) != 0
    {
      let reason =
        FileManager.default.fileExists(atPath: program)
        ? "\(program) is not executable; chmod +x it, or let the user running broadcast-monitor run it"
        : "\(program) does not exist; correct the path, or leave the key out"
      throw ConfigurationError(keyPath: origin.place(of: "alerts.command"), reason: reason)
    }
    if !(commandTimeoutSeconds > 0 && commandTimeoutSeconds <= Self.maxCommandTimeoutSeconds) {
      throw ConfigurationError(
        keyPath: origin.place(of: "alerts.commandTimeoutSeconds"),
        reason: "\(commandTimeoutSeconds) is out of range; use seconds in (0, \(Int(Self.maxCommandTimeoutSeconds))], "
          + "such as 10 (the default)")
    }
  }

  /// The shortest `nodeDown.forSeconds`: three heartbeats, so that a running node whose heartbeat waits behind
  /// other writes for a while is not taken for down.
  static let minNodeDownSeconds = 3 * WorkerPool.heartbeatSeconds

  /// The longest a command may run: alerts wait behind it, one at a time.
  static let maxCommandTimeoutSeconds = 300.0

  private static func validate(
    _ overrides: AlertOverrides, place: (String) -> String
  ) throws(ConfigurationError) {
    func seconds(_ value: Double?, _ key: String, allowZero: Bool = true) throws(ConfigurationError) {
      guard let value else { return }
      if !(value.isFinite && (allowZero ? value >= 0 : value > 0) && value <= 86_400) {
        throw ConfigurationError(
          keyPath: place(key),
          reason: "\(value) is not a number of seconds in \(allowZero ? "[0" : "(0"), 86400]; use for example 10")
      }
    }
    try seconds(overrides.silence.forSeconds, "silence.forSeconds")
    if let level = overrides.silence.belowDBFS, !(level.isFinite && level < 0 && level >= -150) {
      throw ConfigurationError(
        keyPath: place("silence.belowDBFS"),
        reason: "\(level) is not a level in dBFS below 0 (and above -150); use for example -50 (the default)")
    }
    try seconds(overrides.sourceDown.forSeconds, "sourceDown.forSeconds")
    try seconds(overrides.lagging.overSeconds, "lagging.overSeconds", allowZero: false)
    try seconds(overrides.lagging.forSeconds, "lagging.forSeconds")
    try seconds(overrides.playLogUnwritable.forSeconds, "playLogUnwritable.forSeconds")
    try seconds(overrides.nodeDown.forSeconds, "nodeDown.forSeconds")
    if let value = overrides.nodeDown.forSeconds, value < minNodeDownSeconds {
      throw ConfigurationError(
        keyPath: place("nodeDown.forSeconds"),
        reason: "\(value) s is shorter than \(Int(minNodeDownSeconds)) s, three of a node's heartbeats (one every "
          + "\(Int(WorkerPool.heartbeatSeconds)) s): a node that is running would seem down between two of them; "
          + "use for example 60 (the default)")
    }
    try seconds(overrides.holdSeconds, "holdSeconds")
    if let minutes = overrides.noCatalog.minutes, !(minutes.isFinite && minutes > 0 && minutes <= 1440) {
      throw ConfigurationError(
        keyPath: place("noCatalog.minutes"),
        reason: "\(minutes) is not a number of minutes in (0, 1440]; use for example 30")
    }
  }
}
