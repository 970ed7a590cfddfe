import Common
import Foundation
import Matcher

/// The checks a configuration passes before anything starts: the values, the channels together (names, JACK
/// ports), and the files it names.
extension MonitorConfiguration {
  /// Throws the first problem as a `ConfigurationError` that names where the value was written (`origin`) and says
  /// how to fix it. The channel count first, then values in file order, then the memory the channels need against
  /// `memoryBytes` (`MonitorConfiguration+Capacity.swift`), then the files on disk (through `checks`). Linear in the
  /// channels, so that even a file with far too many is refused at once.
  func validate(
    origin: ConfigurationOrigin, checks: FileChecks, memoryBytes: Double = MonitorConfiguration.availableMemoryBytes
  ) throws(ConfigurationError) {
    func fail(_ place: String, _ reason: String) -> ConfigurationError {
      ConfigurationError(keyPath: place, reason: reason)
    }
    if channels.isEmpty {
      throw fail(
        origin.place(of: "channels"),
        "no channels; add one such as {name: \"fm1\", source: \"jack\"} or pass --channel NAME=SOURCE")
    }
    try validateChannelCount(origin: origin)
    let range = Self.workerThreadRange
    if !range.contains(workerThreads) {
      throw fail(
        origin.place(of: "workerThreads"),
        "\(workerThreads) is out of range; use \(range.lowerBound)…\(range.upperBound) "
          + "(default: the number of processors, \(Self.defaultWorkerThreads))")
    }
    try validateJack(origin: origin)
    do { try matcher.validate() } catch { throw fail(origin.place(of: error.keyPath), error.reason) }

    var channelOfPort: [String: Int] = [:]
    var channelOfName: [String: Int] = [:]
    var knownTimeZones: Set<String> = []
    for (i, channel) in channels.enumerated() {
      if let problem = ChannelConfiguration.nameProblem(channel.name) {
        throw fail(origin.place(ofChannel: i, "name"), problem)
      }
      if let first = channelOfName.updateValue(i, forKey: channel.name) {
        throw fail(
          origin.place(ofChannel: i, "name"),
          "`\(channel.name)` is already the name of channels[\(first)]; give each channel its own name")
      }
      if knownTimeZones.insert(channel.timeZone).inserted, TimeZone(identifier: channel.timeZone) == nil {
        throw fail(
          origin.place(ofChannel: i, "timeZone"),
          "unknown time zone `\(channel.timeZone)`; use an IANA name such as Europe/Berlin or UTC "
            + "(`timedatectl list-timezones` lists them)")
      }
      switch channel.source {
      case .jack(let jack):
        if let problem = jack.problem() {
          throw fail(origin.place(ofChannel: i, "source.jack.\(problem.key)"), problem.reason)
        }
        for port in jack.portNames(channel: channel.name) {
          if let other = channelOfPort[port] {
            throw fail(
              origin.place(ofChannel: i, "name"),
              "its JACK port `\(port)` is also a port of channel `\(channels[other].name)` (channels[\(other)]); "
                + "rename one of them (a stereo channel NAME has ports NAME_L and NAME_R)")
          }
          channelOfPort[port] = i
        }
      case .stream(let url):
        if let problem = StreamSource.urlProblem(url) {
          throw fail(
            origin.place(ofChannel: i, "source.stream.url"),
            "`\(url)`: \(problem); write the whole URL, such as https://example.org/stream.mp3")
        }
      case .file(let path, _):
        if path.isEmpty {
          throw fail(origin.place(ofChannel: i, "source.file.path"), "is empty; name an audio file")
        }
      }
      do { try matcherSettings(for: channel).validate() } catch {
        throw fail(origin.place(ofChannel: i, error.keyPath), error.reason)
      }
    }

    try validateMemory(origin: origin, memoryBytes: memoryBytes)
    try reports.validate(origin: origin)
    try alerts.validate(origin: origin, channels: channels)
    try http.validate(origin: origin)
    try unknown.validate(origin: origin)
    try validateFiles(origin: origin, checks: checks)
  }

  private func validateJack(origin: ConfigurationOrigin) throws(ConfigurationError) {
    if jack.clientName.isEmpty || jack.clientName.utf8.count > JackSettings.maxClientNameBytes {
      throw ConfigurationError(
        keyPath: origin.place(of: "jack.clientName"),
        reason: jack.clientName.isEmpty
          ? "is empty; name the JACK client, or leave the key out for broadcast-monitor"
          : "`\(jack.clientName)` is longer than JACK allows (\(JackSettings.maxClientNameBytes) bytes); shorten it")
    }
    if jack.serverName?.isEmpty == true {
      throw ConfigurationError(
        keyPath: origin.place(of: "jack.serverName"),
        reason: "is empty; name the server (jackd -n NAME), or leave the key out for the default server")
    }
    if !(jack.ringSeconds > 0 && jack.ringSeconds.isFinite) {
      throw ConfigurationError(
        keyPath: origin.place(of: "jack.ringSeconds"),
        reason: "\(jack.ringSeconds) is not a positive number of seconds; use for example 10 (the default)")
    }
    if jack.ringSeconds > JackSettings.maxRingSeconds {
      throw ConfigurationError(
        keyPath: origin.place(of: "jack.ringSeconds"),
        reason: String(format: "%g", jack.ringSeconds) + " s is longer than a ring may be (at most "
          + String(format: "%g", JackSettings.maxRingSeconds) + " s); use for example 10 (the default)")
    }
  }

  private func validateFiles(origin: ConfigurationOrigin, checks: FileChecks) throws(ConfigurationError) {
    let catalogPlace = origin.place(of: "catalogPath")
    let databasePlace = origin.place(of: "databasePath")
    if catalogPath.isEmpty { throw ConfigurationError(keyPath: catalogPlace, reason: "is empty; name the catalog") }
    if databasePath.isEmpty {
      throw ConfigurationError(keyPath: databasePlace, reason: "is empty; name the play log, such as plays.sqlite")
    }
    switch checks.entry(catalogPath) {
    case .missing:
      throw ConfigurationError(
        keyPath: catalogPlace,
        reason: "no catalog at \(catalogPath); build one with "
          + "`broadcast-monitor catalog add --catalog \(catalogPath) AUDIO...`, or correct the path")
    case .directory:
      throw ConfigurationError(
        keyPath: catalogPlace, reason: "\(catalogPath) is a folder; name the catalog file (.bmcat) in it")
    case .file:
      if !checks.isReadable(catalogPath) {
        throw ConfigurationError(
          keyPath: catalogPlace,
          reason: "cannot read \(catalogPath); let the user running broadcast-monitor read it")
      }
    }

    if PlayLogLocation.isPostgreSQL(databasePath) {
      try validateDatabase(origin: origin)
    } else {
      if database.standby == true {
        throw ConfigurationError(
          keyPath: origin.place(of: "database.standby"),
          reason: "needs a PostgreSQL play log (database.url): an SQLite play log has one monitor, and no other node "
            + "to stand by for; remove the key, or set database.url")
      }
      try validatePlayLogFile(origin: origin, checks: checks)
    }
    if let spoolDirectory {
      try validateFolder(
        spoolDirectory, place: origin.place(of: "spoolDirectory"), mayCreate: false, checks: checks)
    }
    if let clips = unknown.clipsDirectory {
      try validateFolder(clips, place: origin.place(of: "unknown.clipsDirectory"), mayCreate: true, checks: checks)
    }

    for (i, channel) in channels.enumerated() {
      guard case .file(let path, _) = channel.source else { continue }
      let place = origin.place(ofChannel: i, "source.file.path")
      switch checks.entry(path) {
      case .missing:
        throw ConfigurationError(keyPath: place, reason: "no file at \(path); correct the path")
      case .directory:
        throw ConfigurationError(keyPath: place, reason: "\(path) is a folder; name an audio file")
      case .file:
        if !checks.isReadable(path) {
          throw ConfigurationError(
            keyPath: place, reason: "cannot read \(path); let the user running broadcast-monitor read it")
        }
      }
    }
  }

  /// The SQLite play log's file and folder.
  private func validatePlayLogFile(origin: ConfigurationOrigin, checks: FileChecks) throws(ConfigurationError) {
    let databasePlace = origin.place(of: "databasePath")
    let folder = (databasePath as NSString).deletingLastPathComponent
    switch checks.entry(databasePath) {
    case .directory:
      throw ConfigurationError(
        keyPath: databasePlace,
        reason: "\(databasePath) is a folder; name the play log file in it, such as \(databasePath)/plays.sqlite")
    case .file where !checks.isWritable(databasePath):
      throw ConfigurationError(
        keyPath: databasePlace,
        reason: "cannot write \(databasePath); "
          + Self.writeFix(databasePath, checks: checks, otherwise: "let the user running broadcast-monitor write it"))
    case .file, .missing:
      guard checks.entry(folder) == .directory else {
        throw ConfigurationError(
          keyPath: databasePlace,
          reason: "the folder \(folder) does not exist; create it (mkdir -p \(folder)) or name another")
      }
      if !checks.isWritable(folder) {
        throw ConfigurationError(
          keyPath: databasePlace,
          reason: "cannot write in \(folder), where SQLite keeps the play log's -wal and -shm files; "
            + Self.writeFix(folder, checks: checks, otherwise: "let the user running broadcast-monitor write there"))
      }
    }
  }

  /// The fix for a path this process cannot write: `otherwise` (a permission), or, on a file system mounted
  /// read-only, where to allow writes.
  static func writeFix(_ path: String, checks: FileChecks, otherwise: String) -> String {
    guard checks.isOnReadOnlyFileSystem(path) else { return otherwise }
    return "it is on a read-only file system (under systemd's ProtectSystem=strict, allow the folder with a "
      + "ReadWritePaths= line: `systemctl edit broadcast-monitor`), or name a place that can be written"
  }

  /// A folder the monitor writes in: `spoolDirectory`, which must exist, or `unknown.clipsDirectory`, which is made
  /// when the first clip is kept (`mayCreate`), so its nearest existing folder must take it.
  private func validateFolder(
    _ folder: String, place: String, mayCreate: Bool, checks: FileChecks
  ) throws(ConfigurationError) {
    var existing = folder
    while checks.entry(existing) == .missing {
      let parent = (existing as NSString).deletingLastPathComponent
      guard mayCreate, !parent.isEmpty, parent != existing else {
        throw ConfigurationError(
          keyPath: place,
          reason: "cannot write in \(folder): it does not exist; create it (mkdir -p \(folder)) and let the user "
            + "running broadcast-monitor write in it")
      }
      existing = parent
    }
    guard checks.entry(existing) == .directory else {
      throw ConfigurationError(
        keyPath: place,
        reason: existing == folder
          ? "\(folder) is a file, not a folder; name a folder"
          : "cannot make \(folder): \(existing) is a file, not a folder; name another place")
    }
    if !checks.isWritable(existing) {
      throw ConfigurationError(
        keyPath: place,
        reason: "cannot write in \(existing); "
          + Self.writeFix(
            existing, checks: checks, otherwise: "let the user running broadcast-monitor write in it"))
    }
  }

  /// The PostgreSQL play log's settings (the server itself is checked when the play log is opened).
  private func validateDatabase(origin: ConfigurationOrigin) throws(ConfigurationError) {
    if database.node?.isEmpty == true {
      throw ConfigurationError(
        keyPath: origin.place(of: "database.node"),
        reason: "is empty; name the node, or leave the key out for the host name")
    }
  }
}
