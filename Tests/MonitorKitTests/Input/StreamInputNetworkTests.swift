import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("StreamInput: network streams", .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct StreamInputNetworkTests {
  static let rate = 8000

  /// An executable `ffmpeg` in `folder` that runs `script` (with its `#!` line) instead: a server's behaviour, scripted.
  static func standIn(in folder: TemporaryDirectory, _ script: String) throws -> URL {
    let ffmpeg = folder.file("ffmpeg")
    try script.write(to: ffmpeg, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: ffmpeg.path)
    return ffmpeg
  }

  @Test("A closed port: .reconnecting and one gap notice, retries spaced out, no crash; stop() returns at once")
  func closedPort() throws {
    let port = try LocalTCP.freePort()
    let url = "http://127.0.0.1:\(port)/live.ogg"
    let input = try StreamInput(url: url, sampleRate: Self.rate)
    let recorder = InputRecorder(input)
    let started = Date().timeIntervalSince1970
    try input.start()  // a stream that is down is not an error
    // Attempts at 0, 1 and 3 s (then 7 s): spaced out, not spinning. A loaded machine only makes them later (ffmpeg
    // takes longer to start and fail), so the test waits for the third one to have failed, the input then waiting
    // 4 s before the fourth, and checks that it did not come sooner than 3 s.
    let thirdFailed = recorder.pump(seconds: 60) { _ in input.ffmpegLaunches >= 3 && input.ffmpegProcessID == nil }
    let elapsed = Date().timeIntervalSince1970 - started
    #expect(thirdFailed, "\(input.ffmpegLaunches) attempts in 60 s")
    #expect(input.ffmpegLaunches == 3 && elapsed >= 3, "\(input.ffmpegLaunches) attempts in \(elapsed) s")
    #expect(input.status == .reconnecting)
    #expect(recorder.frames() == 0)
    // The same failure is reported once, not at every attempt.
    #expect(recorder.notices.count == 1, "\(recorder.notices)")
    if let gap = recorder.notices.first {
      #expect(gap.kind == .gap)
      #expect(gap.detail.contains(url))
      #expect(gap.detail.contains("Connection refused"), "\(gap.detail)")
      #expect(gap.detail.contains("retrying in 1 s"))
      #expect(gap.detail.contains("Check the URL"))
      #expect(gap.startTime >= started - 0.01 && gap.startTime < started + 1)
    }
    let stopping = Date()
    input.stop()  // in the middle of the 4 s backoff wait
    #expect(Date().timeIntervalSince(stopping) < 2, "the stop does not wait for the next attempt")
    #expect(input.status == .ended)
    for pid in recorder.processIDs { #expect(!ProcessTable.isChildOfThisProcess(pid), "ffmpeg \(pid) left behind") }
  }

  @Test("A server that accepts but never sends: ffmpeg is stopped after the stall timeout and tried again")
  func stalledServer() throws {
    let hanging = try ListeningSocket()
    let url = "http://127.0.0.1:\(hanging.port)/live.ogg"
    let input = try StreamInput(url: url, sampleRate: Self.rate, stallTimeoutSeconds: 1.5)
    let recorder = InputRecorder(input)
    try input.start()
    #expect(recorder.pump(seconds: 6) { !$0.notices.isEmpty }, "no gap notice")
    let seen = recorder.processIDs
    #expect(input.status == .reconnecting)
    if let gap = recorder.notices.first {
      #expect(gap.kind == .gap)
      #expect(gap.detail.contains("no audio for 1.5 s"), "\(gap.detail)")
      #expect(gap.detail.contains("stopped sending"), "\(gap.detail)")
      #expect(gap.detail.contains(url))
    }
    recorder.pump(seconds: 0.5)
    for pid in seen { #expect(!ProcessTable.isChildOfThisProcess(pid), "stalled ffmpeg \(pid) left behind") }
    withExtendedLifetime(hanging) { input.stop() }
  }

  @Test("A server that sends what ffmpeg cannot decode is reported as such, not as a server that stopped sending")
  func undecodableStream() throws {
    // An ffmpeg stand-in that says what ffmpeg says of random bytes from an HTTP server, then outputs nothing.
    let folder = try TemporaryDirectory(prefix: "undecodable")
    let ffmpeg = try Self.standIn(
      in: folder,
      """
      #!/bin/sh
      echo "http://127.0.0.1:1/live.ogg: Invalid data found when processing input" >&2
      exec sleep 60
      """)
    let input = try StreamInput(
      url: "http://127.0.0.1:1/live.ogg", sampleRate: Self.rate, stallTimeoutSeconds: 1.5, ffmpegPath: ffmpeg.path)
    let recorder = InputRecorder(input)
    try input.start()
    defer { input.stop() }
    #expect(recorder.pump(seconds: 30) { !$0.notices.isEmpty }, "no gap notice")
    let gap = try #require(recorder.notices.first)
    #expect(gap.detail.contains("cannot decode as audio"), "\(gap.detail)")
    #expect(!gap.detail.contains("stopped sending"), "\(gap.detail)")
  }

  @Test("A stall is told by what ffmpeg said while it stalled, not by its words when stopped, and hides the password")
  func stallMessage() throws {
    // An ffmpeg stand-in that quotes the URL, outputs nothing, and says something else when it is stopped.
    let folder = try TemporaryDirectory(prefix: "stall-message")
    let ffmpeg = try Self.standIn(
      in: folder,
      """
      #!/bin/sh
      trap 'echo "Immediate exit requested" >&2; exit 255' TERM
      echo "Reconnecting to http://source:hunter2@127.0.0.1:1/live.ogg at offset 0" >&2
      sleep 60 &
      wait
      """)
    let input = try StreamInput(
      url: "http://source:hunter2@127.0.0.1:1/live.ogg", sampleRate: Self.rate, stallTimeoutSeconds: 1.5,
      ffmpegPath: ffmpeg.path)
    let recorder = InputRecorder(input)
    try input.start()
    defer { input.stop() }
    #expect(recorder.pump(seconds: 30) { !$0.notices.isEmpty }, "no gap notice")
    let gap = try #require(recorder.notices.first)
    #expect(gap.detail.contains("(its last message: Reconnecting to http://source:***@127.0.0.1:1/live.ogg"), "\(gap)")
    #expect(!gap.detail.contains("hunter2") && !gap.detail.contains("Immediate exit"), "\(gap.detail)")
  }

  @Test("A burst after a short drop repeats seconds already heard: they are skipped, and the live audio keeps its time")
  func burstAfterDropIsNotHeardTwice() throws {
    // An ffmpeg stand-in: 3 s of live audio, then the stream drops; connected again, the server's burst of the 4 s it
    // played last (the end of what was heard, and the drop), then live audio.
    let folder = try TemporaryDirectory(prefix: "burst-after-drop")
    let marker = folder.file("connected-once")
    let ffmpeg = try Self.standIn(
      in: folder,
      """
      #!/usr/bin/env python3
      import os, sys, time
      chunk = bytes(4 * \(Self.rate / 10))
      if not os.path.exists("\(marker.path)"):
          open("\(marker.path)", "w").close()
          for i in range(30):
              time.sleep(0.1); sys.stdout.buffer.write(chunk); sys.stdout.flush()
          sys.exit(1)
      sys.stdout.buffer.write(chunk * 40); sys.stdout.flush()
      while True:
          time.sleep(0.1); sys.stdout.buffer.write(chunk); sys.stdout.flush()
      """)
    let input = try StreamInput(url: "http://127.0.0.1:1/live.ogg", sampleRate: Self.rate, ffmpegPath: ffmpeg.path)
    let recorder = InputRecorder(input)
    try input.start()
    defer { input.stop() }
    let rate = Double(Self.rate)
    func end(_ chunk: InputChunk) -> Double { chunk.startTime + Double(chunk.frames) / rate }
    #expect(
      recorder.pump(seconds: 30) { recorder in
        recorder.notices.contains { $0.kind == .reconnect }
          && recorder.chunks.filter { $0.segment != recorder.chunks[0].segment }.count > 20
      }, "no second connection with audio")
    let firstSegment = try #require(recorder.chunks.first).segment
    let heard = recorder.chunks.filter { $0.segment == firstSegment }
    let again = recorder.chunks.indices.filter { recorder.chunks[$0].segment != firstSegment }
    let heardEnd = try #require(heard.last.map(end))
    let resumed = try #require(again.first.map { recorder.chunks[$0] })
    #expect(abs(resumed.startTime - heardEnd) < 0.05, "resumes at \(resumed.startTime - heardEnd) s from the end heard")
    for index in again {
      let ahead = end(recorder.chunks[index]) - recorder.readTimes[index]
      #expect(ahead < 0.3, "audio placed \(ahead) s after it was read")
    }
  }

  @Test("A burst decoded slower than it arrives (a loaded machine) is placed in the past up to its live end")
  func slowBurstIsPlacedInThePast() throws {
    // An ffmpeg stand-in: a server's 8 s burst-on-connect, decoded over 2 s (as a loaded machine does), then live
    // audio; it notes the wall-clock time at which it wrote the burst's last sample, the live edge.
    let folder = try TemporaryDirectory(prefix: "slow-burst")
    let liveEdge = folder.file("live-edge")
    let ffmpeg = try Self.standIn(
      in: folder,
      """
      #!/usr/bin/env python3
      import sys, time
      chunk = bytes(4 * \(Self.rate / 10))
      for i in range(80):  # 8 s of burst, 0.1 s of audio every 25 ms
          sys.stdout.buffer.write(chunk); sys.stdout.flush(); time.sleep(0.025)
      open("\(liveEdge.path)", "w").write(repr(time.time()))
      while True:  # live: 0.1 s of audio every 0.1 s
          time.sleep(0.1); sys.stdout.buffer.write(chunk); sys.stdout.flush()
      """)
    let input = try StreamInput(url: "http://127.0.0.1:1/live.ogg", sampleRate: Self.rate, ffmpegPath: ffmpeg.path)
    let recorder = InputRecorder(input)
    try input.start()
    defer { input.stop() }
    #expect(recorder.pump(seconds: 30) { $0.frames() > 0 }, "no audio from the stand-in")
    let first = try #require(recorder.chunks.first)
    let edge = try #require(
      Wait.until(seconds: 30) { FileManager.default.fileExists(atPath: liveEdge.path) }
        ? Double(String(contentsOf: liveEdge, encoding: .utf8)) : nil, "the stand-in never reached the live edge")
    // Frame 0 is 8 s before the live edge: never placed earlier (audio cannot arrive before it was sent), and late by
    // no more than the moments between the stand-in's write and the reader's read.
    let late = first.startTime - (edge - 8)
    #expect(late > -0.05 && late < 0.5, "the first audio is placed \(late) s after its time")
  }
}

@Suite(
  "StreamInput against a local Icecast server", .serialized,
  .enabled(if: IcecastTestServer.isAvailable, "\(IcecastTestServer.skipMessage)"))
struct StreamInputIcecastTests {
  static let rate = 8000

  @Test(
    "Audio at real-time rate with sane times; server killed: .reconnecting and a gap; back: .reconnect, new segment")
  func streamOutageAndReconnect() throws {
    let server = try IcecastTestServer()
    let input = try StreamInput(url: server.url, sampleRate: Self.rate)
    let recorder = InputRecorder(input)
    let started = Date().timeIntervalSince1970
    try input.start()
    defer { input.stop() }

    // Audio arrives (after the second in which the connection's start time holds still); ffmpeg's start and the
    // burst take seconds of their own on a loaded machine.
    #expect(recorder.pump(seconds: 30) { $0.frames() > 0 }, "no audio from \(server.url)\n\(server.log)")
    #expect(input.status == .running)
    let firstRead = try #require(recorder.readTimes.first)
    #expect(firstRead - started < 10, "first audio after \(firstRead - started) s")
    // At real-time rate: 10 s of wall-clock time after the initial burst bring about 10 s of audio (long enough that
    // a loaded machine's late delivery at either end of it stays within the 10 %).
    #expect(recorder.pump(seconds: 10) { $0.input.backlogSeconds < 0.5 }, "the burst is read")
    let before = recorder.frames()
    let from = Date()
    recorder.pump(seconds: 10)
    let rate = Double(recorder.frames() - before) / Date().timeIntervalSince(from)
    #expect(abs(rate / Double(Self.rate) - 1) < 0.1, "\(rate) frames/s")
    // Sane times: contiguous, and not ahead of the clock by more than the stream's packets (Ogg pages of about
    // 0.6 s here), although Icecast sends a burst on connect: the burst is placed in the past.
    #expect(recorder.timeProblems().isEmpty, "\(recorder.timeProblems())")
    if let first = recorder.chunks.first {
      #expect(
        first.startTime > started - 15 && first.startTime <= firstRead, "first audio at \(first.startTime - started) s")
    }
    for (chunk, readTime) in zip(recorder.chunks, recorder.readTimes) {
      #expect(chunk.startTime + Double(chunk.frames) / chunk.sampleRate <= readTime + 1)
    }
    #expect(recorder.segments == [0])
    #expect(recorder.notices.isEmpty, "\(recorder.notices)")

    // The server goes away: a gap from the end of the audio heard, and .reconnecting.
    server.kill()
    let killed = Date().timeIntervalSince1970
    #expect(
      recorder.pump(seconds: 20) { $0.input.status == .reconnecting && !$0.notices.isEmpty }, "\(recorder.statuses)")
    let gap = try #require(recorder.notices.first, "no gap notice")
    #expect(gap.kind == .gap)
    #expect(gap.detail.contains(server.url) && gap.detail.contains("retrying in"), "\(gap.detail)")
    let heard = recorder.chunks.last.map { $0.startTime + Double($0.frames) / $0.sampleRate } ?? 0
    // The audio's times are late by the quickest delivery's delay (see `StreamReader+Audio`): a second or more on a
    // loaded machine (1.14 s seen at load 24), so the gap may start up to 2 s after the kill.
    #expect(gap.startTime >= heard - 1e-6 && gap.startTime <= killed + 2, "gap at \(gap.startTime - killed) s")

    // Back again: .reconnect, a new segment, audio again.
    try server.start()
    let back = recorder.pump(seconds: 20) { $0.notices.contains { $0.kind == .reconnect } && $0.segments.count == 2 }
    #expect(back, "no reconnect: \(recorder.notices)\n\(server.log)")
    #expect(input.status == .running)
    #expect(recorder.statuses.suffix(3) == [.running, .reconnecting, .running], "\(recorder.statuses)")
    let reconnect = try #require(recorder.notices.first { $0.kind == .reconnect })
    #expect(reconnect.startTime >= gap.startTime)
    #expect(reconnect.detail.contains("audio again after a gap"))
    let newSegment = try #require(recorder.chunks.first { $0.segment == 1 })
    #expect(newSegment.startTime == reconnect.startTime)
    recorder.pump(seconds: 20) { $0.frames(segment: 1) > Self.rate }
    #expect(recorder.frames(segment: 1) > Self.rate, "\(recorder.frames(segment: 1)) frames after the reconnect")
    #expect(recorder.timeProblems().isEmpty, "\(recorder.timeProblems())")
    #expect(recorder.segments == [0, 1])

    let pids = recorder.processIDs
    input.stop()
    #expect(input.status == .ended)
    for pid in pids { #expect(!ProcessTable.isChildOfThisProcess(pid), "ffmpeg \(pid) left behind") }
  }

  @Test(
    "A mount that was gone long enough for 30 s between attempts: audio again within 5 s of its return, not 30 s")
  func mountBackAfterLongOutage() throws {
    let server = try IcecastTestServer()
    let input = try StreamInput(url: server.url, sampleRate: Self.rate)
    let recorder = InputRecorder(input)
    try input.start()
    defer { input.stop() }
    #expect(recorder.pump(seconds: 10) { $0.frames() > 0 }, "no audio from \(server.url)\n\(server.log)")

    // The studio's encoder goes away, the server stays up (the mount answers 404). After the connection's end and
    // the 5 failed attempts that follow it at 1, 2, 4, 8 and 16 s, the next attempt is 30 s away.
    server.dropSource()
    let launches = 1 + 5
    let waitingLongest = recorder.pump(seconds: 60) { _ in
      input.ffmpegLaunches == launches && input.ffmpegProcessID == nil
    }
    #expect(waitingLongest, "\(input.ffmpegLaunches) launches, \(recorder.notices)")
    #expect(input.status == .reconnecting)

    // The encoder is back: audio flows again within 5 s of the mount answering (plus 2 s for this busy machine),
    // not at the next attempt up to 30 s later.
    try server.startSource()
    let back = Date()
    let resumed = recorder.pump(seconds: 40) { $0.segments.count == 2 }
    let seconds = Date().timeIntervalSince(back)
    #expect(resumed && seconds <= 5 + 2, "audio again \(seconds) s after the mount came back\n\(server.log)")
    #expect(recorder.notices.contains { $0.kind == .reconnect }, "\(recorder.notices)")
    // The probes that saw the mount back cost one attempt, not one per probe.
    #expect(input.ffmpegLaunches == launches + 1, "\(input.ffmpegLaunches) launches")
  }
}
