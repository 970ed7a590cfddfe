import Common
import Foundation
import Matcher

/// `broadcast-monitor run`'s options: a configuration file, command-line values that replace its keys, and
/// channels added with `--channel NAME=SOURCE`.
extension MonitorConfiguration {
  /// The options of `run` that take a value, from its declaration in `CommandTable`.
  static var runValueOptions: Set<String> { Set(CommandTable.run.options.filter { $0.valueName != nil }.map(\.name)) }

  /// The switches of `run`, one at most. `load(arguments:currentDirectory:)` accepts them and leaves them to the run
  /// command.
  static var runFlagOptions: Set<String> { Set(CommandTable.run.options.filter { $0.valueName == nil }.map(\.name)) }

  /// The configuration that `run` with `arguments` describes: the `--config` file, if any, with the command-line
  /// values replacing its keys and the `--channel` channels appended to its channels, all checked. Paths on the
  /// command line are relative to `currentDirectory`, paths in the file to the file's folder.
  ///
  /// Throws a `UsageError` for a command line that cannot be read (a malformed `--channel`, a missing `--catalog`
  /// without `--config`) and a `ConfigurationError` for a value that cannot work, named by its option or key path.
  static func load(
    arguments: CommandLineArguments, currentDirectory: String, checks: FileChecks = .live
  ) throws -> MonitorConfiguration {
    if let word = arguments.positionals.first {
      throw UsageError("run takes only options, not `\(word)`; name each channel with --channel NAME=SOURCE")
    }
    if arguments.has("log") && arguments.has("json") {
      throw UsageError(
        "--log and --json are two ways of writing the events; give one (--log: lines on standard error, "
          + "--json: JSON objects on standard output)")
    }
    let channels = try commandLineChannels(arguments, currentDirectory: currentDirectory)
    if arguments.value("tz") != nil && channels.isEmpty {
      throw UsageError(
        "--tz sets the time zone of the --channel channels, and there are none; set a channel's timeZone in the "
          + "configuration file")
    }
    var origin = ConfigurationOrigin(file: arguments.value("config"))
    var configuration: MonitorConfiguration
    if let file = arguments.value("config") {
      var supplied: Set<CodingKeys> = []
      if arguments.value("catalog") != nil { supplied.insert(.catalogPath) }
      if arguments.value("db") != nil { supplied.insert(.databasePath) }
      if !channels.isEmpty { supplied.insert(.channels) }
      configuration = try decode(file: file, currentDirectory: currentDirectory, suppliedElsewhere: supplied)
    } else {
      for option in ["catalog", "db"] where arguments.value(option) == nil {
        throw UsageError("--\(option) is required without --config FILE")
      }
      if channels.isEmpty {
        throw UsageError("name at least one channel with --channel NAME=SOURCE (or give --config FILE)")
      }
      configuration = MonitorConfiguration(catalogPath: "", databasePath: "", channels: [])
    }

    if let path = arguments.value("catalog") {
      configuration.catalogPath = absolutePath(path, in: currentDirectory)
      origin.options["catalogPath"] = "--catalog"
    }
    if let path = arguments.value("db") {
      configuration.databasePath = absolutePath(path, in: currentDirectory)
      origin.options["databasePath"] = "--db"
    }
    if let node = arguments.value("node") {
      configuration.database.node = node
      origin.options["database.node"] = "--node"
    }
    if let path = arguments.value("spool-dir") {
      configuration.spoolDirectory = absolutePath(path, in: currentDirectory)
    }
    if let name = arguments.value("jack-client") {
      configuration.jack.clientName = name
      origin.options["jack.clientName"] = "--jack-client"
    }
    if let name = arguments.value("jack-server") {
      configuration.jack.serverName = name
      origin.options["jack.serverName"] = "--jack-server"
    }
    if let text = arguments.value("workers") {
      guard let count = Int(text) else {
        throw UsageError("--workers \(text): not a whole number; give the number of matcher threads, 1…64")
      }
      configuration.workerThreads = count
      origin.options["workerThreads"] = "--workers"
    }
    if let path = arguments.value("settings") {
      configuration.matcher = try MatcherSettings(
        contentsOf: URL(fileURLWithPath: absolutePath(path, in: currentDirectory)))
      origin.options["matcher"] = "--settings \(path)"
    }
    if let listen = arguments.value("http") {
      configuration.http.listen = listen
      origin.options["http.listen"] = "--http"
    }
    if let zone = arguments.value("tz") {
      origin.timeZoneOption = "--tz \(zone)"
    }
    for (argument, channel) in channels {
      origin.channelArguments[configuration.channels.count] = argument
      configuration.channels.append(channel)
    }
    try configuration.validate(origin: origin, checks: checks)
    return configuration
  }

  /// The `--channel NAME=SOURCE` channels in order, with the arguments as given; file paths made absolute.
  private static func commandLineChannels(
    _ arguments: CommandLineArguments, currentDirectory: String
  ) throws(UsageError) -> [(argument: String, channel: ChannelConfiguration)] {
    let timeZone = arguments.value("tz") ?? TimeZone.current.identifier
    var channels: [(argument: String, channel: ChannelConfiguration)] = []
    for argument in arguments.values("channel") {
      guard let equals = argument.firstIndex(of: "=") else {
        throw UsageError(
          "--channel \(argument): give NAME=SOURCE, such as --channel fm1=jack:system:capture_1,system:capture_2")
      }
      var source: ChannelSource
      do { source = try ChannelSource(parsing: String(argument[argument.index(after: equals)...])) } catch {
        throw UsageError("--channel \(argument): \(error)")
      }
      if case .file(let path, let loop) = source {
        source = .file(path: absolutePath(path, in: currentDirectory), loop: loop)
      }
      let name = String(argument[..<equals])
      channels.append((argument, ChannelConfiguration(name: name, source: source, timeZone: timeZone)))
    }
    return channels
  }
}
