import Common
import Foundation
import Matcher
import TestSupport
import Testing

@testable import MonitorKit

@Suite("MonitorConfiguration from run's command line")
struct MonitorConfigurationCommandLineTests {
  let folder: ConfigurationFolder

  init() throws {
    folder = try ConfigurationFolder()
  }

  @Test("The command line alone configures everything; its relative paths are relative to the current folder")
  func commandLineOnly() throws {
    try folder.write("audio", to: "demo.ogg")
    let configuration = try folder.run([
      "--catalog", "catalog.bmcat", "--db", "plays.sqlite", "--channel", "fm1=jack:system:capture_1,system:capture_2",
      "--channel", "web=https://example.org/live.mp3", "--channel", "demo=file+loop:demo.ogg", "--workers", "2",
      "--jack-client", "bm", "--jack-server", "studio", "--tz", "Europe/Berlin", "--log",
    ])
    #expect(configuration.catalogPath == folder.file("catalog.bmcat"))
    #expect(configuration.databasePath == folder.file("plays.sqlite"))
    #expect(configuration.workerThreads == 2)
    #expect(configuration.jack == JackSettings(clientName: "bm", serverName: "studio", ringSeconds: 10))
    #expect(configuration.matcher == MatcherSettings())
    #expect(
      configuration.channels == [
        ChannelConfiguration(
          name: "fm1", source: .jack(JackSource(stereo: true, connect: ["system:capture_1", "system:capture_2"])),
          timeZone: "Europe/Berlin"),
        ChannelConfiguration(
          name: "web", source: .stream(url: "https://example.org/live.mp3"), timeZone: "Europe/Berlin"),
        ChannelConfiguration(
          name: "demo", source: .file(path: folder.file("demo.ogg"), loop: true), timeZone: "Europe/Berlin"),
      ])
  }

  @Test("Without --tz, command-line channels get the machine's time zone; without --workers, one per processor")
  func commandLineDefaults() throws {
    let configuration = try folder.run(["--catalog", "catalog.bmcat", "--db", "plays.sqlite", "--channel", "a=jack"])
    #expect(configuration.channels[0].timeZone == TimeZone.current.identifier)
    #expect(configuration.workerThreads == MonitorConfiguration.defaultWorkerThreads)
    #expect(configuration.jack == JackSettings())
  }

  @Test("--http replaces http.listen; a non-loopback --http without a token is refused naming --http")
  func httpOption() throws {
    let base = ["--catalog", "catalog.bmcat", "--db", "plays.sqlite", "--channel", "a=jack"]
    #expect(try folder.run(base).http == HTTPSettings())
    #expect(try folder.run(base + ["--http", "off"]).http.isEnabled == false)
    #expect(try folder.run(base + ["--http", "127.0.0.1:9000"]).http.listen == "127.0.0.1:9000")
    let open = try #require(throws: ConfigurationError.self) { try folder.run(base + ["--http", "0.0.0.0:9000"]) }
    #expect(open.keyPath == "--http" && open.reason.contains("http.token"), "\(open)")
    let bad = try #require(throws: ConfigurationError.self) { try folder.run(base + ["--http", "9000"]) }
    #expect(bad.keyPath == "--http" && bad.reason.contains("127.0.0.1:8750"), "\(bad)")
  }

  @Test("Command-line values replace the file's, --channel adds channels, --settings replaces the global matcher")
  func fileAndCommandLine() throws {
    try folder.write("BMCATLG", to: "other/other.bmcat")
    try folder.write(
      """
      {
        catalogPath: "catalog.bmcat", databasePath: "plays.sqlite", workerThreads: 2,
        jack: {clientName: "from-file", ringSeconds: 4},
        matcher: {minVotes: 9},
        channels: [{name: "fm", source: "jack", timeZone: "UTC", matcher: {maxGapSeconds: 40}}],
      }
      """, to: "etc/monitor.json5")
    try folder.write("{minVotes: 5, minMatches: 12}", to: "tuned.json5")
    let configuration = try folder.run([
      "--config", "etc/monitor.json5", "--catalog", "other/other.bmcat", "--workers", "3", "--jack-client", "cli",
      "--settings", "tuned.json5", "--tz", "Asia/Tokyo", "--channel", "extra=jack-mono",
    ])
    #expect(configuration.catalogPath == folder.file("other/other.bmcat"))
    #expect(configuration.databasePath == folder.file("etc/plays.sqlite"))
    #expect(configuration.workerThreads == 3)
    #expect(configuration.jack == JackSettings(clientName: "cli", serverName: nil, ringSeconds: 4))
    #expect(configuration.channels.map(\.name) == ["fm", "extra"])
    #expect(configuration.channels.map(\.timeZone) == ["UTC", "Asia/Tokyo"])
    var tuned = MatcherSettings()
    tuned.minVotes = 5
    tuned.minMatches = 12
    #expect(configuration.matcher == tuned)
    var fm = tuned
    fm.maxGapSeconds = 40
    #expect(configuration.matcherSettings(for: configuration.channels[0]) == fm)
    #expect(configuration.matcherSettings(for: configuration.channels[1]) == tuned)
  }

  @Test("A file may leave out the catalog, the play log and the channels when the command line gives them")
  func fileCompletedByCommandLine() throws {
    try folder.write("{jack: {clientName: \"station\"}}")
    let configuration = try folder.run([
      "--config", "monitor.json5", "--catalog", "catalog.bmcat", "--db", "plays.sqlite", "--channel", "a=jack",
    ])
    #expect(configuration.jack.clientName == "station")
    #expect(configuration.channels.map(\.name) == ["a"])

    let error = try #require(throws: ConfigurationError.self) {
      try folder.run(["--config", "monitor.json5", "--db", "plays.sqlite", "--channel", "a=jack"])
    }
    #expect(error.keyPath == "monitor.json5: catalogPath")
    #expect(error.reason.contains("missing required key `catalogPath`"))
  }

  @Test("spoolDirectory is relative to the file's folder, --spool-dir to the current one; default: none (beside)")
  func spoolDirectory() throws {
    try folder.write("{catalogPath: \"../catalog.bmcat\", spoolDirectory: \"spool\"}", to: "etc/monitor.json5")
    for made in ["etc/spool", "other"] {
      try FileManager.default.createDirectory(atPath: folder.file(made), withIntermediateDirectories: true)
    }
    let arguments = ["--config", "etc/monitor.json5", "--db", "plays.sqlite", "--channel", "a=jack"]
    #expect(try folder.run(arguments).spoolDirectory == folder.file("etc/spool"))
    #expect(try folder.run(arguments + ["--spool-dir", "other"]).spoolDirectory == folder.file("other"))
    let plain = try folder.run(["--catalog", "catalog.bmcat", "--db", "plays.sqlite", "--channel", "a=jack"])
    #expect(plain.spoolDirectory == nil)
  }

  @Test(
    "A command line that cannot be read is a usage error that names the option",
    arguments: [
      (["--db", "plays.sqlite", "--channel", "a=jack"], "--catalog is required without --config FILE"),
      (["--catalog", "catalog.bmcat", "--channel", "a=jack"], "--db is required without --config FILE"),
      (["--catalog", "catalog.bmcat", "--db", "plays.sqlite"], "name at least one channel with --channel NAME=SOURCE"),
      (["--catalog", "catalog.bmcat", "--db", "p.sqlite", "--channel", "fm1"], "--channel fm1: give NAME=SOURCE"),
      (
        ["--catalog", "catalog.bmcat", "--db", "p.sqlite", "--channel", "fm1=alsa:hw:0"],
        "--channel fm1=alsa:hw:0: `alsa:hw:0` is not a channel source; give one of: jack ("
      ),
      (
        ["--catalog", "catalog.bmcat", "--db", "p.sqlite", "--channel", "fm1=jack:system:capture_1"],
        "--channel fm1=jack:system:capture_1: `jack:system:capture_1`: a stereo channel connects two source ports"
      ),
      (
        ["--catalog", "catalog.bmcat", "--db", "p.sqlite", "--channel", "a=jack", "--workers", "many"],
        "--workers many: not a whole number"
      ),
      (
        ["--catalog", "catalog.bmcat", "--db", "p.sqlite", "--channel", "a=jack", "stray"],
        "run takes only options, not `stray`"
      ),
      (["--config", "monitor.json5", "--tz", "UTC"], "--tz sets the time zone of the --channel channels"),
      (["--config", "monitor.json5", "--log", "--json"], "--log and --json are two ways of writing the events"),
    ])
  func usageError(arguments: [String], message: String) {
    let error = #expect(throws: UsageError.self) { try folder.run(arguments) }
    #expect(error?.description.hasPrefix(message) == true, "\(error?.description ?? "no error")")
  }

  @Test(
    "A command-line value that cannot work is refused, naming the option it came from",
    arguments: [
      (["--workers", "0"], "--workers", "out of range"),
      (["--catalog", "missing.bmcat"], "--catalog", "build one with `broadcast-monitor catalog add --catalog "),
      (["--db", "nowhere/plays.sqlite"], "--db", "does not exist"),
      (["--jack-server", ""], "--jack-server", "is empty"),
      (["--tz", "Mars/Olympus", "--channel", "b=jack"], "--tz Mars/Olympus", "unknown time zone `Mars/Olympus`"),
      (["--channel", "b:1=jack"], "--channel b:1=jack", "a channel name becomes a JACK port name"),
      (["--channel", "=jack"], "--channel =jack", "is empty"),
      (["--channel", "fm=jack-mono"], "--channel fm=jack-mono", "is already the name of channels[0]"),
      (["--channel", "fm_R=jack-mono"], "--channel fm_R=jack-mono", "JACK port `fm_R` is also a port of channel `fm`"),
      (["--channel", "x=file:missing.ogg"], "--channel x=file:missing.ogg", "missing.ogg; correct the path"),
    ])
  func badValue(options: [String], place: String, reason: String) throws {
    try folder.write(ConfigurationFolder.minimal)
    let error = #expect(throws: ConfigurationError.self) {
      try folder.run(["--config", "monitor.json5"] + options)
    }
    #expect(error?.keyPath == place, "\(error?.description ?? "no error")")
    #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "no error")")
  }

  @Test("--settings with a bad value is refused, naming the settings file and the key")
  func badSettings() throws {
    try folder.write(ConfigurationFolder.minimal)
    try folder.write("{minVotes: 1}", to: "tuned.json5")
    let error = try #require(throws: ConfigurationError.self) {
      try folder.run(["--config", "monitor.json5", "--settings", "tuned.json5"])
    }
    #expect(error.keyPath == "matcher.minVotes")
    try folder.write("{minVote: 7}", to: "tuned.json5")
    let unknown = try #require(throws: ConfigurationError.self) {
      try folder.run(["--config", "monitor.json5", "--settings", "tuned.json5"])
    }
    #expect(unknown.keyPath == "\(folder.file("tuned.json5")): minVote")
  }

  @Test("run's options: every value option and the --log and --json flags parse; others are refused")
  func options() throws {
    let arguments = try CommandLineArguments(
      [
        "--config", "c", "--catalog", "k", "--db", "d", "--spool-dir", "p", "--channel", "a=jack", "--jack-client", "j",
        "--jack-server", "s", "--workers", "1", "--tz", "UTC", "--settings", "m", "--http", "off", "--node", "n",
        "--log", "--json",
      ][...], valueOptions: MonitorConfiguration.runValueOptions, flagOptions: MonitorConfiguration.runFlagOptions)
    #expect(Set(arguments.options.keys) == MonitorConfiguration.runValueOptions)
    #expect(arguments.has("log") && arguments.has("json"))
    for option in MonitorConfiguration.runValueOptions.union(MonitorConfiguration.runFlagOptions) {
      #expect(CommandHelp.help(CommandTable.run).contains("--\(option)"), "the usage does not mention --\(option)")
    }
    #expect(throws: UsageError.self) {
      try CommandLineArguments(
        ["--chanel", "a=jack"][...], valueOptions: MonitorConfiguration.runValueOptions,
        flagOptions: MonitorConfiguration.runFlagOptions)
    }
  }
}
