/// What was on the air over a stretch of a channel, as `report segments` names it.
public enum AirLabel: String, Sendable, Equatable, CaseIterable {
  /// A catalog item (the stream matcher's play).
  case catalog
  /// Music that matched nothing in the catalog.
  case unknownMusic = "unknown-music"
  /// Talk: presenters, news, spoken ads and jingles.
  case speech
  /// Nothing audible.
  case silence
  /// Voice over music, or a stretch too short or too unsure to call music or speech.
  case mixed
}
