import Common
import Foundation
import Matcher
import TestSupport
import Testing

@Suite("MatcherSettings and FingerprintParameters")
struct MatcherSettingsTests {
  @Test("The defaults are valid")
  func defaultsAreValid() throws {
    try MatcherSettings().validate()
    try FingerprintParameters().validate()
  }

  /// Default settings with one value made impossible.
  static func settings(breaking key: String) -> MatcherSettings {
    var s = MatcherSettings()
    switch key {
    case "maxSpeedDeviation": s.maxSpeedDeviation = 0.5
    case "speedStep": s.speedStep = 0
    case "voteWindowSeconds": s.voteWindowSeconds = 1
    case "minVotes": s.minVotes = 1
    case "minMatches": s.minMatches = 2
    case "alignmentToleranceFrames": s.alignmentToleranceFrames = 0
    case "pairTimeMarginFrames": s.pairTimeMarginFrames = 0.6
    case "maxGapSeconds": s.maxGapSeconds = 0
    default: s.progressIntervalSeconds = -1
    }
    return s
  }

  @Test(
    "Each impossible matcher setting is refused, naming its key path",
    arguments: [
      "maxSpeedDeviation", "speedStep", "voteWindowSeconds", "minVotes", "minMatches", "alignmentToleranceFrames",
      "maxGapSeconds", "progressIntervalSeconds", "pairTimeMarginFrames",
    ])
  func badSetting(key: String) {
    let error = #expect(throws: ConfigurationError.self) { try Self.settings(breaking: key).validate() }
    #expect(error?.keyPath == "matcher.\(key)")
    #expect(error?.description.contains("matcher.\(key)") == true)
  }

  /// Default parameters with one value made impossible.
  static func parameters(breaking key: String) -> FingerprintParameters {
    var p = FingerprintParameters()
    switch key {
    case "sampleRateHz": p.sampleRateHz = 1000
    case "fftSizeSamples": p.fftSizeSamples = 1000
    case "hopSizeSamples": p.hopSizeSamples = 2048
    case "minFrequencyHz": p.minFrequencyHz = 4000
    case "maxFrequencyHz": p.maxFrequencyHz = 4000
    case "maxPairFrames": p.maxPairFrames = 64
    case "queryFanOut": p.queryFanOut = 2
    default: p.anchorStepSemitones = 0.01
    }
    return p
  }

  @Test(
    "Each impossible fingerprint parameter is refused, naming its key path",
    arguments: [
      "sampleRateHz", "fftSizeSamples", "hopSizeSamples", "minFrequencyHz", "maxFrequencyHz", "maxPairFrames",
      "queryFanOut", "anchorStepSemitones",
    ])
  func badParameter(key: String) {
    let error = #expect(throws: ConfigurationError.self) { try Self.parameters(breaking: key).validate() }
    #expect(error?.keyPath == "fingerprint.\(key)")
  }

  @Test("Frame times: frame 0 is centred half a window in, frames are a hop apart, and frame(atSeconds:) inverts it")
  func frameTimes() {
    let p = FingerprintParameters()
    let hop = Double(p.hopSizeSamples) / Double(p.sampleRateHz)
    #expect(p.seconds(ofFrame: 0) == Double(p.fftSizeSamples) / 2 / Double(p.sampleRateHz))
    #expect(abs(p.seconds(ofFrame: 10) - p.seconds(ofFrame: 9) - hop) < 1e-12)
    #expect(abs(p.framesPerSecond - 1 / hop) < 1e-9)
    for frame in [0.0, 1.5, 100, 12345.25] {
      #expect(abs(p.frame(atSeconds: p.seconds(ofFrame: frame)) - frame) < 1e-9)
    }
  }

  @Test("Item kinds are read leniently: empty is a song, adverts and idents are known, other words are refused")
  func itemKinds() {
    #expect(ItemKind(lenient: "") == .song)
    #expect(ItemKind(lenient: " Song ") == .song)
    #expect(ItemKind(lenient: "Advert") == .ad)
    #expect(ItemKind(lenient: "commercial") == .ad)
    #expect(ItemKind(lenient: "IDENT") == .jingle)
    #expect(ItemKind(lenient: "Other") == .other)
    #expect(ItemKind(lenient: "podcast") == nil)
    for word in ItemKind.acceptedWords { #expect(ItemKind(lenient: word) != nil, "\(word)") }
  }

  @Test(
    "A settings file with a key twice, a fraction for a whole number or Infinity is refused, naming key and value",
    arguments: [
      ("{minVotes: 5,\n minVotes: 7}", "minVotes", "line 2: the key `minVotes` is written twice"),
      ("{minVotes: 2.5}", "minVotes", "2.5 is not a whole number"),
      ("{minMatches: 1e30}", "minMatches", "is too large for this setting"),
      ("{maxGapSeconds: Infinity}", "maxGapSeconds", "`Infinity` is not a finite number"),
      ("{snapToEdgeSeconds: NaN}", "snapToEdgeSeconds", "`NaN` is not a finite number"),
    ])
  func badSettingsFile(text: String, key: String, reason: String) throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("tuned.json5")
    try Data(text.utf8).write(to: url)
    let error = #expect(throws: ConfigurationError.self) { try MatcherSettings(contentsOf: url) }
    #expect(error?.keyPath == "\(url.path): \(key)", "\(error?.description ?? "no error")")
    #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "no error")")
  }

  @Test("Every matcher setting has a range: a value past either end is refused with the range and the default")
  func ranges() throws {
    #expect(Set(MatcherSettings.ranges.keys) == Set(MatcherSettings.CodingKeys.allCases))
    for (key, range) in MatcherSettings.ranges {
      for value in [range.upperBound * 2 + 1, range.lowerBound - 1] {
        var json = try #require(
          try JSONSerialization.jsonObject(with: JSONEncoder().encode(MatcherSettings())) as? [String: Any])
        json[key.rawValue] = value
        let settings = try JSONDecoder().decode(
          MatcherSettings.self, from: try JSONSerialization.data(withJSONObject: json))
        let error = #expect(throws: ConfigurationError.self, "\(key) = \(value)") { try settings.validate() }
        #expect(error?.keyPath == "matcher.\(key.rawValue)")
        #expect(error?.reason.contains("is out of range; use ") == true, "\(error?.reason ?? "")")
      }
    }
    var notANumber = MatcherSettings()
    notANumber.maxGapSeconds = .nan
    #expect(throws: ConfigurationError.self) { try notANumber.validate() }
    var absurd = MatcherSettings()
    absurd.minVotes = 1_000_000_000
    let error = #expect(throws: ConfigurationError.self) { try absurd.validate() }
    #expect(error?.reason == "1e+09 is out of range; use 2…1000 (default 6)")
  }
}

@Suite("MatcherSettings files")
struct MatcherSettingsFileTests {
  static func read(_ text: String) throws(ConfigurationError) -> MatcherSettings {
    let folder: TemporaryDirectory
    do {
      folder = try TemporaryDirectory(prefix: "settings")
      try Data(text.utf8).write(to: folder.file("settings.json5"))
    } catch {
      throw ConfigurationError(keyPath: "test", reason: "cannot write the settings file: \(error)")
    }
    return try MatcherSettings(contentsOf: folder.file("settings.json5"))
  }

  @Test("JSON5 with comments and trailing commas; missing keys keep their defaults")
  func partial() throws {
    let settings = try Self.read(
      """
      // A station that speeds songs up a lot.
      {
        maxSpeedDeviation: 0.1,
        maxGapSeconds: 30, // long voice-overs
      }
      """)
    var expected = MatcherSettings()
    expected.maxSpeedDeviation = 0.1
    expected.maxGapSeconds = 30
    #expect(settings == expected)
    #expect(try Self.read("{}") == MatcherSettings())
  }

  @Test("A settings file that is not UTF-8 text is refused, naming the byte, instead of crashing the JSON5 reader")
  func notUTF8() throws {
    let folder = try TemporaryDirectory(prefix: "settings")
    let url = folder.file("settings.json5")
    try Data([UInt8]("{".utf8) + [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).write(to: url)
    let error = #expect(throws: ConfigurationError.self) { try MatcherSettings(contentsOf: url) }
    #expect(error?.keyPath == url.path)
    #expect(
      error?.reason.contains("not UTF-8 text: byte 0xFE at line 1, column 2") == true, "\(String(describing: error))")
  }

  @Test("The shipped config/matcher-settings.json5 holds exactly the defaults")
  func shippedDefaults() throws {
    let url = Fixtures.packageRoot.appendingPathComponent("config/matcher-settings.json5")
    try #require(FileManager.default.fileExists(atPath: url.path))
    #expect(try MatcherSettings(contentsOf: url) == MatcherSettings())
  }

  @Test("An unknown key, a wrong type or an impossible value is an error naming the key")
  func errors() {
    let unknown = #expect(throws: ConfigurationError.self) { try Self.read("{ maxGapSecond: 30 }") }
    #expect(unknown?.description.contains("maxGapSecond") == true)
    let wrongType = #expect(throws: ConfigurationError.self) { try Self.read("{ minVotes: \"six\" }") }
    #expect(wrongType?.keyPath.hasSuffix("minVotes") == true)
    let impossible = #expect(throws: ConfigurationError.self) { try Self.read("{ minVotes: 1 }") }
    #expect(impossible?.keyPath == "matcher.minVotes")
    let missing = #expect(throws: ConfigurationError.self) {
      try MatcherSettings(contentsOf: URL(fileURLWithPath: "/no/such/settings.json5"))
    }
    #expect(missing?.keyPath == "/no/such/settings.json5")
  }
}
