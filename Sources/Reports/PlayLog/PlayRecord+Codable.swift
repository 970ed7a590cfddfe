import Common
import Foundation

/// A play's JSON, as the play spool keeps it: one flat object, the item's metadata fields (`title`, `artist`,
/// `album`, `isrc`, `label`, `kind`, `attributes`) beside the play's, the shape spools of earlier versions have, so
/// that the next start replays them (`Tests/Fixtures/golden/spool` holds one). `id` and `itemDurationSeconds` are
/// left out when nil.
extension PlayRecord: Codable {
  enum CodingKeys: String, CodingKey {
    case id, channel, itemKey, title, artist, album, isrc, label, kind, attributes, itemDurationSeconds, start, end
    case refOffsetSeconds, speed, confidence, detectedAt, status
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try c.decodeIfPresent(Int64.self, forKey: .id), channel: try c.decode(String.self, forKey: .channel),
      itemKey: try c.decode(String.self, forKey: .itemKey),
      metadata: TrackMetadata(
        title: try c.decode(String.self, forKey: .title), artist: try c.decode(String.self, forKey: .artist),
        album: try c.decode(String.self, forKey: .album), isrc: try c.decode(String.self, forKey: .isrc),
        label: try c.decode(String.self, forKey: .label), kind: try c.decode(ItemKind.self, forKey: .kind),
        attributes: try c.decode([String: String].self, forKey: .attributes)),
      itemDurationSeconds: try c.decodeIfPresent(Double.self, forKey: .itemDurationSeconds),
      start: try c.decode(Date.self, forKey: .start), end: try c.decode(Date.self, forKey: .end),
      refOffsetSeconds: try c.decode(Double.self, forKey: .refOffsetSeconds),
      speed: try c.decode(Double.self, forKey: .speed), confidence: try c.decode(Double.self, forKey: .confidence),
      detectedAt: try c.decode(Date.self, forKey: .detectedAt), status: try c.decode(PlayStatus.self, forKey: .status))
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeIfPresent(id, forKey: .id)
    try c.encode(channel, forKey: .channel)
    try c.encode(itemKey, forKey: .itemKey)
    try c.encode(metadata.title, forKey: .title)
    try c.encode(metadata.artist, forKey: .artist)
    try c.encode(metadata.album, forKey: .album)
    try c.encode(metadata.isrc, forKey: .isrc)
    try c.encode(metadata.label, forKey: .label)
    try c.encode(metadata.kind, forKey: .kind)
    try c.encode(metadata.attributes, forKey: .attributes)
    try c.encodeIfPresent(itemDurationSeconds, forKey: .itemDurationSeconds)
    try c.encode(start, forKey: .start)
    try c.encode(end, forKey: .end)
    try c.encode(refOffsetSeconds, forKey: .refOffsetSeconds)
    try c.encode(speed, forKey: .speed)
    try c.encode(confidence, forKey: .confidence)
    try c.encode(detectedAt, forKey: .detectedAt)
    try c.encode(status, forKey: .status)
  }
}
