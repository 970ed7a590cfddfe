import Common
import Matcher

/// Where a channel's audio comes from.
///
/// JSON accepts the command-line string (`"jack:system:capture_1,system:capture_2"`, see
/// `ChannelSource+CommandLine.swift`) or an object with exactly one key:
/// `{jack: {ports: "stereo", connect: [...], connectPattern: "..."}}`, `{stream: {url: "https://..."}}` or
/// `{file: {path: "demo.ogg", loop: false}}`. It is written back as the object.
///
/// Threads: a value; any thread.
enum ChannelSource: Codable, Equatable, Sendable {
  /// JACK input ports of broadcast-monitor's client.
  case jack(JackSource)
  /// A network stream (or anything else ffmpeg opens by URL), reconnected when it drops.
  case stream(url: String)
  /// An audio file, played once or over and over (`loop`), for demos and tests.
  case file(path: String, loop: Bool)

  // MARK: JSON

  enum CodingKeys: String, CodingKey, CaseIterable {
    case jack
    case stream
    case file
  }

  enum StreamKeys: String, CodingKey, CaseIterable {
    case url
  }

  enum FileKeys: String, CodingKey, CaseIterable {
    case path
    case loop
  }

  init(from decoder: any Decoder) throws {
    if let text = try? decoder.singleValueContainer().decode(String.self) {
      do {
        self = try ChannelSource(parsing: text)
      } catch {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
      }
      return
    }
    guard let c = try? decoder.container(keyedBy: AnyCodingKey.self) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "expected a source string such as \"jack\", \"https://…\" or \"file:PATH\", or an object such as "
            + "{stream: {url: \"https://…\"}}"))
    }
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    guard c.allKeys.count == 1, let key = c.allKeys.first.flatMap({ CodingKeys(stringValue: $0.stringValue) }) else {
      let given = c.allKeys.map { "`\($0.stringValue)`" }.sorted().joined(separator: ", ")
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "needs exactly one of `jack`, `stream` or `file`"
            + (given.isEmpty ? "" : ", not \(given)")))
    }
    let keyed = try decoder.container(keyedBy: CodingKeys.self)
    let inner = try keyed.superDecoder(forKey: key)
    switch key {
    case .jack:
      self = .jack(try JackSource(from: inner))
    case .stream:
      try inner.rejectUnknownKeys(known: StreamKeys.allCases.map(\.rawValue))
      let s = try inner.container(keyedBy: StreamKeys.self)
      self = .stream(url: try s.decode(String.self, forKey: .url))
    case .file:
      try inner.rejectUnknownKeys(known: FileKeys.allCases.map(\.rawValue))
      let f = try inner.container(keyedBy: FileKeys.self)
      self = .file(path: try f.decode(String.self, forKey: .path), loop: try f.value(.loop, or: false))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .jack(let jack):
      try c.encode(jack, forKey: .jack)
    case .stream(let url):
      var s = c.nestedContainer(keyedBy: StreamKeys.self, forKey: .stream)
      try s.encode(url, forKey: .url)
    case .file(let path, let loop):
      var f = c.nestedContainer(keyedBy: FileKeys.self, forKey: .file)
      try f.encode(path, forKey: .path)
      try f.encode(loop, forKey: .loop)
    }
  }
}
