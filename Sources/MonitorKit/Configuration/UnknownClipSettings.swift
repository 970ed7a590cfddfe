import Common
import Foundation

/// Where the audio clips of unknown music are kept, and for how long: the `unknown` section of the configuration
/// (`scan --clips DIR` for a scan). Every key is optional; without `clipsDirectory` no clip is kept.
///
/// Threads: a value; any thread.
struct UnknownClipSettings: Codable, Sendable, Equatable {
  /// The folder the clips go to (relative to the configuration file's folder); created when missing. Nil: no clips.
  var clipsDirectory: String?
  /// Clips older than this many days are deleted.
  var retentionDays: Double = Self.defaultRetentionDays
  /// When the clips take more than this, the oldest are deleted until they fit.
  var retentionGigabytes: Double = Self.defaultRetentionGigabytes

  /// Three months: long enough for a music director to listen to a month's unknowns after the month.
  static let defaultRetentionDays = 90.0
  /// At 32 kb/s (measured 4.1 kB/s, 0.35 GB per channel-day of non-stop unknown music): 28 channel-days of
  /// non-stop unknown music, or about 340 at 2 h of unknown music a day.
  static let defaultRetentionGigabytes = 10.0

  enum CodingKeys: String, CodingKey, CaseIterable {
    case clipsDirectory
    case retentionDays
    case retentionGigabytes
  }

  init(
    clipsDirectory: String? = nil, retentionDays: Double = Self.defaultRetentionDays,
    retentionGigabytes: Double = Self.defaultRetentionGigabytes
  ) {
    self.clipsDirectory = clipsDirectory
    self.retentionDays = retentionDays
    self.retentionGigabytes = retentionGigabytes
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    clipsDirectory = try c.decodeIfPresent(String.self, forKey: .clipsDirectory)
    retentionDays = try c.decodeIfPresent(Double.self, forKey: .retentionDays) ?? Self.defaultRetentionDays
    retentionGigabytes =
      try c.decodeIfPresent(Double.self, forKey: .retentionGigabytes) ?? Self.defaultRetentionGigabytes
  }

  /// - Throws: a `ConfigurationError` for a retention that is not a positive number.
  func validate(origin: ConfigurationOrigin) throws(ConfigurationError) {
    if !(retentionDays > 0) || !retentionDays.isFinite {
      throw ConfigurationError(
        keyPath: origin.place(of: "unknown.retentionDays"),
        reason: "\(retentionDays) is not a positive number of days; write such as 90")
    }
    if !(retentionGigabytes > 0) || !retentionGigabytes.isFinite {
      throw ConfigurationError(
        keyPath: origin.place(of: "unknown.retentionGigabytes"),
        reason: "\(retentionGigabytes) is not a positive number of gigabytes; write such as 10")
    }
  }
}
