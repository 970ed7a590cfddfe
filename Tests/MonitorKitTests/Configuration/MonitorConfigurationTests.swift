import Common
import Foundation
import Matcher
import TestSupport
import Testing

@testable import MonitorKit

@Suite("MonitorConfiguration")
struct MonitorConfigurationTests {
  let folder: ConfigurationFolder

  init() throws {
    folder = try ConfigurationFolder()
  }

  @Test("A file with only the required keys gets the documented defaults")
  func defaults() throws {
    let configuration = try folder.load(ConfigurationFolder.minimal)
    #expect(configuration.jack.clientName == "broadcast-monitor")
    #expect(configuration.jack.serverName == nil)
    #expect(configuration.jack.ringSeconds == 10)
    #expect(configuration.workerThreads == min(ProcessInfo.processInfo.activeProcessorCount, 64))
    #expect(configuration.matcher == MatcherSettings())
    #expect(configuration.channels.count == 1)
    let channel = configuration.channels[0]
    #expect(channel.name == "fm")
    #expect(channel.source == .jack(JackSource(stereo: true, connect: [], connectPattern: nil)))
    #expect(channel.timeZone == TimeZone.current.identifier)
    #expect(channel.matcherOverrides == MatcherOverrides())
    #expect(configuration.matcherSettings(for: channel) == MatcherSettings())
  }

  @Test("Comments, trailing commas and unquoted keys are fine; every key is read")
  func json5() throws {
    let configuration = try folder.load(
      """
      // The station.
      {
        catalogPath: "catalog.bmcat", /* the catalog */
        "databasePath": "plays.sqlite",
        workerThreads: 3,
        jack: {clientName: "monitor", serverName: "studio", ringSeconds: 2.5,},
        matcher: {minVotes: 7,},
        channels: [
          {name: "fm.1", source: "jack-mono", timeZone: "Europe/Berlin", matcher: {maxGapSeconds: 30},},
        ],
      }
      """)
    #expect(configuration.workerThreads == 3)
    #expect(configuration.jack == JackSettings(clientName: "monitor", serverName: "studio", ringSeconds: 2.5))
    #expect(configuration.matcher.minVotes == 7)
    #expect(configuration.channels[0].name == "fm.1")
    #expect(configuration.channels[0].source == .jack(JackSource(stereo: false)))
    #expect(configuration.channels[0].timeZone == "Europe/Berlin")
    #expect(configuration.channels[0].matcherOverrides.maxGapSeconds == 30)
  }

  @Test("A channel's matcher section overrides only the keys it gives; other channels keep the global settings")
  func overridesMerge() throws {
    let configuration = try folder.load(
      """
      {
        catalogPath: "catalog.bmcat", databasePath: "plays.sqlite",
        matcher: {maxGapSeconds: 30, minVotes: 8},
        channels: [
          {name: "talk", source: "jack", matcher: {minVotes: 4, snapToEdgeSeconds: 2}},
          {name: "music", source: "jack-mono"},
        ],
      }
      """)
    var global = MatcherSettings()
    global.maxGapSeconds = 30
    global.minVotes = 8
    var talk = global
    talk.minVotes = 4
    talk.snapToEdgeSeconds = 2
    #expect(configuration.matcher == global)
    #expect(configuration.matcherSettings(for: configuration.channels[0]) == talk)
    #expect(configuration.matcherSettings(for: configuration.channels[1]) == global)
  }

  @Test("MatcherOverrides has a key for every MatcherSettings key, and each one replaces its setting")
  func overridesCoverEverySetting() throws {
    let encoded = try JSONEncoder().encode(MatcherSettings())
    let settingKeys = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any]).keys
    #expect(Set(settingKeys) == Set(MatcherOverrides.CodingKeys.allCases.map(\.rawValue)))

    // Every key set to a value other than its default: the result has no default left.
    let json = "{" + MatcherOverrides.CodingKeys.allCases.map { "\"\($0.rawValue)\": 3" }.joined(separator: ",") + "}"
    let overrides = try JSONDecoder().decode(MatcherOverrides.self, from: Data(json.utf8))
    let applied = try JSONSerialization.jsonObject(with: JSONEncoder().encode(overrides.applied(to: MatcherSettings())))
    let values = try #require(applied as? [String: Double])
    #expect(values.count == MatcherOverrides.CodingKeys.allCases.count)
    #expect(values.values.allSatisfy { $0 == 3 })
  }

  @Test("Paths in the file are relative to the file's folder, wherever the daemon was started")
  func relativePaths() throws {
    try folder.write(
      """
      {
        catalogPath: "../data/catalog.bmcat", databasePath: "\(folder.file("data/plays.sqlite"))",
        channels: [{name: "demo", source: "file+loop:audio/demo.ogg"}, {name: "x", source: {file: {path: "x.ogg"}}}],
      }
      """, to: "etc/monitor.json5")
    try folder.write("BMCATLG", to: "data/catalog.bmcat")
    try folder.write("audio", to: "etc/audio/demo.ogg")
    try folder.write("audio", to: "etc/x.ogg")
    let configuration = try MonitorConfiguration.load(file: "monitor.json5", currentDirectory: folder.file("etc"))
    #expect(configuration.catalogPath == folder.file("data/catalog.bmcat"))
    #expect(configuration.databasePath == folder.file("data/plays.sqlite"))
    #expect(configuration.channels[0].source == .file(path: folder.file("etc/audio/demo.ogg"), loop: true))
    #expect(configuration.channels[1].source == .file(path: folder.file("etc/x.ogg"), loop: false))
    // The same file named from elsewhere gives the same paths.
    let fromRoot = try MonitorConfiguration.load(file: folder.file("etc/monitor.json5"), currentDirectory: "/")
    #expect(fromRoot == configuration)
  }

  @Test("A configuration written back as JSON reads back the same")
  func roundTrip() throws {
    try folder.write("audio", to: "demo.ogg")
    let configuration = try folder.load(
      """
      {
        catalogPath: "catalog.bmcat", databasePath: "plays.sqlite", jack: {serverName: "studio"},
        channels: [
          {name: "a", source: "jack:system:capture_1,system:capture_2", matcher: {minMatches: 12}},
          {name: "b", source: "jack-mono~^usb:capture_"},
          {name: "c", source: "https://example.org/live.mp3"},
          {name: "d", source: "file+loop:demo.ogg", timeZone: "UTC"},
        ],
      }
      """)
    let data = try JSONEncoder().encode(configuration)
    #expect(try JSONDecoder().decode(MonitorConfiguration.self, from: data) == configuration)
  }

  @Test(
    "unknown.catalogPlayClips takes a list of kinds, all or none, as scan --catalog-play-clips does; none by default"
  )
  func catalogPlayClips() throws {
    func kinds(_ value: String) throws -> Set<ItemKind> {
      try folder.load(
        "{catalogPath: \"catalog.bmcat\", databasePath: \"plays.sqlite\", unknown: {clipsDirectory: \"clips\""
          + (value.isEmpty ? "" : ", catalogPlayClips: \(value)") + "}, channels: [{name: \"a\", source: \"jack\"}]}"
      ).unknown.catalogPlayClips
    }
    #expect(try kinds("") == [])
    #expect(try kinds("[\"ad\", \"jingle\"]") == [.ad, .jingle])
    #expect(try kinds("\"all\"") == Set(ItemKind.allCases))
    #expect(try kinds("\"none\"") == [])
    #expect(try kinds("[]") == [])
    for (words, value) in [("ad,jingle", "[\"ad\", \"jingle\"]"), ("all", "\"all\""), ("none", "\"none\"")] {
      #expect(try ScanCommand.playClipKinds(words) == kinds(value))
    }
  }

  @Test("The alerts section sets every channel's conditions, and a channel's own section changes them key by key")
  func alertConditions() throws {
    try folder.write("audio", to: "demo.ogg")
    let configuration = try folder.load(
      """
      {
        catalogPath: "catalog.bmcat", databasePath: "plays.sqlite",
        alerts: {silence: {belowDBFS: -45}, lagging: {enabled: false}, nodeDown: {forSeconds: 120}, holdSeconds: 5,
          webhooks: [{url: "https://hooks.example.org/radio", kinds: ["silence", "source_down"]}],
          command: "/bin/echo paged"},
        channels: [
          {name: "a", source: "jack"},
          {name: "talk", source: "jack", alerts: {silence: {forSeconds: 30}, noCatalog: {minutes: 20}}},
        ],
      }
      """)
    var expected = AlertConditions.defaults
    expected.silence = .init(belowDBFS: -45, forSeconds: 15)
    expected.lagging = nil
    expected.nodeDownForSeconds = 120
    expected.holdSeconds = 5
    #expect(configuration.alerts.conditions(for: configuration.channels[0]) == expected)
    expected.silence = .init(belowDBFS: -45, forSeconds: 30)
    expected.noCatalogSeconds = 1200
    #expect(configuration.alerts.conditions(for: configuration.channels[1]) == expected)
    #expect(
      configuration.alerts.webhooks == [.init(url: "https://hooks.example.org/radio", kinds: [.silence, .sourceDown])])
    #expect(configuration.alerts.command == "/bin/echo paged")
    let data = try JSONEncoder().encode(configuration)
    #expect(try JSONDecoder().decode(MonitorConfiguration.self, from: data) == configuration)
    #expect(MonitorConfiguration(catalogPath: "c", databasePath: "d", channels: []).alerts.conditions == .defaults)
    #expect(AlertConditions.defaults.noCatalogSeconds == nil, "off by default")
  }

  // MARK: Rejections

  /// A file with `channels` and `extra` top-level keys (the catalog and play log are valid).
  static func file(channels: String, _ extra: String = "") -> String {
    "{catalogPath: \"catalog.bmcat\", databasePath: \"plays.sqlite\", \(extra) channels: [\(channels)]}"
  }

  @Test(
    "Each mistake in the file is refused with the file, the exact key path and a reason that says what to do",
    arguments: [
      // Unknown keys, anywhere, with the known keys listed.
      (
        "{catalogpath: \"catalog.bmcat\", databasePath: \"plays.sqlite\", channels: []}", "catalogpath",
        "unknown key `catalogpath`; correct or remove it (known keys here: alerts, catalogPath, channels, "
          + "database, databasePath, http, jack, matcher, reports, spoolDirectory, unknown, workerThreads)"
      ),
      // A command named by its path that is not there.
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "alerts: {command: \"/nonexistent/page-engineer --now\"},"),
        "alerts.command", "/nonexistent/page-engineer does not exist; correct the path, or leave the key out"
      ),
      // The unknown-music clips.
      (
        "{catalogPath: \"catalog.bmcat\", databasePath: \"plays.sqlite\", unknown: {retentionDays: 0}, "
          + "channels: [{name: \"a\", source: \"jack\"}]}", "unknown.retentionDays",
        "0.0 is not a positive number of days"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "unknown: {retentionGigabytes: 1e300},"),
        "unknown.retentionGigabytes", "is not a positive number of gigabytes up to 1000000"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "unknown: {retentionDays: 1e300},"),
        "unknown.retentionDays", "is not a positive number of days up to 36500"
      ),
      (
        "{catalogPath: \"catalog.bmcat\", databasePath: \"plays.sqlite\", unknown: {clipsDir: \"c\"}, "
          + "channels: [{name: \"a\", source: \"jack\"}]}", "unknown.clipsDir",
        "clipsDirectory, retentionDays, retentionGigabytes"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "unknown: {catalogPlayClips: [\"ads\"]},"),
        "unknown.catalogPlayClips", "`ads` is not an item kind; write `song`, `ad`, `jingle`, `other`, or `all`"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "unknown: {catalogPlayClips: \"some\"},"),
        "unknown.catalogPlayClips", "`some` is neither `all` nor `none`"
      ),
      // The alerts section and a channel's.
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "alerts: {silence: {belowDb: -40}},"),
        "alerts.silence.belowDb", "belowDBFS, enabled, forSeconds"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "alerts: {silence: {belowDBFS: 3}},"),
        "alerts.silence.belowDBFS", "is not a level in dBFS below 0"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\", alerts: {playLogUnwritable: {forSeconds: 5}}}"),
        "channels[0].alerts.playLogUnwritable", "unknown key `playLogUnwritable`"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\", alerts: {nodeDown: {forSeconds: 60}}}"),
        "channels[0].alerts.nodeDown", "unknown key `nodeDown`"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "alerts: {nodeDown: {forSeconds: 15}},"),
        "alerts.nodeDown.forSeconds",
        "15.0 s is shorter than 30 s, three of a node's heartbeats (one every 10 s): a node that is running would "
          + "seem down between two of them; use for example 60 (the default)"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\", alerts: {noCatalog: {minutes: 0}}}"),
        "channels[0].alerts.noCatalog.minutes", "is not a number of minutes"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "alerts: {webhooks: [{url: \"hooks.example.org\"}]},"),
        "alerts.webhooks[0].url", "is not an http:// or https:// URL"
      ),
      (
        file(
          channels: "{name: \"a\", source: \"jack\"}", "alerts: {webhooks: [{url: \"http://x\", kinds: [\"quiet\"]}]},"),
        "alerts.webhooks[0].kinds[0]",
        "`quiet` is not one of `silence`, `source_down`, `lagging`, `play_log_unwritable`, `no_catalog`, `node_down`; "
          + "use one of them"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}, {name: \"b\", sorce: \"jack\"}"), "channels[1].sorce",
        "name, source"
      ),
      (file(channels: "{name: \"a\", source: \"jack\"}", "jack: {ringSecond: 2},"), "jack.ringSecond", "ringSeconds"),
      // How long a scan waits for its PostgreSQL server is scan's --outage-wait; the configuration does not set it.
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "database: {outageWaitSeconds: 60},"),
        "database.outageWaitSeconds", "known keys here: node, passwordFile, standby, url"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "database: {standby: true},"), "database.standby",
        "needs a PostgreSQL play log (database.url): an SQLite play log has one monitor"
      ),
      (file(channels: "{name: \"a\", source: {stream: {uri: \"http://x\"}}}"), "channels[0].source.stream.uri", "url"),
      (file(channels: "{name: \"a\", source: {jack: {port: \"mono\"}}}"), "channels[0].source.jack.port", "ports"),
      (
        file(channels: "{name: \"a\", source: \"jack\", matcher: {maxGap: 3}}"), "channels[0].matcher.maxGap",
        "maxGapSeconds"
      ),
      (file(channels: "{name: \"a\", source: \"jack\"}", "matcher: {minvotes: 3},"), "matcher.minvotes", "minVotes"),
      // Wrong types and missing keys.
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "workerThreads: \"four\","), "workerThreads", "a whole number"
      ),
      (file(channels: "{name: 7, source: \"jack\"}"), "channels[0].name", "expected a string"),
      ("{catalogPath: \"catalog.bmcat\", databasePath: \"plays.sqlite\", channels: {}}", "channels", "a list"),
      (file(channels: "{name: \"a\", source: 5}"), "channels[0].source", "source string"),
      ("{databasePath: \"plays.sqlite\", channels: []}", "catalogPath", "missing required key `catalogPath`"),
      (file(channels: "{name: \"a\"}"), "channels[0].source", "missing required key `source`"),
      (file(channels: "{name: \"a\", source: {stream: {}}}"), "channels[0].source.stream.url", "missing required key"),
      // Channels together.
      (file(channels: ""), "channels", "no channels"),
      (
        file(channels: "{name: \"a\", source: \"jack\"}, {name: \"a\", source: \"https://x.org/s\"}"),
        "channels[1].name", "channels[0]"
      ),
      (file(channels: "{name: \"\", source: \"jack\"}"), "channels[0].name", "is empty"),
      (
        file(channels: "{name: \"a\", source: \"jack\"}, {name: \"fm:1\", source: \"jack\"}"), "channels[1].name", "`:`"
      ),
      (file(channels: "{name: \"fm 1\", source: \"jack\"}"), "channels[0].name", "letters, digits"),
      (
        file(channels: "{name: \"a_L\", source: \"jack-mono\"}, {name: \"a\", source: \"jack\"}"), "channels[1].name",
        "JACK port `a_L` is also a port of channel `a_L`"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\", timeZone: \"Mars/Olympus\"}"), "channels[0].timeZone",
        "Mars/Olympus"
      ),
      // Values.
      (file(channels: "{name: \"a\", source: \"jack\"}", "workerThreads: 0,"), "workerThreads", "use 1…64"),
      (file(channels: "{name: \"a\", source: \"jack\"}", "workerThreads: 65,"), "workerThreads", "65 is out of range"),
      (file(channels: "{name: \"a\", source: \"jack\"}", "jack: {ringSeconds: 0},"), "jack.ringSeconds", "positive"),
      (file(channels: "{name: \"a\", source: \"jack\"}", "jack: {ringSeconds: -1},"), "jack.ringSeconds", "positive"),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "jack: {clientName: \"\"},"), "jack.clientName",
        "is empty; name the JACK client"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "matcher: {minVotes: 1},"), "matcher.minVotes",
        "1 is out of range; use 2…1000 (default 6)"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\", matcher: {minVotes: 1}}"), "channels[0].matcher.minVotes",
        "use 2…1000"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "matcher: {minVotes: 1e9},"), "matcher.minVotes",
        "1e+09 is out of range; use 2…1000"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\", matcher: {noMatchIntervalSeconds: 0}}"),
        "channels[0].matcher.noMatchIntervalSeconds", "use 0.1…3600"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "workerThreads: 2.5,"), "workerThreads",
        "2.5 is not a whole number; write one without a fraction, such as 2"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\", matcher: {minMatches: 12.5}}"),
        "channels[0].matcher.minMatches",
        "12.5 is not a whole number"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "jack: {ringSeconds: 1e12},"), "jack.ringSeconds",
        "1e+12 s is longer than a ring may be (at most 300 s)"
      ),
      // Keys written twice and numbers that are not finite, which the JSON reader would take silently.
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "workerThreads: 2,\n\"workerThreads\": 3,"),
        "workerThreads", "line 2: the key `workerThreads` is written twice in the same object (first on line 1)"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\", name: \"b\"}"), "channels[0].name",
        "the key `name` is written twice"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\"}", "jack: {ringSeconds: Infinity},"), "jack.ringSeconds",
        "`Infinity` is not a finite number"
      ),
      (
        file(channels: "{name: \"a\", source: \"jack\", matcher: {maxGapSeconds: NaN}}"),
        "channels[0].matcher.maxGapSeconds", "`NaN` is not a finite number"
      ),
      // Sources.
      (
        file(
          channels: "{name: \"a\", source: \"jack\"}, {name: \"b\", source: \"jack\"}, "
            + "{name: \"c\", source: {stream: {url: \"stream.example.org/live\"}}}"),
        "channels[2].source.stream.url", "no scheme"
      ),
      (file(channels: "{name: \"a\", source: \"radio\"}"), "channels[0].source", "file+loop:PATH"),
      (file(channels: "{name: \"a\", source: \"jack:system:capture_1\"}"), "channels[0].source", "not 1"),
      (
        file(channels: "{name: \"a\", source: {jack: {connect: [\"system:capture_1\"]}}}"),
        "channels[0].source.jack.connect", "two source ports"
      ),
      (
        file(
          channels:
            "{name: \"a\", source: {jack: {ports: \"mono\", connect: [\"system:capture_1\", \"system:capture_2\"]}}}"),
        "channels[0].source.jack.connect", "one source port, not 2"
      ),
      (
        file(channels: "{name: \"a\", source: {jack: {ports: \"mono\", connect: [\"capture_1\"]}}}"),
        "channels[0].source.jack.connect", "CLIENT:PORT"
      ),
      (
        file(channels: "{name: \"a\", source: {jack: {connect: [\"s:1\", \"s:2\"], connectPattern: \"s\"}}}"),
        "channels[0].source.jack.connectPattern", "not both"
      ),
      (
        file(channels: "{name: \"a\", source: {jack: {connectPattern: \"(\"}}}"),
        "channels[0].source.jack.connectPattern", "POSIX"
      ),
      (file(channels: "{name: \"a\", source: {jack: {ports: \"quad\"}}}"), "channels[0].source.jack.ports", "\"mono\""),
      (file(channels: "{name: \"a\", source: {}}"), "channels[0].source", "exactly one of `jack`, `stream` or `file`"),
      (
        file(channels: "{name: \"a\", source: {jack: {}, stream: {url: \"http://x\"}}}"), "channels[0].source",
        "not `jack`, `stream`"
      ),
      // Files.
      (file(channels: "{name: \"a\", source: \"file:missing.ogg\"}"), "channels[0].source.file.path", "no file at"),
      (
        "{catalogPath: \"missing.bmcat\", databasePath: \"plays.sqlite\", channels: [{name: \"a\", source: \"jack\"}]}",
        "catalogPath", "build one with `broadcast-monitor catalog add --catalog "
      ),
      (
        "{catalogPath: \".\", databasePath: \"plays.sqlite\", channels: [{name: \"a\", source: \"jack\"}]}",
        "catalogPath", "is a folder"
      ),
      (
        "{catalogPath: \"catalog.bmcat\", databasePath: \"nowhere/plays.sqlite\", "
          + "channels: [{name: \"a\", source: \"jack\"}]}",
        "databasePath", "does not exist; create it (mkdir -p "
      ),
      (
        "{catalogPath: \"catalog.bmcat\", databasePath: \".\", channels: [{name: \"a\", source: \"jack\"}]}",
        "databasePath", "is a folder"
      ),
    ])
  func rejection(text: String, keyPath: String, reason: String) throws {
    let error = #expect(throws: ConfigurationError.self) { try folder.load(text) }
    #expect(error?.keyPath == "monitor.json5: \(keyPath)", "\(text)")
    #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "no error") should contain \(reason)")
  }

  @Test("100,000 channels are refused with the limit before any channel is decoded")
  func tooManyChannels() throws {
    // The first channel has a key that its decoding refuses: the limit's error, not that one, says that the count
    // was checked before any channel was decoded.
    func channels(_ count: Int) -> String {
      (0..<count).map { "{name: \"c\($0)\", source: \"jack\"\($0 == 0 ? ", volume: 3" : "")}" }
        .joined(separator: ",\n")
    }
    try folder.write(Self.file(channels: channels(10)))
    let few = try #require(throws: ConfigurationError.self) {
      try MonitorConfiguration.load(file: "monitor.json5", currentDirectory: folder.path)
    }
    #expect(few.keyPath.hasPrefix("monitor.json5: channels[0]"), "under the limit the channel is decoded: \(few)")
    try folder.write(Self.file(channels: channels(100_000)))
    let error = try #require(throws: ConfigurationError.self) {
      try MonitorConfiguration.load(file: "monitor.json5", currentDirectory: folder.path)
    }
    #expect(error.keyPath == "monitor.json5: channels")
    #expect(error.reason.hasPrefix("100000 channels; one monitor runs at most 4096. Split them between monitors"))

    // The same limit holds for channels added on the command line.
    var configuration = try folder.load(ConfigurationFolder.minimal)
    let extra = ChannelConfiguration(name: "x", source: .jack(JackSource(stereo: false)))
    configuration.channels += Array(repeating: extra, count: MonitorConfiguration.maxChannels)
    let total = try #require(throws: ConfigurationError.self) {
      try configuration.validate(origin: ConfigurationOrigin(file: "monitor.json5"), checks: .live)
    }
    #expect(total.reason.hasPrefix("4097 channels; one monitor runs at most 4096"))
  }

  @Test("Channels whose JACK rings and matchers need more than half the machine's memory are refused, with figures")
  func memory() throws {
    let jack = (0..<64).map { "{name: \"fm\($0)\", source: \"jack\"}" }.joined(separator: ",")
    try folder.write(Self.file(channels: jack, "jack: {ringSeconds: 300},"))
    let configuration = try MonitorConfiguration.decode(file: "monitor.json5", currentDirectory: folder.path)
    let origin = ConfigurationOrigin(file: "monitor.json5")
    let gigabyte = 1e9
    let rings = try #require(throws: ConfigurationError.self) {
      try configuration.validate(origin: origin, checks: .live, memoryBytes: 8 * gigabyte)
    }
    // 300 s at 48 kHz is 2^24 frames of 4 bytes: 67 MB per port, 128 ports.
    #expect(rings.keyPath == "monitor.json5: jack.ringSeconds")
    #expect(
      rings.reason.hasPrefix(
        "64 channels would take about 8.9 GB before any audio arrives (JACK rings 8.6 GB: 128 ports × "
          + "jack.ringSeconds 300 s at 48 kHz; matchers 268 MB; stream inputs 0 MB), more than half of this "
          + "machine's 8.0 GB; use a smaller jack.ringSeconds"), "\(rings.reason)")
    try configuration.validate(origin: origin, checks: .live, memoryBytes: 32 * gigabyte)

    let streams = (0..<1000).map { "{name: \"s\($0)\", source: \"https://example.org/\($0)\"}" }
    try folder.write(Self.file(channels: streams.joined(separator: ",")))
    let many = try MonitorConfiguration.decode(file: "monitor.json5", currentDirectory: folder.path)
    let error = try #require(throws: ConfigurationError.self) {
      try many.validate(origin: origin, checks: .live, memoryBytes: 16 * gigabyte)
    }
    #expect(error.keyPath == "monitor.json5: channels")
    #expect(error.reason.contains("1000 channels would take about 21.0 GB"), "\(error.reason)")
    #expect(error.reason.hasSuffix("use fewer channels, or split them between monitors on more machines"))
  }

  @Test("The audio each channel keeps for the clips of unknown music counts towards the memory check")
  func clipMemory() throws {
    let streams = (0..<200).map { "{name: \"s\($0)\", source: \"https://example.org/\($0)\"}" }
    try folder.write(Self.file(channels: streams.joined(separator: ",")))
    var configuration = try MonitorConfiguration.decode(file: "monitor.json5", currentDirectory: folder.path)
    let origin = ConfigurationOrigin(file: "monitor.json5")
    // 200 stream channels take about 4.2 GB; with clips, 9.6 MB more each: 6.1 GB, more than half of 10 GB.
    try configuration.validate(origin: origin, checks: .live, memoryBytes: 10e9)
    configuration.unknown.clipsDirectory = folder.file("clips")
    let error = try #require(throws: ConfigurationError.self) {
      try configuration.validate(origin: origin, checks: .live, memoryBytes: 10e9)
    }
    #expect(error.keyPath == "monitor.json5: channels")
    #expect(error.reason.contains("200 channels would take about 6.1 GB"), "\(error.reason)")
    #expect(error.reason.contains("audio kept for unknown.clipsDirectory's clips 1.9 GB"), "\(error.reason)")
  }

  @Test("Files the daemon's user cannot read or write are refused, naming the key and saying so")
  func permissions() throws {
    let catalog = try #require(throws: ConfigurationError.self) {
      try folder.load(ConfigurationFolder.minimal, checks: .denying([folder.file("catalog.bmcat")]))
    }
    #expect(catalog.keyPath == "monitor.json5: catalogPath")
    #expect(catalog.reason.contains("cannot read \(folder.file("catalog.bmcat"))"))
    let database = try #require(throws: ConfigurationError.self) {
      try folder.load(ConfigurationFolder.minimal, checks: .denying([folder.path]))
    }
    #expect(database.keyPath == "monitor.json5: databasePath")
    #expect(database.reason.contains("cannot write in \(folder.path)"))
  }

  @Test("The spool and clip folders are checked at start: a file there, a spool folder missing, a clip folder to make")
  func writableFolders() throws {
    try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file("notadir")))
    func load(_ extra: String, checks: FileChecks = .live) throws -> MonitorConfiguration {
      try folder.load(
        "{catalogPath: \"catalog.bmcat\", databasePath: \"plays.sqlite\", \(extra), "
          + "channels: [{name: \"fm\", source: \"jack\"}]}", checks: checks)
    }
    let spoolFile = try #require(throws: ConfigurationError.self) { try load("spoolDirectory: \"notadir\"") }
    #expect(spoolFile.keyPath == "monitor.json5: spoolDirectory")
    #expect(spoolFile.reason == "\(folder.file("notadir")) is a file, not a folder; name a folder")
    let spoolMissing = try #require(throws: ConfigurationError.self) { try load("spoolDirectory: \"none/spool\"") }
    #expect(spoolMissing.reason.contains("it does not exist; create it (mkdir -p"), "\(spoolMissing.reason)")

    let clipsUnderFile = try #require(throws: ConfigurationError.self) {
      try load("unknown: {clipsDirectory: \"notadir/clips\"}")
    }
    #expect(clipsUnderFile.keyPath == "monitor.json5: unknown.clipsDirectory")
    #expect(clipsUnderFile.reason.contains("\(folder.file("notadir")) is a file, not a folder"))
    let made = try load("unknown: {clipsDirectory: \"clips/by-day\"}")
    #expect(made.unknown.clipsDirectory == folder.file("clips/by-day"), "a folder to make in a writable one")
    try FileManager.default.createDirectory(atPath: folder.file("kept"), withIntermediateDirectories: true)
    let denied = try #require(throws: ConfigurationError.self) {
      try load("unknown: {clipsDirectory: \"kept/clips\"}", checks: .denying([folder.file("kept")]))
    }
    #expect(
      denied.reason == "cannot write in \(folder.file("kept")); let the user running broadcast-monitor write in it")

    var readOnly = FileChecks.denying([folder.path])
    readOnly.isOnReadOnlyFileSystem = { _ in true }
    let protected = try #require(throws: ConfigurationError.self) {
      try folder.load(ConfigurationFolder.minimal, checks: readOnly)
    }
    #expect(protected.keyPath == "monitor.json5: databasePath")
    #expect(protected.reason.contains("read-only file system") && protected.reason.contains("ReadWritePaths="))
  }

  @Test("A folder or a device named as the configuration file, or as the token file, is told apart from a permission")
  func notAFile() throws {
    try FileManager.default.createDirectory(atPath: folder.file("etc"), withIntermediateDirectories: true)
    let asFolder = try #require(throws: ConfigurationError.self) {
      try MonitorConfiguration.load(file: "etc", currentDirectory: folder.path)
    }
    #expect(asFolder.reason == "is a folder; name the configuration file in it, such as etc/monitor.json5")
    let device = try #require(throws: ConfigurationError.self) {
      try MonitorConfiguration.load(file: "/dev/null", currentDirectory: folder.path)
    }
    #expect(device.reason.hasPrefix("is not a regular file (a device, a pipe or a socket)"), "\(device.reason)")
    let token = try #require(throws: ConfigurationError.self) {
      try folder.load(
        "{catalogPath: \"catalog.bmcat\", databasePath: \"plays.sqlite\", channels: [{name: \"fm\", "
          + "source: \"jack\"}], http: {listen: \"0.0.0.0:0\", tokenFile: \"etc\"}}")
    }
    #expect(token.keyPath == "monitor.json5: http.tokenFile")
    #expect(token.reason == "\(folder.file("etc")) is a folder; name the file that holds the token")
  }

  @Test("A file that is missing or not JSON is refused, naming the file")
  func unreadableFile() throws {
    let missing = try #require(throws: ConfigurationError.self) {
      try MonitorConfiguration.load(file: "absent.json5", currentDirectory: folder.path)
    }
    #expect(missing.keyPath == "absent.json5")
    #expect(missing.reason.contains("no such configuration file"))
    let broken = try #require(throws: ConfigurationError.self) { try folder.load("{catalogPath: \"x\",, }") }
    #expect(broken.keyPath == "monitor.json5")
    #expect(broken.reason.contains("Look for a missing or doubled comma"))
    #expect(broken.reason.hasPrefix("line 1, column 19 (at `, }`): "), "\(broken.reason)")
    #expect(broken.description.hasPrefix("configuration: monitor.json5: "))
  }

  @Test("A file that is not UTF-8 text is refused, naming the line and the byte, instead of crashing the JSON5 reader")
  func notUTF8() throws {
    // An unquoted key of bytes 0xFE 0xFF: found by scripts/fuzz.sh (config); Foundation's JSON5 reader traps on it.
    for (bytes, place) in [
      ([UInt8]("{".utf8) + [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "byte 0xFE at line 1, column 2"),
      (
        Array("{\n  // a comment\n  catalogPath: \"x".utf8) + [0xC3, 0x28] + Array("\",\n}".utf8), "byte 0xC3 at line 3"
      ),
    ] {
      try Data(bytes).write(to: URL(fileURLWithPath: folder.file("monitor.json5")))
      let error = try #require(throws: ConfigurationError.self) {
        try MonitorConfiguration.load(file: "monitor.json5", currentDirectory: folder.path)
      }
      #expect(error.keyPath == "monitor.json5")
      #expect(error.reason.contains("not UTF-8 text"), "\(error)")
      #expect(error.reason.contains(place), "\(error)")
      #expect(error.reason.contains("save the file as UTF-8"), "\(error)")
    }
  }

  @Test("config/monitor.example.json5 loads, with the files it names present")
  func example() throws {
    let root = try TemporaryDirectory(prefix: "example-root")
    let state = root.file("var/lib/broadcast-monitor")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    try Data("BMCATLG".utf8).write(to: state.appendingPathComponent("catalog.bmcat"))
    try Data("audio".utf8).write(to: state.appendingPathComponent("demo.ogg"))
    let example = Fixtures.packageRoot.appendingPathComponent("config/monitor.example.json5").path
    let configuration = try MonitorConfiguration.load(
      file: example, currentDirectory: "/", checks: .rooted(at: root.url.path))

    #expect(configuration.catalogPath == "/var/lib/broadcast-monitor/catalog.bmcat")
    #expect(configuration.workerThreads == 4)
    #expect(configuration.matcher == MatcherSettings())
    #expect(configuration.channels.map(\.name) == ["fm1", "fm2", "web", "am", "demo"])
    let sources = configuration.channels.map(\.source)
    #expect(sources[0] == .jack(JackSource(stereo: true, connect: ["system:capture_1", "system:capture_2"])))
    #expect(sources[1] == .jack(JackSource(stereo: true, connect: ["system:capture_3", "system:capture_4"])))
    #expect(sources[2] == .stream(url: "https://stream.example.org/live.mp3"))
    #expect(sources[3] == .jack(JackSource(stereo: false, connectPattern: "^usb-tuner:capture_")))
    #expect(sources[4] == .file(path: "/var/lib/broadcast-monitor/demo.ogg", loop: true))
    #expect(configuration.matcherSettings(for: configuration.channels[1]).maxGapSeconds == 30)

    // Without the catalog the same file is refused: the check is real.
    try FileManager.default.removeItem(at: state.appendingPathComponent("catalog.bmcat"))
    #expect(throws: ConfigurationError.self) {
      try MonitorConfiguration.load(file: example, currentDirectory: "/", checks: .rooted(at: root.url.path))
    }
  }
}
