/// A track of a catalog that holds audio another track already holds: the same recording under another file (an
/// album track and its compilation copy, a FLAC and its MP3), or one contained in it (a radio edit in the album
/// version). Both match every airing: the matcher logs it once (`PlayedPairs`), but under whichever copy it confirms
/// first, so the recording's plays are split between two items.
///
/// Found by `CatalogBuilder.sharedRecordings(in:ofKeys:)` in the catalog's triplet index: the track's agreeing pairs
/// (`TripletIndex`) that the other track holds too, at one offset.
package struct SharedRecording: Sendable, Equatable {
  /// The track that holds audio of an earlier one, and that earlier track (indices in `Catalog.tracks`).
  package let trackIndex: Int
  package let earlierTrackIndex: Int
  /// The track's agreeing pairs that the earlier track holds at `offsetSeconds`, and how many of them the catalog
  /// holds in all (pairs of stop hashes are not indexed).
  package let sharedPairs: Int
  package let indexedPairs: Int
  /// Where the shared audio lies in the earlier track, minus where it lies in this one. Seconds.
  package let offsetSeconds: Double
  /// From the first to the last shared pair, in this track. Seconds.
  package let sharedSeconds: Double

  /// The share of the track's indexed pairs that the earlier track holds.
  package var share: Double { indexedPairs > 0 ? Double(sharedPairs) / Double(indexedPairs) : 0 }

  /// A track shares its recording when at least this share of its indexed agreeing pairs lie in one earlier track at
  /// one offset. Copies of one recording share far more, and unrelated tracks almost none: a dev-catalog song's
  /// copies kept 43 % (MP3 at 128 kbit/s), 33 % (pink noise over it), 21 % (6 dB quieter, MP3 at 22 kHz and 64
  /// kbit/s) and 15 % (a 90 s excerpt re-encoded as Vorbis); 19 files of the 1,000 h scale catalog's music added to it
  /// again, 27–65 %. The 29 dev-catalog songs, checked each against those before it, shared no pair at one offset;
  /// the 10 unknown dev songs added to the 1,000 h catalog at most 3 of their 1,614–10,079. A copy sped up by 3 %
  /// is another recording to the index (29 pairs) and is not found. Fraction of the indexed pairs.
  package static let minShare = 0.05

  /// And at least this many pairs, so that a track too short or too quiet to have many indexed pairs is not called a
  /// copy on a few chance agreements (3 at most above, against 417 for the excerpt). Pairs.
  package static let minSharedPairs = 40
}
