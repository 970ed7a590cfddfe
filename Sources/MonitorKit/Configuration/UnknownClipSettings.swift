import Common
import Foundation

/// Where the audio clips of unknown music are kept, and for how long: the `unknown` section of the configuration
/// (`scan --clips DIR` for a scan). Every key is optional; without `clipsDirectory` no clip is kept. With
/// `catalogPlayClips`, the catalog plays of those kinds get a clip too (proof of airing), in the same folder and under
/// the same retention.
///
/// Threads: a value; any thread.
struct UnknownClipSettings: Codable, Sendable, Equatable {
  /// The folder the clips go to (relative to the configuration file's folder); created when missing. Nil: no clips.
  var clipsDirectory: String?
  /// Clips older than this many days are deleted.
  var retentionDays: Double = Self.defaultRetentionDays
  /// When the clips take more than this, the oldest are deleted until they fit.
  var retentionGigabytes: Double = Self.defaultRetentionGigabytes
  /// The kinds of catalog items whose plays get a clip too: a list of kinds (`["ad", "jingle"]`), `"all"` or
  /// `"none"` (the default).
  var catalogPlayClips: Set<ItemKind> = []

  /// Three months: long enough for a music director to listen to a month's unknowns after the month.
  static let defaultRetentionDays = 90.0
  /// At 32 kb/s (measured 4.1 kB/s, 0.35 GB per channel-day of non-stop unknown music): 28 channel-days of
  /// non-stop unknown music, or about 340 at 2 h of unknown music a day.
  static let defaultRetentionGigabytes = 10.0

  enum CodingKeys: String, CodingKey, CaseIterable {
    case clipsDirectory
    case retentionDays
    case retentionGigabytes
    case catalogPlayClips
  }

  init(
    clipsDirectory: String? = nil, retentionDays: Double = Self.defaultRetentionDays,
    retentionGigabytes: Double = Self.defaultRetentionGigabytes, catalogPlayClips: Set<ItemKind> = []
  ) {
    self.clipsDirectory = clipsDirectory
    self.retentionDays = retentionDays
    self.retentionGigabytes = retentionGigabytes
    self.catalogPlayClips = catalogPlayClips
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    clipsDirectory = try c.decodeIfPresent(String.self, forKey: .clipsDirectory)
    retentionDays = try c.decodeIfPresent(Double.self, forKey: .retentionDays) ?? Self.defaultRetentionDays
    retentionGigabytes =
      try c.decodeIfPresent(Double.self, forKey: .retentionGigabytes) ?? Self.defaultRetentionGigabytes
    catalogPlayClips = try Self.decodeKinds(c)
  }

  /// `catalogPlayClips`: `"all"`, `"none"` or a list of kinds; a word that is no kind is refused with the words.
  private static func decodeKinds(_ c: KeyedDecodingContainer<CodingKeys>) throws -> Set<ItemKind> {
    guard c.contains(.catalogPlayClips) else { return [] }
    let words: [String]
    if let word = try? c.decode(String.self, forKey: .catalogPlayClips) {
      guard word == "all" || word == "none" else {
        throw DecodingError.dataCorruptedError(
          forKey: .catalogPlayClips, in: c,
          debugDescription: "`\(word)` is neither `all` nor `none`; write one of them, or a list of kinds such as "
            + "[\"ad\"] (\(KindWordProblem.kindWords))")
      }
      words = [word]
    } else {
      words = try c.decode([String].self, forKey: .catalogPlayClips)
    }
    do {
      return try catalogPlayClipKinds(words)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .catalogPlayClips, in: c,
        debugDescription: "`\(error.word)` is not an item kind; write "
          + "\(KindWordProblem.kindWords), or `all`")
    }
  }

  /// The kinds that the words of a `catalogPlayClips` value name (the configuration's list, or the comma-separated
  /// words of `scan --catalog-play-clips`): `all` or `none` alone, else item kinds.
  static func catalogPlayClipKinds(_ words: [String]) throws(KindWordProblem) -> Set<ItemKind> {
    if words == ["all"] { return Set(ItemKind.allCases) }
    if words == ["none"] { return [] }
    var kinds: Set<ItemKind> = []
    for word in words {
      guard let kind = ItemKind(rawValue: word) else { throw KindWordProblem(word: word) }
      kinds.insert(kind)
    }
    return kinds
  }

  /// A word of a `catalogPlayClips` value that names no item kind.
  struct KindWordProblem: Error {
    let word: String
    /// The item kinds, each in backquotes, for the message that names the word.
    static let kindWords = ItemKind.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")
  }

  /// The longest retention: a century of clips, or a petabyte of them, is more than any station keeps; the bounds
  /// keep the retention's arithmetic (seconds, bytes) exact.
  static let maximumRetentionDays = 36_500.0
  static let maximumRetentionGigabytes = 1_000_000.0

  /// - Throws: a `ConfigurationError` for a retention that is not a positive number up to its maximum.
  func validate(origin: ConfigurationOrigin) throws(ConfigurationError) {
    if !(retentionDays > 0 && retentionDays <= Self.maximumRetentionDays) {
      throw ConfigurationError(
        keyPath: origin.place(of: "unknown.retentionDays"),
        reason: "\(retentionDays) is not a positive number of days up to 36500; write such as 90")
    }
    if !(retentionGigabytes > 0 && retentionGigabytes <= Self.maximumRetentionGigabytes) {
      throw ConfigurationError(
        keyPath: origin.place(of: "unknown.retentionGigabytes"),
        reason: "\(retentionGigabytes) is not a positive number of gigabytes up to 1000000; write such as 10")
    }
  }
}
