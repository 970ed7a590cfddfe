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
  /// First frame of this track on the catalog's global frame axis.
  public var globalStartFrame: UInt32
  public var frameCount: UInt32
  public var hashCount: Int
  public var addedAt: Date
}
