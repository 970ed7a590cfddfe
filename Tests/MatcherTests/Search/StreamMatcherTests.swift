import Foundation
import Matcher
import TestSupport
import Testing

@Suite("StreamMatcher on synthetic songs")
struct StreamMatcherTests {
  static let songs = (1...4).map { SyntheticSong(seed: UInt64($0), seconds: 15) }
  /// Built once for the suite: four 15 s songs.
  static let catalogResult = Result { try MatcherHarness.catalog(of: songs) }
  static func catalog() throws -> Catalog { try catalogResult.get() }

  /// Music that is not in the catalog, to put around the songs.
  static func filler(seconds: Double, seed: UInt64 = 900) -> [Float] {
    SyntheticSong(seed: seed, seconds: seconds).render()
  }

  static let tolerance = 0.5

  func expectPlay(
    _ play: MatchedPlay?, of song: SyntheticSong, from start: Double, to end: Double, offset: Double = 0,
    speed: Double? = 1, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let play else {
      Issue.record("no play of \(MatcherHarness.key(of: song))", sourceLocation: sourceLocation)
      return
    }
    #expect(play.track.key == MatcherHarness.key(of: song), sourceLocation: sourceLocation)
    #expect(abs(play.startSeconds - start) <= Self.tolerance, "start", sourceLocation: sourceLocation)
    #expect(abs(play.endSeconds - end) <= Self.tolerance, "end", sourceLocation: sourceLocation)
    #expect(abs(play.referenceOffsetSeconds - offset) <= Self.tolerance, "offset", sourceLocation: sourceLocation)
    if let speed { #expect(abs(play.speed - speed) <= 0.01, "speed", sourceLocation: sourceLocation) }
  }

  @Test("A song played whole is one play, its start and end within 0.5 s of the truth")
  func wholeSong() throws {
    let song = Self.songs[1]
    let run = try MatcherHarness.run(
      Self.filler(seconds: 5) + song.render() + Self.filler(seconds: 5, seed: 901), catalog: Self.catalog())
    #expect(run.sink.ended.count == 1)
    expectPlay(run.sink.ended.first, of: song, from: 5, to: 20)
    #expect(run.sink.ended.first?.pitchShifted == false)
    #expect((run.sink.ended.first?.confidence ?? 0) > 0.5)
    #expect(run.sink.ended.first?.track.metadata.title == MatcherHarness.title(of: song))
  }

  @Test("Back-to-back repeats of the same song are two plays")
  func backToBackRepeats() throws {
    let song = Self.songs[0]
    let run = try MatcherHarness.run(
      Self.filler(seconds: 3) + song.render() + song.render() + Self.filler(seconds: 3, seed: 901),
      catalog: Self.catalog())
    let plays = run.sink.ended.sorted { $0.startSeconds < $1.startSeconds }
    #expect(plays.count == 2)
    expectPlay(plays.first, of: song, from: 3, to: 18)
    expectPlay(plays.dropFirst().first, of: song, from: 18, to: 33)
    #expect(Set(plays.map(\.id)).count == plays.count)
  }

  @Test("Two different songs back to back are two plays, in order, each with its own track")
  func twoSongs() throws {
    let run = try MatcherHarness.run(
      Self.songs[2].render() + Self.songs[3].render(), catalog: Self.catalog())
    let plays = run.sink.ended.sorted { $0.startSeconds < $1.startSeconds }
    #expect(plays.count == 2)
    expectPlay(plays.first, of: Self.songs[2], from: 0, to: 15)
    expectPlay(plays.dropFirst().first, of: Self.songs[3], from: 15, to: 30)
  }

  @Test("A song with 3 s of dropout (the signal gone, the song going on) is still one play")
  func dropout() throws {
    let song = Self.songs[1]
    var audio = song.render()
    let rate = 8000
    for i in (6 * rate)..<(9 * rate) { audio[i] = 0 }
    let run = try MatcherHarness.run(
      Self.filler(seconds: 5) + audio + Self.filler(seconds: 5, seed: 901), catalog: Self.catalog())
    #expect(run.sink.ended.count == 1)
    expectPlay(run.sink.ended.first, of: song, from: 5, to: 20)
  }

  @Test("A song with a loud voice-like burst over it for 5 s (6 dB above the music) is still one play")
  func voiceOver() throws {
    let song = Self.songs[2]
    let music = song.render()
    let voice = Signals.voiceLike(seconds: 5, amplitude: 1, seed: 77)
    let gain = 2 * Signals.rms(music) / Signals.rms(voice)
    let audio = Signals.mix(music, voice.map { $0 * gain }, at: 5 * 8000)
    let run = try MatcherHarness.run(
      Self.filler(seconds: 5) + audio + Self.filler(seconds: 5, seed: 901), catalog: Self.catalog())
    #expect(run.sink.ended.count == 1)
    expectPlay(run.sink.ended.first, of: song, from: 5, to: 20)
  }

  @Test("An excerpt from the middle of a song reports where in the song it started")
  func excerpt() throws {
    let song = Self.songs[3]
    let audio = Array(song.render()[(6 * 8000)...])
    var settings = MatcherSettings()
    settings.snapToEdgeSeconds = 1  // so that the start is not extended back to the song's start
    let run = try MatcherHarness.run(Self.filler(seconds: 4) + audio, catalog: Self.catalog(), settings: settings)
    #expect(run.sink.ended.count == 1)
    expectPlay(run.sink.ended.first, of: song, from: 4, to: 13, offset: 6)
  }

  @Test("A song joined in the middle starts where it joins, not at a lone match on its line seconds before")
  func joinedSongIgnoresAnEarlierStray() throws {
    // Half a second of the song from 6 s, then 3.5 s of other music, then the song from 10 s: the snippet's matches
    // lie on the line of the play that starts at 8 s (reference = broadcast + 2 s) but 3.5 s before its next match.
    let song = Self.songs[3]
    let audio = song.render()
    let snippet = Array(audio[(6 * 8000)..<(6 * 8000 + 4000)])
    let broadcast =
      Self.filler(seconds: 4) + snippet + Self.filler(seconds: 3.5, seed: 901) + Array(audio[(10 * 8000)...])
    var settings = MatcherSettings()
    settings.snapToEdgeSeconds = 1  // so that the start is not extended back to the song's start
    let run = try MatcherHarness.run(broadcast, catalog: Self.catalog(), settings: settings)
    #expect(run.sink.ended.count == 1)
    expectPlay(run.sink.ended.first, of: song, from: 8, to: 13, offset: 10)
  }

  @Test("A track whose opening comes back later is one play from its start, logged within 4 s of it")
  func openingRepeatedLater() throws {
    // Like "Transience" in the dev corpus: its first seconds again 40 s in. The opening's matches lie on two lines,
    // and the play may be found on the later one first; it must then move to the opening's line and stay the same
    // play (same id, same detection time) instead of being replaced by a second play found seconds later.
    let opening = SyntheticSong(seed: 31, seconds: 6).render()
    let track =
      opening + SyntheticSong(seed: 32, seconds: 20).render() + opening + SyntheticSong(seed: 33, seconds: 4).render()
    let catalog = try MatcherHarness.catalog(ofRecordings: [(track, "repeats-its-opening")])
    let run = try MatcherHarness.run(Self.filler(seconds: 4) + track, catalog: catalog)
    #expect(run.sink.retracted.isEmpty)
    #expect(run.sink.started.count == 1)
    #expect(run.sink.ended.count == 1)
    guard let first = run.sink.started.first, let play = run.sink.ended.first else { return }
    #expect(play.id == first.id)
    #expect(play.detectedAtSeconds < 4 + 4)
    #expect(abs(play.startSeconds - 4) <= Self.tolerance)
    #expect(abs(play.endSeconds - 40) <= Self.tolerance)
    #expect(play.referenceOffsetSeconds <= Self.tolerance)
  }

  @Test("A play whose first or last match is within snapToEdgeSeconds of the song's edge is extended to it")
  func snapToEdges() throws {
    let song = Self.songs[0]
    var audio = song.render()
    // The first 3 s and the last 3 s are muted (a late fader, an early fade): no matches there.
    for i in 0..<(3 * 8000) { audio[i] = 0 }
    for i in (audio.count - 3 * 8000)..<audio.count { audio[i] = 0 }
    let broadcast = Self.filler(seconds: 5) + audio + Self.filler(seconds: 5, seed: 901)
    var settings = MatcherSettings()
    settings.snapToEdgeSeconds = 4
    let snapped = try MatcherHarness.run(broadcast, catalog: Self.catalog(), settings: settings)
    #expect(snapped.sink.ended.count == 1)
    expectPlay(snapped.sink.ended.first, of: song, from: 5, to: 20)
    settings.snapToEdgeSeconds = 1
    let unsnapped = try MatcherHarness.run(broadcast, catalog: Self.catalog(), settings: settings)
    #expect(unsnapped.sink.ended.count == 1)
    expectPlay(unsnapped.sink.ended.first, of: song, from: 8, to: 17, offset: 3)
  }

  @Test(
    "A song played faster or slower is found at its speed, as time-stretched or resampled",
    arguments: [(1.04, false), (0.97, false), (1.03, true), (0.96, true)])
  func speed(speed: Double, resampled: Bool) throws {
    let song = Self.songs[0]
    let audio = song.render(tempo: speed, pitch: resampled ? speed : 1)
    let run = try MatcherHarness.run(Self.filler(seconds: 3) + audio, catalog: Self.catalog())
    #expect(run.sink.ended.count == 1)
    expectPlay(run.sink.ended.first, of: song, from: 3, to: 3 + 15 / speed, speed: speed)
    #expect(run.sink.ended.first?.pitchShifted == resampled)
  }

  @Test("A song resampled 5 % fast by interpolation (not by rendering) is found at speed 1.05")
  func resampledByInterpolation() throws {
    let song = Self.songs[1]
    let audio = SpeedChange.resample(song.render(), speed: 1.05)
    let run = try MatcherHarness.run(Self.filler(seconds: 2) + audio, catalog: Self.catalog())
    #expect(run.sink.ended.count == 1)
    expectPlay(run.sink.ended.first, of: song, from: 2, to: 2 + 15 / 1.05, speed: 1.05)
    #expect(run.sink.ended.first?.pitchShifted == true)
  }

  @Test("Music that is not in the catalog gives no play, and a no-match report every 10 s")
  func unknownMusic() throws {
    let run = try MatcherHarness.run(Self.filler(seconds: 25, seed: 1234), catalog: Self.catalog())
    #expect(run.sink.playEvents.isEmpty)
    let interval = MatcherSettings().noMatchIntervalSeconds
    let times = run.sink.noMatchTimes
    #expect(times.count == 2)
    for (k, t) in times.enumerated() {
      #expect(t >= interval * Double(k + 1) && t < interval * Double(k + 1) + 1)
    }
  }

  @Test("For each play, events come as started, then continues, then ended: once each, in stream order")
  func eventOrder() throws {
    let run = try MatcherHarness.run(
      Self.filler(seconds: 3) + Self.songs[0].render() + Self.songs[0].render() + Self.songs[1].render(),
      catalog: Self.catalog())
    let ids = Set(run.sink.playEvents.compactMap { $0.play?.id })
    #expect(ids.count == 3)
    for id in ids {
      let events = run.sink.playEvents.filter { $0.play?.id == id }
      guard case .playStarted? = events.first, case .playEnded? = events.last else {
        Issue.record("play \(id): \(events.count) events, not started … ended")
        continue
      }
      #expect(events.dropFirst().dropLast().allSatisfy { if case .playContinues = $0 { true } else { false } })
      #expect(events.count >= 3, "a 15 s play reports progress every 5 s")
      let ends = events.compactMap { $0.play?.endSeconds }
      #expect(zip(ends, ends.dropFirst()).allSatisfy { $0 <= $1 }, "the end only grows")
      #expect(Set(events.compactMap { $0.play?.track.key }).count == 1)
    }
  }

  @Test("State goes idle → prerecording → matching → prerecording, and idle after the flush")
  func states() throws {
    var settings = MatcherSettings()
    settings.maxGapSeconds = 3
    let run = try MatcherHarness.run(
      Self.filler(seconds: 5) + Self.songs[2].render() + Self.filler(seconds: 8, seed: 901), catalog: Self.catalog(),
      settings: settings)
    var collapsed: [StreamMatcher.State] = []
    for (_, state) in run.states where collapsed.last != state { collapsed.append(state) }
    #expect(collapsed == [.idle, .prerecording, .matching, .prerecording, .idle])
    let firstMatching = run.states.first { $0.state == .matching }?.seconds ?? 0
    let backToListening = run.states.last { $0.state == .matching }?.seconds ?? 0
    #expect(firstMatching > 5 && firstMatching < 10, "detected within 5 s of the song's start")
    #expect(backToListening >= 20 + settings.maxGapSeconds - 1)
    #expect(run.sink.ended.count == 1)
  }

  @Test("flush() ends the plays still running, at their last match, and leaves the matcher idle")
  func flushEndsOpenPlays() throws {
    let sink = CollectingSink()
    let matcher = StreamMatcher(catalog: try Self.catalog(), sink: sink)
    let audio = Self.filler(seconds: 3) + Array(Self.songs[1].render()[..<(10 * 8000)])
    try audio.withUnsafeBufferPointer { try matcher.append($0, sampleRate: 8000) }
    #expect(matcher.state == .matching)
    #expect(sink.started.count == 1)
    #expect(sink.ended.isEmpty)
    #expect(matcher.currentPlays.count == 1)
    #expect(abs(matcher.streamSeconds - 13) < 0.01)
    matcher.flush()
    #expect(matcher.state == .idle)
    #expect(matcher.currentPlays.isEmpty)
    #expect(sink.ended.count == 1)
    expectPlay(sink.ended.first, of: Self.songs[1], from: 3, to: 13)
  }

  @Test("Buffers of any size and count give the same plays, detected at the same stream time")
  func bufferSizes() throws {
    let audio = Self.filler(seconds: 4) + Self.songs[3].render()
    let reference = try MatcherHarness.run(audio, catalog: Self.catalog(), bufferFrames: 4000).sink.ended
    #expect(reference.count == 1)
    for frames in [257, 1 << 20] {
      let plays = try MatcherHarness.run(audio, catalog: Self.catalog(), bufferFrames: frames).sink.ended
      #expect(plays.map(\.track.key) == reference.map(\.track.key))
      #expect(zip(plays, reference).allSatisfy { abs($0.startSeconds - $1.startSeconds) < 0.05 })
      #expect(zip(plays, reference).allSatisfy { abs($0.endSeconds - $1.endSeconds) < 0.05 })
      // Within a hop (32 ms): the time of the audio analysed when the play was recognised, not the end of the buffer
      // that held it (a single 131 s buffer here).
      #expect(zip(plays, reference).allSatisfy { abs($0.detectedAtSeconds - $1.detectedAtSeconds) < 0.05 })
    }
  }

  @Test("Audio at 44.1 kHz stereo finds the same play as at 8 kHz mono")
  func anyRate() throws {
    let song = Self.songs[2]
    let rate = 44100.0
    let music = SyntheticSong(seed: 900, seconds: 3).render(sampleRate: rate) + song.render(sampleRate: rate)
    let stereo = Signals.interleave([music, music.map { $0 * 0.5 }])
    let run = try MatcherHarness.run(
      stereo, channels: 2, sampleRate: rate, catalog: Self.catalog(), bufferFrames: 22050)
    #expect(run.sink.ended.count == 1)
    expectPlay(run.sink.ended.first, of: song, from: 3, to: 18)
  }

  @Test("The first buffer's time sets the stream's origin")
  func origin() throws {
    let sink = CollectingSink()
    let matcher = StreamMatcher(catalog: try Self.catalog(), sink: sink)
    let audio = Self.filler(seconds: 2) + Self.songs[0].render()
    try audio.withUnsafeBufferPointer { try matcher.append($0, sampleRate: 8000, at: 1000) }
    matcher.flush()
    expectPlay(sink.ended.first, of: Self.songs[0], from: 1002, to: 1017)
    #expect(abs(matcher.streamSeconds - 1017) < 0.01)
  }

  @Test("reset() drops running plays without events and starts a new stream")
  func reset() throws {
    let sink = CollectingSink()
    let matcher = StreamMatcher(catalog: try Self.catalog(), sink: sink)
    let partial = Array(Self.songs[0].render()[..<(8 * 8000)])
    try partial.withUnsafeBufferPointer { try matcher.append($0, sampleRate: 8000) }
    #expect(sink.started.count == 1)
    matcher.reset()
    #expect(matcher.state == .idle)
    #expect(matcher.currentPlays.isEmpty)
    #expect(sink.ended.isEmpty)
    let audio = Self.filler(seconds: 2) + Self.songs[1].render()
    try audio.withUnsafeBufferPointer { try matcher.append($0, sampleRate: 8000) }
    matcher.flush()
    #expect(sink.ended.count == 1)
    expectPlay(sink.ended.first, of: Self.songs[1], from: 2, to: 17)
  }
}
