/// Where each segment of a `StreamInput` begins in its ring, and when, so that a read never returns a chunk that
/// straddles two segments and every chunk gets its time stamp.
///
/// Ring positions count every sample ever written to the ring (the ring's `head`; the reader thread counts the
/// samples the ring accepted). A segment holds the samples from its `ringStart` up to the next segment's. Its start
/// time may still be unknown ("pending") for a moment after a connection opens: the reader thread fixes it once it
/// has seen how fast the audio arrives (`StreamReader`), and until then `span` returns nil for it.
///
/// Threads: a value kept in `StreamInputShared.State`, behind its lock. The reader thread (producer) appends a segment
/// *before* it writes the segment's first sample into the ring; the worker (consumer) reads the ring's
/// `availableToRead` *before* it locks and asks for a span. That order makes every segment that starts inside the
/// samples the worker may read visible to it.
struct SegmentTable: Sendable {
  struct Entry: Equatable, Sendable {
    /// The segment number reported in `InputChunk.segment`.
    var number: Int
    /// Ring position of the segment's first sample.
    var ringStart: Int
    /// Frames from the start of its connection to the segment's first sample, counting dropped frames: with the
    /// connection's start time this gives the segment's start time.
    var connectionOffset: Int
    /// Wall-clock time of the first sample, in seconds since 1970; nil while pending.
    var startTime: Double?
    /// Frames at its start that repeat audio already heard, up to the end of the connection before: a server that
    /// sends a new listener the last seconds it played (Icecast's burst-on-connect) sends them again after a short
    /// drop. They are read past, never returned (`repeatedFrames`).
    var repeatedFrames = 0
  }

  /// What a read at one ring position may return.
  struct Span: Equatable, Sendable {
    var number: Int
    var frames: Int
    var startTime: Double
  }

  /// Segments in ring order; the first one holds the consumer's position (older ones are discarded).
  private(set) var entries: [Entry] = []

  /// Adds a segment that starts at `ringStart` (at or after every earlier segment's start). Producer.
  mutating func begin(number: Int, ringStart: Int, connectionOffset: Int, startTime: Double?) {
    precondition(entries.last.map { $0.ringStart <= ringStart } ?? true, "segments must begin in ring order")
    entries.append(
      Entry(number: number, ringStart: ringStart, connectionOffset: connectionOffset, startTime: startTime))
  }

  /// Gives every pending segment its start time from its connection's start time `origin`, and the frames at its
  /// start that lie before `heardUntil` (the end of the audio heard before this connection) as repeated. Producer.
  mutating func resolve(origin: Double, sampleRate: Double, heardUntil: Double? = nil) {
    for i in entries.indices where entries[i].startTime == nil {
      let start = origin + Double(entries[i].connectionOffset) / sampleRate
      entries[i].startTime = start
      if let heardUntil, heardUntil > start {
        entries[i].repeatedFrames = Int(((heardUntil - start) * sampleRate).rounded(.up))
      }
    }
  }

  /// How many of the `limit` frames from ring position `position` repeat audio already heard (the start of a
  /// resolved segment, `Entry.repeatedFrames`): the consumer reads past them. Consumer.
  func repeatedFrames(at position: Int, limit: Int) -> Int {
    guard limit > 0, let index = entries.lastIndex(where: { $0.ringStart <= position }),
      entries[index].startTime != nil
    else { return 0 }
    var end = entries[index].ringStart + entries[index].repeatedFrames
    if index + 1 < entries.count { end = min(end, entries[index + 1].ringStart) }
    return max(0, min(limit, end - position))
  }

  /// The longest run of at most `limit` frames from ring position `position` that lies inside one segment whose
  /// start time is known, with the time of its first frame; nil when there is none (nothing to read, or the segment
  /// is pending). Consumer.
  func span(at position: Int, limit: Int, sampleRate: Double) -> Span? {
    guard limit > 0, let index = entries.lastIndex(where: { $0.ringStart <= position }) else { return nil }
    let entry = entries[index]
    guard let start = entry.startTime else { return nil }
    var frames = limit
    if index + 1 < entries.count { frames = min(frames, entries[index + 1].ringStart - position) }
    guard frames > 0 else { return nil }
    return Span(
      number: entry.number, frames: frames, startTime: start + Double(position - entry.ringStart) / sampleRate)
  }

  /// How many of the `limit` frames from ring position `position` lie in segments whose start time is known: the
  /// frames a consumer could read now, across segments. Consumer.
  func readableFrames(at position: Int, limit: Int) -> Int {
    guard limit > 0, let first = entries.lastIndex(where: { $0.ringStart <= position }) else { return 0 }
    for entry in entries[first...] where entry.startTime == nil {
      return min(limit, max(0, entry.ringStart - position))
    }
    return limit
  }

  /// Forgets the segments that end at or before ring position `position` (the consumer has read past them).
  /// Consumer.
  mutating func discard(before position: Int) {
    var drop = 0
    while drop + 1 < entries.count && entries[drop + 1].ringStart <= position { drop += 1 }
    if drop > 0 { entries.removeFirst(drop) }
  }
}
