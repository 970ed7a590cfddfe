import Common
import Foundation

/// A custom catalog: reference tracks with metadata and the index of their fingerprints (ShazamKit's
/// `SHCustomCatalog`, for broadcast).
///
/// Immutable: load it, or build one with `CatalogBuilder`. Any thread may read it; stream matchers on many threads
/// share one catalog.
public final class Catalog: Sendable {
  public let parameters: FingerprintParameters
  public let tracks: [CatalogTrack]
  let index: CatalogIndex
  /// Hashes with more postings than this were dropped as stop words (0: none). An edited catalog never lowers it, so
  /// editing does not erode the index.
  let stopHashCap: Int
  /// The pairs of `index` that agree, for the search at scale; nil in a catalog file older than it (format version
  /// 1), which the search reads as it did before (`TargetAgreement` alone) until `catalog upgrade` adds it.
  let triplets: TripletIndex?
  /// The format version of the file this catalog was read from (`formatVersion` for a catalog built here).
  let fileFormatVersion: UInt32
  /// The file this catalog was read from, as it was when it was opened; nil for a catalog built here.
  let fileIdentity: FileIdentity?
  /// The checksum stored in that file's last 8 bytes, which the load verified; nil for a catalog built here.
  let fileChecksum: UInt64?
  /// Global start frame of each track, ascending (tracks are stored in this order).
  private let starts: [UInt32]
  /// Every `PostingFences.stride`-th posting of `index`, for the search's lookups within long posting lists; nil when
  /// its postings carry residual hash bits (a catalog of fewer than about two million postings, read list by list).
  let pairFences: PostingFences?

  init(
    parameters: FingerprintParameters, tracks: [CatalogTrack], index: CatalogIndex, stopHashCap: Int,
    triplets: TripletIndex?, fileFormatVersion: UInt32 = Catalog.formatVersion, fileIdentity: FileIdentity? = nil,
    fileChecksum: UInt64? = nil, pairFences: PostingFences? = nil
  ) {
    self.fileFormatVersion = fileFormatVersion
    self.fileIdentity = fileIdentity
    self.fileChecksum = fileChecksum
    self.parameters = parameters
    self.tracks = tracks
    self.index = index
    self.stopHashCap = stopHashCap
    self.triplets = triplets
    starts = tracks.map(\.globalStartFrame)
    self.pairFences = index.residualBits == 0 ? pairFences ?? PostingFences(postings: index.postings) : nil
  }

  /// Frames left empty between two tracks on the global axis, so that no diagonal runs from one into the next.
  static let gapFrames: UInt32 = 256

  /// The track holding global frame `position`, or nil in a gap.
  func trackIndex(containing position: UInt32) -> Int? {
    Self.trackIndex(containing: position, tracks: tracks, starts: starts)
  }

  /// The track of `tracks` (laid in frame order, starting at `starts`) holding global frame `position`, or nil in a
  /// gap.
  static func trackIndex(containing position: UInt32, tracks: [CatalogTrack], starts: [UInt32]) -> Int? {
    let i = BinarySearch.partitionPoint(in: starts.indices) { starts[$0] <= position } - 1
    guard i >= 0, position < starts[i] + tracks[i].frameCount else { return nil }
    return i
  }

  /// Summary figures (`catalog info`).
  public struct Info: Sendable {
    public var trackCount: Int
    public var hours: Double
    public var hashCount: Int
    /// The pair index and the triplet index.
    public var indexBytes: Int
    public var fileBytes: Int?
    /// False for a catalog file of format version 1 (`catalog upgrade` adds the index).
    public var hasTripletIndex: Bool
    /// The format version of the file it was read from (older than `Catalog.formatVersion`: `catalog upgrade`
    /// rewrites it).
    public var formatVersion: UInt32 = Catalog.formatVersion
  }

  public func info(fileBytes: Int? = nil) -> Info {
    Info(
      trackCount: tracks.count, hours: tracks.reduce(0) { $0 + $1.durationSeconds } / 3600,
      hashCount: index.postings.count, indexBytes: index.bytes + (triplets?.bytes ?? 0), fileBytes: fileBytes,
      hasTripletIndex: triplets != nil, formatVersion: fileFormatVersion)
  }
}
