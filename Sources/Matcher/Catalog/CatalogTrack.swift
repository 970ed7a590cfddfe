import Common
import Foundation

/// One reference recording in a catalog: its metadata and where its fingerprint sits on the catalog's frame axis.
public struct CatalogTrack: Codable, Sendable, Equatable {
  /// Stable key: a checksum of the source file's bytes, in hex. Re-adding the same file finds the same key.
  public var key: String
  /// The path the track was added from (as given, made absolute).
  public var sourcePath: String
  public var metadata: TrackMetadata
  public var durationSeconds: Double
  /// Where sound begins and ends in the reference (first/last hop above -60 dBFS).
  public var audibleStartSeconds: Double
  public var audibleEndSeconds: Double
  /// Where the recording's loud part ends (`QuietTail`): a play whose matches stop after it is extended to the audible
  /// end. The audible end when the recording stays loud to its end, and in catalogs written before format version 5.
  public var loudEndSeconds: Double
  /// First frame of this track on the catalog's global frame axis.
  public var globalStartFrame: UInt32
  public var frameCount: UInt32
  public var hashCount: Int
  public var addedAt: Date
}

extension CatalogTrack {
  private enum CodingKeys: String, CodingKey {
    case key, sourcePath, metadata, durationSeconds, audibleStartSeconds, audibleEndSeconds, loudEndSeconds
    case globalStartFrame, frameCount, hashCount, addedAt
  }

  /// Reads a track from the JSON header of format versions 1 to 3, which has no `loudEndSeconds`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    key = try c.decode(String.self, forKey: .key)
    sourcePath = try c.decode(String.self, forKey: .sourcePath)
    metadata = try c.decode(TrackMetadata.self, forKey: .metadata)
    durationSeconds = try c.decode(Double.self, forKey: .durationSeconds)
    audibleStartSeconds = try c.decode(Double.self, forKey: .audibleStartSeconds)
    audibleEndSeconds = try c.decode(Double.self, forKey: .audibleEndSeconds)
    loudEndSeconds = try c.decodeIfPresent(Double.self, forKey: .loudEndSeconds) ?? audibleEndSeconds
    globalStartFrame = try c.decode(UInt32.self, forKey: .globalStartFrame)
    frameCount = try c.decode(UInt32.self, forKey: .frameCount)
    hashCount = try c.decode(Int.self, forKey: .hashCount)
    addedAt = try c.decode(Date.self, forKey: .addedAt)
  }
}
