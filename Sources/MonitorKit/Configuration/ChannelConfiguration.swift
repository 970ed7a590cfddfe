import Common
import Foundation
import Matcher

/// One radio channel to monitor: its name in the play log and in JACK, where its audio comes from, the time zone
/// of its local times, and the matcher settings it changes.
///
/// JSON: `{name: "fm1", source: "jack:system:capture_1,system:capture_2", timeZone: "Europe/Berlin",
/// matcher: {maxGapSeconds: 30}}`; only `name` and `source` are required.
///
/// Threads: a value; any thread.
struct ChannelConfiguration: Codable, Sendable, Equatable {
  /// The channel's name in the play log, the CSV and the console, and the name of its JACK ports (`NAME_L`,
  /// `NAME_R` or `NAME`): letters, digits, `-`, `_` and `.`. Required, unique.
  var name: String
  /// Where the audio comes from. Required.
  var source: ChannelSource
  /// The IANA time zone of the channel's local times (`Europe/Berlin`). Default: the machine's time zone.
  var timeZone: String = TimeZone.current.identifier
  /// Matcher settings this channel changes over the global ones (JSON key `matcher`). Default: none.
  var matcherOverrides = MatcherOverrides()
  /// Alert conditions this channel changes over the `alerts` section (JSON key `alerts`). Default: none.
  var alertOverrides = AlertOverrides()

  /// What makes `name` unusable as a channel and JACK port name, with the fix; nil when it is usable.
  static func nameProblem(_ name: String) -> String? {
    if name.isEmpty { return "is empty; name the channel with letters, digits, `-`, `_` or `.`" }
    let bad = name.filter { !($0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0))) }
    guard bad.isEmpty else {
      let listed = Set(bad).sorted().map { "`\($0)`" }.joined(separator: " ")
      return "`\(name)` contains \(listed); a channel name becomes a JACK port name, so use only letters, digits, "
        + "`-`, `_` and `.`"
    }
    return nil
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case name
    case source
    case timeZone
    case matcherOverrides = "matcher"
    case alertOverrides = "alerts"
  }

  init(
    name: String, source: ChannelSource, timeZone: String = TimeZone.current.identifier,
    matcherOverrides: MatcherOverrides = MatcherOverrides()
  ) {
    self.name = name
    self.source = source
    self.timeZone = timeZone
    self.matcherOverrides = matcherOverrides
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decode(String.self, forKey: .name)
    source = try c.decode(ChannelSource.self, forKey: .source)
    timeZone = try c.value(.timeZone, or: TimeZone.current.identifier)
    matcherOverrides = try c.value(.matcherOverrides, or: MatcherOverrides())
    alertOverrides = try c.value(.alertOverrides, or: AlertOverrides())
  }
}
