import CJack
import Foundation
import JackInput
import JackTestSupport
import Matcher
import RingBuffer
import Synchronization
import TestSupport
import Testing

/// `JackPlayback` against a real JACK server: each test starts its own `jackd -d dummy` (see `JackTestServer`).
/// Skipped only when jackd is not installed.
@Suite(.serialized, .enabled(if: JackTestServer.jackdPath != nil, "\(JackTestServer.skipMessage)"))
struct JackPlaybackTests {
  /// `seconds` of a music fixture, mono at 48 kHz, as ffmpeg decodes it.
  private func music(_ name: String, seconds: Double) throws -> [Float] {
    var samples: [Float] = []
    let decoder = AudioFileDecoder(ffmpegSampleRate: 48_000, forceFFmpeg: true)
    try decoder.decode(path: Fixtures.music(name).path) { buffer, _, _ in samples += buffer }
    return Array(samples.prefix(Int(seconds * 48_000)))
  }

  /// Queues `interleaved` in chunks of `chunkFrames`, as a decoder's callback would.
  private func feed(_ playback: JackPlayback, _ interleaved: [Float], channels: Int, chunkFrames: Int = 3000) -> Bool {
    interleaved.withUnsafeBufferPointer { all in
      var start = 0
      while start < all.count {
        let end = min(all.count, start + chunkFrames * channels)
        guard playback.enqueue(UnsafeBufferPointer(rebasing: all[start..<end])) else { return false }
        start = end
      }
      return true
    }
  }

  @Test("Music on the left and a ramp on the right arrive in a capture with every sample intact and aligned")
  func playbackIntoCapture() async throws {
    // The audio first, and a capture ring far longer than the 4 s played: on a loaded CI machine the test's own
    // thread once waited longer than a 10 s ring holds (decoding, and `Task.sleep` behind blocked test threads).
    let left = try music("catalog-a.ogg", seconds: 4)
    let right = (0..<left.count).map { testRampValue($0) }
    // Sample-exact audio: a run the JACK server disturbed (an xrun loses a cycle) is run again.
    let (run, disturbance) = try await JackDisturbance.retrying {
      let server = try await JackTestServer.start()
      defer { server.stop() }
      let capture = try JackCapture(
        clientName: "bmcap", serverName: server.name, portNames: ["L", "R"], ringSeconds: 60)
      defer { capture.close() }
      let playback = try JackPlayback(
        clientName: "bmplay", serverName: server.name, portNames: ["out_L", "out_R"], ringSeconds: 0.5)
      defer { playback.close() }
      #expect(playback.clientName == "bmplay")
      #expect(playback.fullPortNames == ["bmplay:out_L", "bmplay:out_R"])
      #expect(playback.sampleRate == 48_000)
      #expect(playback.bufferSize == 1024)
      #expect(server.ports(matching: "^bmplay:", flags: JackPortIsOutput) == ["bmplay:out_L", "bmplay:out_R"])
      try playback.connect(port: "out_L", to: "bmcap:L")
      try playback.connect(port: "bmplay:out_R", to: "bmcap:R")
      try playback.connect(port: "out_R", to: "bmcap:R")  // again: already connected is fine
      #expect(try capture.connections(of: "L") == ["bmplay:out_L"])

      let started = ContinuousClock.now
      let queued = feed(playback, Signals.interleave([left, right]), channels: 2)
      let playedOut = playback.waitUntilPlayedOut()
      let took = ContinuousClock.now - started
      // The last frames played reach the capture in the same cycle or the next: two more of its cycles. The wait
      // blocks (no `Task.sleep`, which can resume late behind test threads that block) while the capture fills its
      // ring.
      let cyclesBefore = capture.framesProcessed
      let reached = Wait.until(seconds: 10) { capture.framesProcessed >= cyclesBefore + 2 * capture.bufferSize }
      #expect(reached, "the capture ran two more cycles within 10 s")
      capture.close()
      let run = PlaybackRun(
        queued: queued, playedOut: playedOut, took: took, framesPlayed: playback.framesPlayed,
        underruns: playback.underruns, left: capture.rings[0].drain(), right: capture.rings[1].drain(),
        overruns: capture.overruns)
      return (run, JackDisturbance(of: capture))
    }
    #expect(run.queued && run.playedOut)
    #expect(run.took > .seconds(3.5) && run.took < .seconds(5.5), "4 s of audio played in \(run.took)")
    #expect(run.framesPlayed == left.count)
    #expect(run.underruns == 0, "\(disturbance)")
    #expect(run.overruns == [0, 0])
    let start = try #require(run.right.firstIndex { $0 != 0 }, "no ramp sample arrived")
    try #require(run.right.count >= start + left.count, "the capture ended before the playback's last frame")
    let ramp = SampleDifference.between(expected: right, actual: run.right[start..<start + left.count])
    #expect(ramp == nil, "the ramp arrives whole and in order: \(String(describing: ramp)); \(disturbance)")
    let music = SampleDifference.between(expected: left, actual: run.left[start..<start + left.count])
    #expect(
      music == nil,
      "the music arrives bit for bit, aligned with the ramp: \(String(describing: music)); \(disturbance)")
    let end = start + left.count
    #expect(run.left[..<start].allSatisfy { $0 == 0 }, "silence before the first queued frame")
    #expect(run.right[end...].allSatisfy { $0 == 0 }, "silence after the last one")
  }

  /// What one playback into a capture left: the playback's counts and what the capture got.
  struct PlaybackRun {
    var queued: Bool
    var playedOut: Bool
    var took: Duration
    var framesPlayed: Int
    var underruns: Int
    var left: [Float]
    var right: [Float]
    var overruns: [Int]
  }

  /// A JACK client of the test's own that counts the server's cycles: every client of a server runs in each of
  /// its cycles, so once it has counted `cycles` more, each client activated before it has run at least as many.
  private struct CycleCounter {
    let capture: JackCapture

    init(serverName: String) throws {
      capture = try JackCapture(clientName: "bmcycles", serverName: serverName, portNames: ["count"])
    }

    /// Waits (blocking) until `cycles` more cycles ran, at most 10 s; returns whether they did.
    func wait(cycles: Int) -> Bool {
      let start = capture.framesProcessed
      return Wait.until(seconds: 10) { capture.framesProcessed >= start + cycles * capture.bufferSize }
    }
  }

  @Test("Underruns count the silent frames between the first queued audio and finish(), and no others")
  func underrunsAreCountedOnlyWhileStreaming() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let playback = try JackPlayback(clientName: "bmplay", serverName: server.name, portNames: ["out"])
    defer { playback.close() }
    let counter = try CycleCounter(serverName: server.name)
    defer { counter.capture.close() }
    #expect(counter.wait(cycles: 8), "8 cycles within 10 s")
    #expect(playback.underruns == 0, "nothing queued yet: 8 cycles of silence are not an underrun")

    let ones = [Float](repeating: 1, count: 4 * 1024)
    #expect(ones.withUnsafeBufferPointer { playback.enqueue($0) })
    let starving = Wait.until(seconds: 10) { playback.framesPlayed == 4 * 1024 && playback.underruns >= 8 * 1024 }
    let starved = playback.underruns
    #expect(playback.framesPlayed == 4 * 1024)
    #expect(starving, "4 cycles with audio, then silent ones counted within 10 s; \(starved) frames counted")
    #expect(starved % 1024 == 0, "whole periods of silence")

    playback.finish()
    let counted = playback.underruns
    #expect(counter.wait(cycles: 8), "8 cycles within 10 s")
    #expect(playback.underruns == counted, "after finish(), 8 cycles of silence are the end of the stream")
    #expect(playback.waitUntilPlayedOut(timeoutSeconds: 1))
  }

  @Test("stop() from another thread makes a waiting enqueue give up; a closed playback takes nothing")
  func stopEndsTheWait() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let playback = try JackPlayback(
      clientName: "bmplay", serverName: server.name, portNames: ["out"], ringSeconds: 0.05)
    defer { playback.close() }
    let queued = Atomic<Int>(-1)
    // 10 s of audio through a 0.05 s ring: queueing it takes about 10 s of cycles, far longer than the waits below
    // can be late by on a loaded machine.
    let frames = 480_000
    let feeder = Thread {
      let audio = [Float](repeating: 0.5, count: frames)
      let done = audio.withUnsafeBufferPointer { playback.enqueue($0) }
      queued.store(done ? 1 : 0, ordering: .releasing)
    }
    feeder.start()
    #expect(Wait.until(seconds: 10) { playback.framesPlayed >= 14_400 }, "0.3 s played within 10 s")
    #expect(queued.load(ordering: .acquiring) == -1, "10 s of audio are still being queued after 0.3 s of it played")
    playback.stop()
    let gaveUp = Wait.until(seconds: 5) { queued.load(ordering: .acquiring) != -1 }
    #expect(gaveUp && queued.load(ordering: .acquiring) == 0, "enqueue returned false soon after stop()")
    #expect(playback.isStopped)
    #expect(!playback.waitUntilPlayedOut(timeoutSeconds: 1))
    #expect(playback.framesPlayed < frames)

    playback.close()
    #expect(!playback.isOpen)
    #expect([Float](repeating: 0, count: 8).withUnsafeBufferPointer { playback.enqueue($0) } == false)
  }

  @Test("A destination that is not an audio input port is an error listing the ones the server has")
  func connectErrors() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let playback = try JackPlayback(clientName: "bmplay", serverName: server.name, portNames: ["out_L", "out_R"])
    #expect(try playback.destinationPorts(matching: "^system:") == ["system:playback_1", "system:playback_2"])
    let error = #expect(throws: JackClientError.self) { try playback.connect(port: "out_L", to: "nosuch:in") }
    #expect(
      error == .destinationNotFound("nosuch:in", available: ["system:playback_1", "system:playback_2"]),
      "\(String(describing: error))")
    #expect(error?.description.contains("use one of the server's audio input ports: system:playback_1") == true)
    // An output port is not a destination either.
    #expect(
      throws: JackClientError.destinationNotFound(
        "system:capture_1", available: try playback.destinationPorts(matching: ""))
    ) {
      try playback.connect(port: "out_L", to: "system:capture_1")
    }
    #expect(throws: JackClientError.unknownPort("out_C")) {
      try playback.connect(port: "out_C", to: "system:playback_1")
    }
    try playback.connect(port: "out_L", to: "system:playback_1")
    playback.close()
    playback.close()  // a second close does nothing
    #expect(throws: JackClientError.notRunning) { try playback.connect(port: "out_L", to: "system:playback_1") }
    #expect(throws: JackClientError.notRunning) { try playback.destinationPorts(matching: "") }
  }

  @Test("A server that is not running, and bad port names or ring sizes, are refused before playing")
  func openErrors() {
    let missing = "bmtest-missing-\(getpid())"
    #expect(throws: JackClientError.serverNotRunning(server: missing)) {
      try JackPlayback(clientName: "bmplay", serverName: missing, portNames: ["out"])
    }
    #expect(throws: JackClientError.invalidPortNames(["out", "out"])) {
      try JackPlayback(clientName: "bmplay", serverName: missing, portNames: ["out", "out"])
    }
    #expect(throws: JackClientError.invalidRingSize(seconds: 0, reason: "it must be a positive number of seconds")) {
      try JackPlayback(clientName: "bmplay", serverName: missing, portNames: ["out"], ringSeconds: 0)
    }
  }
}
