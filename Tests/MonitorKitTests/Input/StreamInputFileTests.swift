import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("StreamInput: files", .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct StreamInputFileTests {
  static let rate = 8000

  @Test("A file played once delivers its whole length at real-time pace, in one segment, then ends")
  func playOnce() throws {
    let input = try StreamInput(
      filePath: Fixtures.music("catalog-b.ogg").path, loop: false, sampleRate: Self.rate)
    let recorder = InputRecorder(input)
    #expect(input.status == .starting)
    let started = Date().timeIntervalSince1970
    try input.start()
    defer { input.stop() }
    let ended = recorder.pump(seconds: 45) { $0.input.status == .ended }
    recorder.poll()  // the worker reads on after `.ended`: what arrived before the end is still in the ring
    let elapsed = Date().timeIntervalSince1970 - started
    #expect(ended, "statuses \(recorder.statuses), \(recorder.frames()) frames")
    #expect(recorder.statuses == [.starting, .running, .ended] || recorder.statuses == [.running, .ended])
    let seconds = Double(recorder.frames()) / Double(Self.rate)
    #expect(abs(seconds - 30) < 0.1, "\(seconds) s of audio from a 30 s file")
    #expect(elapsed > 29 && elapsed < 36, "a 30 s file took \(elapsed) s")
    #expect(recorder.segments == [0])
    #expect(recorder.timeProblems().isEmpty, "\(recorder.timeProblems())")
    #expect(recorder.notices.isEmpty, "\(recorder.notices)")
    // Time stamps: the first audio is stamped when it arrived; no audio is stamped later than it was read.
    if let first = recorder.chunks.first {
      #expect(
        first.startTime >= started && first.startTime < started + 2, "first audio at \(first.startTime - started) s")
      #expect(first.sampleRate == Double(Self.rate))
    }
    for (chunk, readTime) in zip(recorder.chunks, recorder.readTimes) {
      let end = chunk.startTime + Double(chunk.frames) / chunk.sampleRate
      #expect(end <= readTime + 0.3, "audio ending at \(end - started) s read at \(readTime - started) s")
    }
    // Not bursty: after 10 s of wall-clock time, about 10 s of audio had been read.
    if let firstRead = recorder.readTimes.first {
      let byTen = zip(recorder.chunks, recorder.readTimes).filter { $0.1 <= firstRead + 10 }.reduce(0) {
        $0 + $1.0.frames
      }
      #expect(abs(Double(byTen) / Double(Self.rate) - 10) < 1, "\(Double(byTen) / Double(Self.rate)) s read in 10 s")
    }
    #expect(input.ffmpegProcessID == nil)
    for pid in recorder.processIDs { #expect(!ProcessTable.isChildOfThisProcess(pid), "ffmpeg \(pid) left behind") }
  }

  @Test("A looped file keeps going past its length without a break; stop() ends it at once and leaves no ffmpeg")
  func loop() throws {
    let folder = try TemporaryDirectory(prefix: "stream-input-loop")
    let short = folder.file("short.ogg").path
    let cut = try Subprocess.run(
      "ffmpeg", ["-v", "error", "-i", Fixtures.music("catalog-b.ogg").path, "-t", "3", "-c", "copy", short])
    try #require(cut.status == 0, "\(cut)")

    let input = try StreamInput(filePath: short, loop: true, sampleRate: Self.rate)
    let recorder = InputRecorder(input)
    try input.start()
    recorder.pump(seconds: 8)
    let seconds = Double(recorder.frames()) / Double(Self.rate)
    #expect(seconds > 6.5 && seconds < 8.5, "\(seconds) s of audio in 8 s from a 3 s file")
    #expect(input.status == .running)
    #expect(recorder.segments == [0])
    #expect(recorder.timeProblems().isEmpty, "\(recorder.timeProblems())")
    #expect(recorder.notices.isEmpty, "\(recorder.notices)")
    #expect(recorder.processIDs.count == 1)

    let stopping = Date()
    input.stop()
    #expect(Date().timeIntervalSince(stopping) < 1.5)
    #expect(input.status == .ended)
    #expect(recorder.read(frames: 1) == nil)
    for pid in recorder.processIDs { #expect(!ProcessTable.isChildOfThisProcess(pid), "ffmpeg \(pid) left behind") }
    input.stop()  // again: nothing happens
    #expect(input.status == .ended)
  }

  @Test("A missing or unreadable file: start() throws, naming the file and the fix")
  func missingFile() throws {
    let folder = try TemporaryDirectory(prefix: "stream-input-missing")
    let missing = folder.file("no-such-song.ogg").path
    for (path, reason) in [(missing, "no such file"), (folder.url.path, "folder")] {
      let input = try StreamInput(filePath: path, loop: false, sampleRate: Self.rate)
      let error = #expect(throws: StreamInputError.self) { try input.start() }
      #expect(error?.description.contains(path) == true)
      #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
      #expect(input.ffmpegLaunches == 0)
      input.stop()
    }
  }

  @Test("ffmpeg not installed: start() throws, saying how to install it")
  func ffmpegMissing() throws {
    let input = try StreamInput(
      filePath: Fixtures.music("catalog-b.ogg").path, loop: false, sampleRate: Self.rate,
      ffmpegPath: "/nonexistent/ffmpeg")
    let error = #expect(throws: StreamInputError.self) { try input.start() }
    #expect(error?.description.contains("apt-get install ffmpeg") == true)
    let network = try StreamInput(url: "http://127.0.0.1:1/x", sampleRate: Self.rate, ffmpegPath: "no-such-ffmpeg-here")
    #expect(throws: StreamInputError.ffmpegMissing("\"no-such-ffmpeg-here\" is not on PATH")) { try network.start() }
  }

  @Test("Settings that cannot work are refused when the input is made")
  func invalidSettings() {
    #expect(throws: StreamInputError.self) { try StreamInput(url: "http://h/x", sampleRate: 0) }
    #expect(throws: StreamInputError.self) { try StreamInput(url: "http://h/x", sampleRate: 8000, ringSeconds: 0) }
    #expect(throws: StreamInputError.self) { try StreamInput(url: "http://h/x", sampleRate: 8000, ringSeconds: .nan) }
    #expect(throws: StreamInputError.self) {
      try StreamInput(url: "http://h/x", sampleRate: 8000, stallTimeoutSeconds: 0)
    }
    #expect(throws: StreamInputError.self) { try StreamInput(url: "h:80/x", sampleRate: 8000) }
  }

  @Test("A corrupt file or one that is not audio: a notice saying so, the input ends, nothing crashes")
  func corruptFile() throws {
    for name in ["corrupt.ogg", "not-audio.ogg"] {
      let path = Fixtures.music(name).path
      let input = try StreamInput(filePath: path, loop: false, sampleRate: Self.rate)
      let recorder = InputRecorder(input)
      try input.start()
      #expect(recorder.pump(seconds: 10) { $0.input.status == .ended && !$0.notices.isEmpty })
      #expect(recorder.frames() == 0)
      #expect(recorder.notices.count == 1, "\(recorder.notices)")
      if let notice = recorder.notices.first {
        #expect(notice.kind == .gap)
        #expect(notice.detail.contains(path))
        #expect(notice.detail.contains("could not decode"), "\(notice.detail)")
        #expect(notice.detail.contains("Check that the file is complete"))
      }
      #expect(input.ffmpegLaunches == 1)  // a file is not tried again
      input.stop()
      for pid in recorder.processIDs { #expect(!ProcessTable.isChildOfThisProcess(pid)) }
    }
  }

  @Test("A worker that falls behind: the dropped audio is an overrun, and no chunk straddles two segments")
  func overrunStartsSegment() throws {
    let input = try StreamInput(
      filePath: Fixtures.music("catalog-b.ogg").path, loop: false, sampleRate: Self.rate, ringSeconds: 0.5)
    let capacity = input.ringCapacity
    #expect(capacity == 4096)
    let recorder = InputRecorder(input, bufferFrames: 8192)
    try input.start()
    defer { input.stop() }
    // The ring fills after 0.5 s of audio (later on a busy machine, where ffmpeg starts late); then the worker
    // stays away for 1.5 s, and what arrives meanwhile is dropped.
    #expect(Wait.until(seconds: 20) { input.backlogSeconds * Double(Self.rate) >= Double(capacity) - 0.5 })
    let full = Date()
    Thread.sleep(forTimeInterval: 1.5)
    let first = try #require(recorder.read(frames: 1000))
    let away = Date().timeIntervalSince(full)
    #expect(first.segment == 0 && first.frames == 1000)
    // The reader puts new audio into the 1000 free frames: a new segment, and the ring is full again.
    #expect(Wait.until(seconds: 10) { input.backlogSeconds * Double(Self.rate) >= Double(capacity) - 0.5 })
    // The ring now holds 3096 frames of segment 0, then segment 1: one read must not return both.
    let rest = try #require(recorder.read(frames: 8192))
    #expect(rest.segment == 0 && rest.frames == capacity - 1000)
    let next = try #require(recorder.read(frames: 8192))
    #expect(next.segment == 1)
    recorder.poll()
    let overrun = try #require(recorder.notices.first { $0.kind == .overrun }, "\(recorder.notices)")
    let rate = Double(Self.rate)
    #expect(abs(overrun.startTime - (first.startTime + Double(capacity) / rate)) < 1e-6)
    let dropped = (overrun.endTime ?? 0) - overrun.startTime
    // ffmpeg paces the file at real time (catching up after a stall): about as much is dropped as the worker was
    // away, never more.
    #expect(dropped > 0.5 * away && dropped < away + 0.3, "dropped \(dropped) s while away \(away) s")
    #expect(abs(next.startTime - (overrun.endTime ?? 0)) < 1e-6)
    #expect(overrun.detail.contains("fell behind"))
    #expect(recorder.timeProblems().isEmpty, "\(recorder.timeProblems())")
  }

  @Test("The backlog is the audio that arrived and was not read yet; reading it empties it; none after stop()")
  func backlog() throws {
    let input = try StreamInput(
      filePath: Fixtures.music("catalog-b.ogg").path, loop: false, sampleRate: Self.rate)
    let recorder = InputRecorder(input)
    #expect(input.backlogSeconds == 0)
    let started = Date()
    try input.start()
    defer { input.stop() }
    var backlog = 0.0
    let deadline = Date().addingTimeInterval(20)
    while backlog < 2.5 && Date() < deadline {  // nothing is read meanwhile
      Thread.sleep(forTimeInterval: 0.02)
      backlog = input.backlogSeconds
    }
    let elapsed = Date().timeIntervalSince(started)
    #expect(backlog >= 2.5, "\(backlog) s waiting after \(elapsed) s")
    // ffmpeg's -re sends the first half second at once; no more can have arrived than that and the time since.
    #expect(backlog <= elapsed + 0.6, "\(backlog) s waiting after \(elapsed) s")
    recorder.poll()
    #expect(Double(recorder.frames()) / Double(Self.rate) >= backlog, "what was waiting was read")
    #expect(input.backlogSeconds < 0.5, "\(input.backlogSeconds) s waiting after reading")
    input.stop()
    #expect(input.backlogSeconds == 0)
  }
}
