import Common
import Foundation
import Matcher

/// Everything `broadcast-monitor run` needs: the catalog, the play log, the JACK client, the worker threads, the
/// matcher settings and the channels. It comes from a JSON5 file (`MonitorConfiguration+File.swift`), from the
/// command line (`MonitorConfiguration+CommandLine.swift`), or from both, and is checked as a whole when it is
/// loaded (`MonitorConfiguration+Validation.swift`): a configuration with any error is refused, so nothing starts
/// half-configured. Once loaded, every path in it is absolute. `config/monitor.example.json5` shows every key.
///
/// Threads: a value; any thread.
struct MonitorConfiguration: Codable, Sendable, Equatable {
  /// The catalog file (`.bmcat`), built with `broadcast-monitor catalog add`. Required.
  var catalogPath: String
  /// The SQLite play log; created when missing, in a folder that must exist. Required.
  var databasePath: String
  /// The folder of the play log's spool, which keeps the plays the play log cannot take (full disk) until the next
  /// start. Optional; default: beside the play log (`PLAYLOG.spool`).
  var spoolDirectory: String?
  /// The PostgreSQL play log's settings (`url`, `passwordFile`, `node`). Optional section.
  var database = DatabaseSettings()
  /// The JACK client of the `jack` channels. Optional section; see `JackSettings` for its defaults.
  var jack = JackSettings()
  /// Threads that run the channels' matchers, 1…64. Default: the number of processors (at most 64).
  var workerThreads = MonitorConfiguration.defaultWorkerThreads
  /// The matcher settings of every channel; a channel's own `matcher` section changes them key by key.
  /// Default: `MatcherSettings()`.
  var matcher = MatcherSettings()
  /// The channels to monitor: at least one.
  var channels: [ChannelConfiguration]
  /// The settings of `broadcast-monitor report` (SoundExchange, proof of play, quota rules). Optional section; see
  /// `ReportSettings` for its defaults.
  var reports = ReportSettings()
  /// The alert conditions' defaults and where alerts are delivered. Optional section; see `AlertSettings`.
  var alerts = AlertSettings()
  /// The HTTP API, metrics and health server. Optional section; see `HTTPSettings` (on by default, loopback only).
  var http = HTTPSettings()
  /// Clips of unknown music. Optional section; see `UnknownClipSettings` (no clips without `clipsDirectory`).
  var unknown = UnknownClipSettings()

  /// The allowed number of worker threads.
  static let workerThreadRange = 1...64

  /// One worker thread per processor, within `workerThreadRange`.
  static var defaultWorkerThreads: Int {
    min(max(ProcessInfo.processInfo.activeProcessorCount, workerThreadRange.lowerBound), workerThreadRange.upperBound)
  }

  /// The settings `channel`'s matcher runs with: the global `matcher` section with the channel's overrides applied.
  func matcherSettings(for channel: ChannelConfiguration) -> MatcherSettings {
    channel.matcherOverrides.applied(to: matcher)
  }

  // MARK: JSON

  enum CodingKeys: String, CodingKey, CaseIterable {
    case catalogPath
    case databasePath
    case spoolDirectory
    case database
    case jack
    case workerThreads
    case matcher
    case channels
    case reports
    case alerts
    case http
    case unknown
  }

  /// `JSONDecoder.userInfo` key for the required keys (`CodingKeys` raw values) that the command line supplies,
  /// so that the file may leave them out. A key left out decodes as empty and the caller fills it in.
  static let suppliedElsewhere = CodingUserInfoKey(rawValue: "MonitorConfiguration.suppliedElsewhere")!

  init(
    catalogPath: String, databasePath: String, jack: JackSettings = JackSettings(),
    workerThreads: Int = MonitorConfiguration.defaultWorkerThreads, matcher: MatcherSettings = MatcherSettings(),
    channels: [ChannelConfiguration], reports: ReportSettings = ReportSettings()
  ) {
    self.catalogPath = catalogPath
    self.databasePath = databasePath
    self.jack = jack
    self.workerThreads = workerThreads
    self.matcher = matcher
    self.channels = channels
    self.reports = reports
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let supplied = decoder.userInfo[Self.suppliedElsewhere] as? Set<String> ?? []
    func required<T: Decodable>(_ key: CodingKeys, or empty: T) throws -> T {
      supplied.contains(key.rawValue) ? try c.value(key, or: empty) : try c.decode(T.self, forKey: key)
    }
    catalogPath = try required(.catalogPath, or: "")
    database = try c.value(.database, or: DatabaseSettings())
    databasePath =
      try database.url.map { url in
        guard !c.contains(.databasePath) else {
          throw DecodingError.dataCorruptedError(
            forKey: .databasePath, in: c, debugDescription: "give the play log once: databasePath or database.url")
        }
        return url
      } ?? required(.databasePath, or: "")
    spoolDirectory = try c.decodeIfPresent(String.self, forKey: .spoolDirectory)
    jack = try c.value(.jack, or: JackSettings())
    workerThreads = try c.value(.workerThreads, or: Self.defaultWorkerThreads)
    matcher = try c.value(.matcher, or: MatcherSettings())
    if let list = try? c.nestedUnkeyedContainer(forKey: .channels), let count = list.count, count > Self.maxChannels {
      // Before decoding them: a file with 100,000 channels is refused at once.
      throw DecodingError.dataCorruptedError(
        forKey: .channels, in: c, debugDescription: Self.tooManyChannels(count))
    }
    channels = try required(.channels, or: [])
    reports = try c.value(.reports, or: ReportSettings())
    alerts = try c.value(.alerts, or: AlertSettings())
    http = try c.value(.http, or: HTTPSettings())
    unknown = try c.value(.unknown, or: UnknownClipSettings())
  }
}
