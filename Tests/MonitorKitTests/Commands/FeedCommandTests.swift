import Foundation
import JackInput
import JackTestSupport
import Matcher
import Reports
import TestSupport
import Testing

/// `broadcast-monitor feed`, run as a user would, into a `JackCapture` of this process on a private `jackd -d dummy`.
@Suite(
  "broadcast-monitor feed", .serialized, .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: JackTestServer.jackdPath != nil, "\(JackTestServer.skipMessage)"),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct FeedCommandTests {
  let folder: TemporaryDirectory

  init() throws { folder = try TemporaryDirectory(prefix: "cli-feed") }

  /// A fixture as `feed` queues it, at 48 kHz from `start` seconds, in stereo or mono (`channels`): the first channel
  /// only (the fixtures are mono, so in stereo both channels are alike).
  func decodedFirstChannel(_ name: String, channels: Int, from start: Double = 0) throws -> [Float] {
    var first: [Float] = []
    let decoder = AudioFileDecoder(
      ffmpegSampleRate: 48_000, ffmpegChannels: channels, forceFFmpeg: true, startSeconds: start)
    try decoder.decode(path: Fixtures.music(name).path) { buffer, _, _ in
      first += stride(from: 0, to: buffer.count, by: channels).map { buffer[$0] }
    }
    return first
  }

  /// Taps on each side of the windowed sinc that `subsampleError` reads between samples with.
  let sincTaps = 16

  /// The squared error between `captured` and `file` read from `position + fraction` on: a Hann-windowed sinc
  /// interpolation, exact for audio that, like a 22.05 kHz file decoded at 48 kHz, holds nothing near 24 kHz.
  func subsampleError(of captured: ArraySlice<Float>, against file: [Float], at position: Int, fraction: Double)
    -> Float
  {
    let weights = (-sincTaps...sincTaps).map { k -> Double in
      let x = fraction - Double(k)
      let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
      return sinc * (0.5 + 0.5 * cos(Double.pi * x / Double(sincTaps + 1)))
    }
    return file.withUnsafeBufferPointer { file in
      captured.withUnsafeBufferPointer { captured in
        weights.withUnsafeBufferPointer { weights in
          var error = 0.0
          for i in captured.indices {
            let taps = file.baseAddress! + position + i - sincTaps
            var value = 0.0
            for j in weights.indices { value += Double(taps[j]) * weights[j] }
            error += (value - Double(captured[i])) * (value - Double(captured[i]))
          }
          return Float(error)
        }
      }
    }
  }

  /// Starts `broadcast-monitor feed` with `arguments`; its stdout and stderr go to `output`.
  func startFeed(_ arguments: [String], output: URL) throws -> BackgroundProcess {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    return try BackgroundProcess(
      executable: executable.path, arguments: ["feed"] + arguments, environment: [:], outputPath: output.path)
  }

  /// Where `expected` starts in `captured`: the offset that lines up their first non-zero samples.
  func alignment(of expected: [Float], in captured: [Float]) throws -> Int {
    let first = try #require(expected.firstIndex { $0 != 0 })
    let arrived = try #require(captured.firstIndex { $0 != 0 }, "no audio arrived")
    return arrived - first
  }

  /// What one run of `feed` into a capture left: its exit status, log and duration, and what the capture got.
  struct FeedRun {
    var status: Int32?
    var log: String
    var took: Duration
    var left: [Float]
    var right: [Float]
    var overruns: [Int]
  }

  @Test("feed plays a whole file into two capture ports at real-time pace, sample for sample, and exits 0")
  func playsAFileIntoACapture() async throws {
    let output = folder.file("feed.log")
    // 30 s of sample-exact audio: a run the JACK server disturbed (an xrun loses a cycle) is run again.
    let (run, disturbance) = try await JackDisturbance.retrying {
      let server = try await JackTestServer.start()
      defer { server.stop() }
      let capture = try JackCapture(
        clientName: "bmcap", serverName: server.name, portNames: ["L", "R"], ringSeconds: 90)
      defer { capture.close() }
      let started = ContinuousClock.now
      let feed = try startFeed(
        [
          "--server", server.name, "--client", "bmfeed", "--connect", "bmcap:L,bmcap:R",
          Fixtures.music("catalog-a.ogg").path,
        ], output: output)
      // A blocking wait: a `Task.sleep` may resume tens of seconds late on a busy machine, and `took` must be real.
      let status = feed.waitForExit(seconds: 45)
      let took = ContinuousClock.now - started
      capture.close()
      let run = FeedRun(
        status: status, log: (try? String(contentsOf: output, encoding: .utf8)) ?? "", took: took,
        left: capture.rings[0].drain(), right: capture.rings[1].drain(), overruns: capture.overruns)
      return (run, JackDisturbance(of: capture))
    }
    #expect(run.status == 0, "\(run.log)")
    #expect(run.took > .seconds(29.5) && run.took < .seconds(33), "a 30 s file took \(run.took)")
    #expect(run.log.contains("feed: played 30.0 s of \(Fixtures.music("catalog-a.ogg").path) into bmcap:L,bmcap:R"))

    let expected = try decodedFirstChannel("catalog-a.ogg", channels: 2)
    let left = run.left
    #expect(run.overruns == [0, 0])
    #expect(SampleDifference.between(expected: left, actual: run.right) == nil, "both channels of a mono file alike")
    let offset = try alignment(of: expected, in: left)
    try #require(offset >= 0 && left.count >= offset + expected.count, "the capture missed part of the file")
    let difference = SampleDifference.between(expected: expected, actual: left[offset..<offset + expected.count])
    #expect(
      difference == nil,
      "every sample arrives, in order, without gaps: \(String(describing: difference)); \(disturbance)")
    #expect(left[(offset + expected.count)...].allSatisfy { $0 == 0 }, "silence after the end")
  }

  @Test("feed --loop --start plays the tail, then the file again without a gap, until SIGTERM stops it cleanly")
  func loopsUntilSIGTERM() async throws {
    let output = folder.file("feed.log")
    let ((stillRunning, status, stopTook, log, mono), disturbance) = try await JackDisturbance.retrying {
      let server = try await JackTestServer.start()
      defer { server.stop() }
      let capture = try JackCapture(clientName: "bmcap", serverName: server.name, portNames: ["M"], ringSeconds: 20)
      defer { capture.close() }
      let feed = try startFeed(
        [
          "--server", server.name, "--loop", "--start", "28", "--connect", "bmcap:M",
          Fixtures.music("catalog-b.ogg").path,
        ], output: output)
      // From its first sample (late on a busy machine), 4 s of play counted in the capture's frames (48 kHz):
      // blocking, like the waits below, since the times measured here must be real.
      Wait.until(seconds: 30) { (try? String(contentsOf: output, encoding: .utf8))?.contains("first sample") == true }
      let framesAtFirstSample = capture.framesProcessed
      Wait.until(seconds: 30) { capture.framesProcessed >= framesAtFirstSample + 4 * 48_000 }
      let stillRunning = feed.isRunning
      let stopped = ContinuousClock.now
      feed.send(SIGTERM)
      let status = feed.waitForExit(seconds: 5)
      let stopTook = ContinuousClock.now - stopped
      // The feed's last frames reach the capture in the same cycle or the next: two more of its cycles.
      let framesAtExit = capture.framesProcessed
      Wait.until(seconds: 10) { capture.framesProcessed >= framesAtExit + 2 * capture.bufferSize }
      capture.close()
      let log = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      return ((stillRunning, status, stopTook, log, capture.rings[0].drain()), JackDisturbance(of: capture))
    }
    #expect(stillRunning, "still looping")
    #expect(status == 0, "\(log)")
    #expect(stopTook < .seconds(1), "SIGTERM stops it at once")
    #expect(log.contains("feed: stopped by SIGTERM after"), "\(log)")

    let expected =
      try decodedFirstChannel("catalog-b.ogg", channels: 1, from: 28)
      + decodedFirstChannel("catalog-b.ogg", channels: 1)
    let offset = try alignment(of: expected, in: mono)
    let end = try #require(mono.lastIndex { $0 != 0 }) + 1
    let played = end - offset
    #expect(played > 3 * 48_000, "2 s of the tail and more of the file again, got \(played) frames")
    try #require(offset >= 0 && played <= expected.count)
    let difference = SampleDifference.between(expected: expected[..<played], actual: mono[offset..<end])
    #expect(
      difference == nil,
      "the tail, then the start again, sample for sample: \(String(describing: difference)); \(disturbance)")
  }

  @Test("feed --on-air-since 10 s ago begins at the file's sample of the moment its audio plays, not of its start")
  func beginsWhereTheAirIs() async throws {
    let output = folder.file("feed.log")
    let rate = 48_000.0
    let ((captured, firstWall, since, asked, log), disturbance) = try await JackDisturbance.retrying {
      let server = try await JackTestServer.start()
      defer { server.stop() }
      let capture = try JackCapture(clientName: "bmcap", serverName: server.name, portNames: ["M"], ringSeconds: 30)
      defer { capture.close() }
      let asked = Date()
      let since = asked.addingTimeInterval(-10)
      let feed = try startFeed(
        [
          "--server", server.name, "--on-air-since", ISO8601Millis.format(since), "--connect", "bmcap:M",
          Fixtures.music("catalog-a.ogg").path,
        ], output: output)
      defer { feed.send(SIGTERM) }
      // Until a second of the feed's audio is in the capture; the capture's clock then dates its first sample.
      var captured: [Float] = []
      Wait.until(seconds: 30) {
        captured += capture.rings[0].drain()
        guard let first = captured.firstIndex(where: { $0 != 0 }) else { return false }
        return captured.count >= first + Int(rate)
      }
      let first = captured.firstIndex { $0 != 0 }
      let firstWall = first.flatMap { index in
        capture.firstFrameTime.flatMap { capture.wallClockSeconds(ofFrame: $0 &+ UInt32(index)) }
      }
      feed.send(SIGTERM)
      _ = feed.waitForExit(seconds: 5)
      let log = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      return (
        (Array(captured[(first ?? captured.count)...]), firstWall, since, asked, log), JackDisturbance(of: capture)
      )
    }
    let wall = try #require(firstWall, "no audio arrived: \(log)")
    try #require(captured.count >= 4096, "\(log)")
    // Where in the file the first captured sample is: the best match of its first 4096 samples near the file's
    // position of that moment of the air (within 2 s, at 48 kHz as feed decodes it).
    let file = try decodedFirstChannel("catalog-a.ogg", channels: 1)
    let air = Int(((wall - since.timeIntervalSince1970) * rate).rounded())
    let window = 4096
    let candidates = max(sincTaps, air - Int(2 * rate))...min(file.count - window - sincTaps, air + Int(2 * rate))
    var best = (position: -1, error: Float.infinity)
    for position in candidates {
      var error: Float = 0
      for i in stride(from: 0, to: window, by: 8) {
        let d = file[position + i] - captured[i]
        error += d * d
        if error >= best.error { break }
      }
      if error < best.error { best = (position, error) }
    }
    // Feed seeks (ffmpeg's input seek) and resamples the 22.05 kHz file to 48 kHz from there, so its samples lie
    // between this decode's by a fraction of a sample: read the file there, in tenths of a sample.
    let energy = captured[..<window].reduce(Float(0)) { $0 + $1 * $1 }
    let error = stride(from: -0.5, through: 0.5, by: 0.1).map {
      subsampleError(of: captured[..<window], against: file, at: best.position, fraction: $0)
    }.min()!
    #expect(
      error < 0.01 * energy, "the captured audio is the file's (error \(error) of \(energy)); \(disturbance); \(log)")
    let behindSeconds = Double(air - best.position) / rate
    let startedSeconds = wall - asked.timeIntervalSince1970
    #expect(
      abs(behindSeconds) < 0.03,
      """
      the first sample, \(String(format: "%.3f", startedSeconds)) s after feed was started, is \
      \(String(format: "%.3f", behindSeconds)) s behind the air; \(disturbance); \(log)
      """)
    #expect(log.contains("feed: first sample at "), "\(log)")
  }

  @Test("feed --on-air-since longer ago than the file: exit 1 saying so")
  func airPastEnd() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let path = Fixtures.music("unknown.ogg").path
    let since = ISO8601Millis.format(Date().addingTimeInterval(-3600))
    let result = try CLI.run([
      "feed", "--server", server.name, "--on-air-since", since, "--connect", "system:playback_1", path,
    ])
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr.contains("\(path) has no audio 3600."), "\(result.stderr)")
    #expect(result.stderr.contains("where air that began at \(since) is now: give an --on-air-since"))
  }

  @Test("A destination port that does not exist: exit 1 and a message listing the input ports there are")
  func missingDestination() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let capture = try JackCapture(clientName: "bmcap", serverName: server.name, portNames: ["L", "R"])
    defer { capture.close() }
    let result = try CLI.run([
      "feed", "--server", server.name, "--connect", "bmcap:L,bmcap:Right", Fixtures.music("catalog-a.ogg").path,
    ])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains(
        "JACK has no audio input port \"bmcap:Right\" to play into; use one of the server's audio input ports: "),
      "\(result.stderr)")
    #expect(result.stderr.contains("bmcap:L, bmcap:R") && result.stderr.contains("system:playback_1"))
  }

  @Test("A damaged file: exit 1 naming the file")
  func damagedFile() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let path = Fixtures.music("corrupt.ogg").path
    let result = try CLI.run(["feed", "--server", server.name, "--connect", "system:playback_1", path])
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr.contains("broadcast-monitor: \(path): not decodable audio"), "\(result.stderr)")
  }

  @Test("A --start past the end of the file: exit 1 saying so")
  func startPastEnd() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let path = Fixtures.music("unknown.ogg").path
    let result = try CLI.run(["feed", "--server", server.name, "--start", "25", "--connect", "system:playback_1", path])
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr.contains("\(path) has no audio after --start 25 s: give a --start within the file"))
  }

  @Test("No JACK server: exit 1 and how to start one")
  func serverNotRunning() throws {
    let name = "bmtest-missing-\(getpid())"
    let result = try CLI.run([
      "feed", "--server", name, "--connect", "monitor:in_1", Fixtures.music("catalog-a.ogg").path,
    ])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains("JACK server \"\(name)\" not running: start it with `jackd -n \(name) -d dummy`"),
      "\(result.stderr)")
  }

  @Test(
    "Usage errors exit 64 naming what to change; a missing file exits 1 naming it, before JACK is asked",
    arguments: [
      (["a.ogg"], 64, "--connect is required"),
      (["--connect", "a:in_1,a:in_2,a:in_3", "a.ogg"], 64, "give one JACK input port (mono) or two"),
      (["--connect", "a:in_1,", "a.ogg"], 64, "--connect a:in_1,: give one JACK input port"),
      (["--connect", "a:in_1", "--start", "soon", "a.ogg"], 64, "--start soon: give the number of seconds"),
      (["--connect", "a:in_1"], 64, "usage: broadcast-monitor feed"),
      (["--connect", "a:in_1", "--looop", "a.ogg"], 64, "unknown option --looop"),
      (["--connect", "a:in_1", "--on-air-since", "now", "a.ogg"], 64, "--on-air-since now: give the time"),
      (
        ["--connect", "a:in_1", "--start", "3", "--on-air-since", "2026-05-04T06:00:00Z", "a.ogg"], 64,
        "--start and --on-air-since both say where to begin"
      ),
      (
        ["--server", "bmtest-unused", "--connect", "a:in_1", "/no/such/file.ogg"], 1,
        "/no/such/file.ogg: cannot be read"
      ),
    ])
  func usage(arguments: [String], status: Int32, message: String) throws {
    let result = try CLI.run(["feed"] + arguments)
    #expect(result.status == status, "\(arguments): \(result)")
    #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
  }
}
