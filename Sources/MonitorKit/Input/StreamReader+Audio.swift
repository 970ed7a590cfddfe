/// The audio side of the reader thread: connections, segments, overruns and time stamps.
///
/// A connection is one ffmpeg run that produced audio. Its frames (samples, mono) are counted from its first one,
/// dropped frames included, so that frame `n` of a connection has the time `origin + n / sampleRate`. Every
/// connection starts a new segment, and so does the first frame the ring accepts after frames had to be dropped.
///
/// The time of frame 0 (`origin`):
/// - for a file, the wall-clock time at which its first audio arrived (ffmpeg's `-re` paces it from the start);
/// - for a network stream, the latest origin that puts no audio received so far after the time it arrived: the
///   minimum, over every delivery, of its arrival time minus the audio received up to it. Audio cannot arrive before
///   it was sent, so this takes the newest audio as live as far as the arrivals allow. A server sends a new listener
///   a burst of several seconds of audio at once (Icecast's burst-on-connect: 64 KB, about 10 s at 48 kbit/s), and
///   an Ogg stream comes a page (up to about a second) at a time; stamping the first frame with its arrival time
///   would put the stream's time stamps up to the burst's length in the future and make consecutive segments
///   overlap. The origin is fixed once that minimum has held still (moved back by less than
///   `anchorSettledSeconds`) for `anchorDelaySeconds`: the burst is then decoded and the audio arrives live, however
///   long ffmpeg took over the burst (seconds on a loaded machine); at the latest `anchorMaxDelaySeconds` after the
///   first audio. The audio of a connection is held back (its segment is pending) until its origin is known.
/// A connection's audio never overlaps the previous one's: its frames placed before the end of the previous
/// connection's audio repeat what was heard (a burst after a short drop re-sends the seconds before it) and are read
/// past, not analysed again (`SegmentTable.Entry.repeatedFrames`), so that a reconnect neither shifts the times of
/// what follows nor feeds the matcher the same seconds twice.
///
/// Threads: the reader thread only.
extension StreamReader {
  struct Connection {
    /// Monotonic time at which the first audio arrived.
    var firstAudioMonotonic: Double
    /// Wall-clock time of frame 0; nil until anchored.
    var origin: Double?
    /// While not anchored: the latest origin that puts no frame received so far after its arrival.
    var latestOrigin = Double.infinity
    /// Where `latestOrigin` was when it last moved back by `anchorSettledSeconds` or more since the move before, and
    /// the monotonic time it did (at first: infinity, the first audio's time).
    var lastMove: (origin: Double, monotonic: Double)
    /// Frames produced so far, dropped ones included.
    var frames = 0
    /// Frame at which the current run of dropped frames began; nil when the ring takes everything.
    var dropStart: Int?
    /// The next frame the ring accepts begins a segment.
    var needsSegment = true
    /// Runs of dropped frames (from, to) not reported yet because the origin was not known.
    var unreportedDrops: [(from: Int, to: Int)] = []
  }

  /// Monotonic time at which the connection's origin is due to be fixed, nil when nothing is pending.
  var anchorDue: Double? {
    guard let connection, connection.origin == nil else { return nil }
    return min(
      connection.lastMove.monotonic + Self.anchorDelaySeconds,
      connection.firstAudioMonotonic + Self.anchorMaxDelaySeconds)
  }

  /// Moves `frames` samples from `samples` into the ring, starting a connection or a segment where needed and
  /// counting what does not fit as dropped.
  func deliver(frames count: Int) {
    if connection == nil { openConnection() }
    guard var current = connection else { return }
    let accepted = min(count, ring.availableToWrite)  // exactly what the ring takes: the producer's guaranteed minimum
    if accepted > 0 {
      if let start = current.dropStart {
        current.unreportedDrops.append((start, current.frames))
        current.dropStart = nil
        current.needsSegment = true
      }
      if current.needsSegment {
        let startTime = current.origin.map { $0 + Double(current.frames) / sampleRate }
        let segment = (number: nextSegment, ringStart: written, offset: current.frames)
        shared.withLock {
          $0.segments.begin(
            number: segment.number, ringStart: segment.ringStart, connectionOffset: segment.offset,
            startTime: startTime)
        }
        nextSegment += 1
        current.needsSegment = false
      }
      let dropped = samples.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[0..<accepted])) }
      assert(dropped == 0, "the ring took less than it had room for")
      written += accepted
      current.frames += accepted
    }
    if accepted < count {
      if current.dropStart == nil { current.dropStart = current.frames }
      current.frames += count - accepted
    }
    if current.origin == nil {
      let origin = Self.wallSeconds() - Double(current.frames) / sampleRate
      if origin <= current.lastMove.origin - Self.anchorSettledSeconds {
        current.lastMove = (origin, Self.monotonicSeconds())
      }
      current.latestOrigin = min(current.latestOrigin, origin)
    }
    connection = current
    reportDrops()
  }

  /// The first audio of an ffmpeg run has arrived.
  private func openConnection() {
    let wall = Self.wallSeconds()
    let monotonic = Self.monotonicSeconds()
    connection = Connection(firstAudioMonotonic: monotonic, lastMove: (.infinity, monotonic))
    update(status: .running)
    if configuration.source.isFile { anchor(origin: wall) }
  }

  /// Fixes a network connection's origin once it is due (`anchorDue`), or at once when `immediately` (the connection
  /// is ending).
  func anchorIfDue(immediately: Bool = false) {
    guard let due = anchorDue, immediately || Self.monotonicSeconds() >= due, let current = connection else { return }
    anchor(origin: current.latestOrigin)
  }

  /// Sets the connection's origin, gives its pending segments their times (what lies before the end of the previous
  /// connection's audio as repeated), reports what was waiting for them, and closes an outage.
  private func anchor(origin: Double) {
    guard var current = connection, current.origin == nil else { return }
    current.origin = origin
    connection = current
    let audioAgain = max(origin, lastAudioEnd ?? origin)
    let reconnect = outage.map { reconnectNotice(for: $0, audioAgain: audioAgain) }
    outage = nil
    shared.withLock { state in
      state.segments.resolve(origin: origin, sampleRate: sampleRate, heardUntil: lastAudioEnd)
      if let reconnect { state.post(reconnect) }
    }
    reportDrops()
  }

  /// Posts an `.overrun` notice for each run of dropped frames that has ended, once the times are known.
  private func reportDrops() {
    guard var current = connection, let origin = current.origin, !current.unreportedDrops.isEmpty else { return }
    let notices = current.unreportedDrops.map { drop in
      let start = origin + Double(drop.from) / sampleRate
      let end = origin + Double(drop.to) / sampleRate
      return InputNotice(
        kind: .overrun, startTime: start, endTime: end,
        detail: "\(configuration.source.description): dropped \(String(format: "%.2f", end - start)) s of audio "
          + "because the channel's worker fell behind (the input buffers "
          + "\(String(format: "%.1f", Double(ring.capacity) / sampleRate)) s)")
    }
    current.unreportedDrops.removeAll()
    connection = current
    shared.withLock { state in
      for notice in notices { state.post(notice) }
    }
  }

  /// Ends the connection (if ffmpeg produced audio): fixes its origin if still pending, reports a run of dropped
  /// frames at its end, and notes where its audio ended. Returns whether there was audio and how many seconds of it
  /// arrived (wall-clock time from the first audio to now).
  func finishConnection() -> (hadAudio: Bool, seconds: Double) {
    guard connection != nil else { return (false, 0) }
    anchorIfDue(immediately: true)
    guard var current = connection, let origin = current.origin else { return (false, 0) }
    if let start = current.dropStart {
      current.unreportedDrops.append((start, current.frames))
      current.dropStart = nil
      connection = current
      reportDrops()
    }
    lastAudioEnd = max(lastAudioEnd ?? -Double.infinity, origin + Double(current.frames) / sampleRate)
    connection = nil
    return (true, Self.monotonicSeconds() - current.firstAudioMonotonic)
  }
}
