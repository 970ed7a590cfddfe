import Foundation
import JackTestSupport
import TestSupport
import Testing

@testable import MonitorKit

/// What `ChannelInput` promises a channel's worker, checked against every implementation: a file played once and
/// looped, a network stream that reconnects, JACK ports, and the test inputs the pipeline tests stand in with.
///
/// The contract, from `ChannelInput`'s documentation: `start()` and `stop()` may be called again without effect, and
/// `start()` after `stop()` does not bring the input back; a read returns at most the frames asked for (at least 1)
/// of one segment, with finite samples; segments only go forward; within a segment each chunk starts where the one
/// before ended (a JACK input may leave a hole after an overrun, forward only, and its stamps, JACK's estimates, may
/// jitter by less than a frame), so time stamps only increase;
/// `stop()` returns promptly, the status is then `.ended` for good, and reads end (a JACK input first returns what its
/// rings still hold, as `Monitor.stop()` reads it after stopping the session); the backlog is a finite number of
/// seconds, never negative; the xrun count never goes down.
@Suite("ChannelInput conformance")
struct ChannelInputConformanceTests {
  /// Longest a `stop()` may take: a stream input waits for its reader thread and ffmpeg (`stopTimeoutSeconds`).
  static let stopSeconds = 3.0
  /// The most audio a JACK input's rings can still return after it stopped: the session's ring (`ringSeconds`).
  static let ringSeconds = 10.0

  /// Plays the channel's worker: reads with buffers of random sizes and checks every answer against the contract.
  final class ContractReader {
    let input: any ChannelInput
    /// JACK moves a segment's time stamps past an overrun's dropped audio instead of starting a new segment, and
    /// stamps each chunk from JACK's own estimate of its frame's time (`jack_frames_to_time`, which JACK's clock
    /// filter refines every cycle): a chunk may start up to a frame before the previous one ended, no more.
    let isJack: Bool
    var random: SeededGenerator
    let origin: String
    private(set) var chunks: [InputChunk] = []
    private(set) var problems: [String] = []
    /// The samples of each chunk, when kept.
    private(set) var samples: [[Float]] = []
    private var xruns = 0
    private var leftStarting = false
    private var buffer = [Float](repeating: .nan, count: 8192)

    init(_ input: any ChannelInput, isJack: Bool = false, case index: Int = 0) {
      self.input = input
      self.isJack = isJack
      random = PropertyCheck.generator(case: index)
      origin = PropertyCheck.origin(case: index)
    }

    func problem(_ text: String) { problems.append("\(input.sourceDescription): \(text) (\(origin))") }

    /// One read of a random size; checks the chunk, if any.
    @discardableResult
    func readOnce() -> InputChunk? {
      let asked = Int(pow(8192, Double.random(in: 0...1, using: &random)).rounded())
      for i in 0..<asked { buffer[i] = .nan }
      let chunk = buffer.withUnsafeMutableBufferPointer {
        input.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<asked]))
      }
      checkState()
      guard let chunk else { return nil }
      if chunk.frames < 1 || chunk.frames > asked { problem("\(chunk.frames) frames for a buffer of \(asked)") }
      let frames = max(0, min(chunk.frames, asked))
      if !buffer[0..<frames].allSatisfy(\.isFinite) { problem("samples that are not finite numbers in \(chunk)") }
      if !(chunk.sampleRate.isFinite && chunk.sampleRate > 0) { problem("sample rate \(chunk.sampleRate)") }
      if !chunk.startTime.isFinite { problem("start time \(chunk.startTime)") }
      if let previous = chunks.last {
        let previousEnd = previous.startTime + Double(previous.frames) / previous.sampleRate
        if chunk.segment < previous.segment {
          problem("segment \(chunk.segment) after segment \(previous.segment)")
        } else if chunk.segment == previous.segment {
          if chunk.sampleRate != previous.sampleRate { problem("the rate changed within segment \(chunk.segment)") }
          let gap = chunk.startTime - previousEnd
          let jitter = isJack ? 1 / chunk.sampleRate : 1e-6
          if gap < -jitter || (gap > jitter && !isJack) {
            problem("segment \(chunk.segment): chunk at \(chunk.startTime) does not follow \(previousEnd)")
          }
        } else if chunk.startTime < previousEnd - 1e-6 {
          problem("segment \(chunk.segment) at \(chunk.startTime) starts before segment \(previous.segment) ended")
        }
        if chunk.startTime <= previous.startTime {
          problem("chunk at \(chunk.startTime) is not later than the one before, at \(previous.startTime)")
        }
      }
      chunks.append(chunk)
      samples.append(Array(buffer[0..<frames]))
      return chunk
    }

    /// The state any thread may read: finite backlog, xruns only counting up, `.starting` only before the start.
    func checkState() {
      let backlog = input.backlogSeconds
      if !(backlog.isFinite && backlog >= 0) { problem("backlog of \(backlog) s") }
      if input.xruns < xruns { problem("xruns went down from \(xruns) to \(input.xruns)") }
      xruns = input.xruns
      if let rate = input.sourceSampleRate, !(rate.isFinite && rate > 0) { problem("source rate \(rate)") }
      let status = input.status
      if status == .starting && leftStarting { problem("back to .starting") }
      if status != .starting { leftStarting = true }
      _ = input.takeNotices()
    }

    /// Reads until nothing waits; the chunks read.
    @discardableResult
    func drain(maxChunks: Int = 100_000) -> Int {
      var count = 0
      while count < maxChunks, readOnce() != nil { count += 1 }
      return count
    }

    /// Reads (every 10 ms when nothing waits) until `condition` holds or `seconds` have passed.
    @discardableResult
    func pump(seconds: Double, until condition: (ContractReader) -> Bool) -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      while !condition(self) {
        guard Date() < deadline else { return false }
        if readOnce() == nil { Thread.sleep(forTimeInterval: 0.01) }  // polls, as a worker does between reads
      }
      return true
    }

    var frames: Int { chunks.reduce(0) { $0 + $1.frames } }
    var segments: [Int] {
      chunks.reduce(into: []) { list, chunk in if list.last != chunk.segment { list.append(chunk.segment) } }
    }

    /// `stop()` and what follows it: prompt, `.ended` for good, reads end, a second `stop()` and a `start()` after it
    /// change nothing. `bufferedSeconds`: audio the input may still return after `stop()`.
    func checkStop(bufferedSeconds: Double = 0) {
      let stopping = Date()
      input.stop()
      let took = Date().timeIntervalSince(stopping)
      if took > ChannelInputConformanceTests.stopSeconds { problem("stop() took \(took) s") }
      if input.status != .ended { problem("status \(input.status) after stop()") }
      let before = frames
      drain()
      let after = Double(frames - before) / (chunks.last?.sampleRate ?? 1)
      if after > bufferedSeconds + 0.1 { problem("\(after) s of audio read after stop()") }
      input.stop()
      do { try input.start() } catch { problem("start() after stop() threw \(error)") }
      if input.status != .ended { problem("status \(input.status) after stop(), stop() and start()") }
      for _ in 0..<3 where readOnce() != nil { problem("a read after stop(), stop() and start() returned audio") }
    }
  }

  // MARK: - The test inputs

  /// A script of three segments whose every sample names its segment, so that a chunk that straddles two shows.
  static func script() -> [ScriptedInput.Segment] {
    [(3000, 100.0), (1, 100.5), (5000, 200.0)].enumerated().map { index, segment in
      ScriptedInput.Segment(samples: [Float](repeating: Float(index + 1), count: segment.0), startTime: segment.1)
    }
  }

  /// Checks that a scripted input gave back exactly the script, each chunk inside its segment.
  static func expectScript(_ reader: ContractReader, _ script: [ScriptedInput.Segment]) {
    for (chunk, samples) in zip(reader.chunks, reader.samples) {
      #expect(
        samples.allSatisfy { $0 == Float(chunk.segment + 1) },
        "a chunk of segment \(chunk.segment) holds another segment's audio (\(reader.origin))")
    }
    #expect(reader.segments == Array(script.indices), "\(reader.origin)")
    for index in script.indices {
      let frames = reader.chunks.filter { $0.segment == index }.reduce(0) { $0 + $1.frames }
      #expect(frames == script[index].samples.count, "segment \(index) (\(reader.origin))")
    }
  }

  @Test("ScriptedInput keeps the contract, reads of random sizes never straddle its segments", arguments: 0..<20)
  func scriptedInput(index: Int) throws {
    let script = Self.script()
    var random = PropertyCheck.generator(case: index)
    let input = ScriptedInput(segments: script, chunkFrames: [1, 700, 4096].randomElement(using: &random)!)
    let reader = ContractReader(input, case: index)
    try input.start()
    try input.start()
    reader.drain()
    #expect(input.status == .ended)
    Self.expectScript(reader, script)
    reader.checkStop()
    #expect(reader.problems.isEmpty, "\(reader.problems)")
  }

  @Test("SlowInput keeps the contract of the input it wraps")
  func slowInput() throws {
    let script = Self.script()
    let input = SlowInput(ScriptedInput(segments: script), secondsPerRead: 0.001)
    let reader = ContractReader(input)
    try input.start()
    try input.start()
    reader.drain()
    Self.expectScript(reader, script)
    #expect(input.chunksReturned == reader.chunks.count)
    reader.checkStop()
    #expect(reader.problems.isEmpty, "\(reader.problems)")
  }

  // MARK: - Stream inputs

  @Test(
    "StreamInput on a file played once keeps the contract to its end",
    .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
  func fileOnce() throws {
    let folder = try TemporaryDirectory(prefix: "conformance-file")
    let short = folder.file("short.ogg").path
    let cut = try Subprocess.run(
      "ffmpeg", ["-v", "error", "-i", Fixtures.music("catalog-b.ogg").path, "-t", "3", "-c", "copy", short])
    try #require(cut.status == 0, "\(cut)")
    let input = try StreamInput(filePath: short, loop: false, sampleRate: 8000)
    let reader = ContractReader(input)
    #expect(input.status == .starting)
    try input.start()
    try input.start()  // a second start launches nothing more: the audio is the file's once
    #expect(reader.pump(seconds: 20) { $0.input.status == .ended }, "status \(input.status)")
    reader.drain()  // what arrived before the end
    #expect(abs(Double(reader.frames) / 8000 - 3) < 0.1, "\(reader.frames) frames from a 3 s file")
    #expect(reader.segments == [0])
    reader.checkStop()
    #expect(reader.problems.isEmpty, "\(reader.problems)")
  }

  @Test(
    "StreamInput on a looped file keeps the contract, and stop() ends it mid-stream",
    .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
  func fileLooped() throws {
    let input = try StreamInput(filePath: Fixtures.music("catalog-a.ogg").path, loop: true, sampleRate: 11025)
    let reader = ContractReader(input, case: 1)
    try input.start()
    #expect(reader.pump(seconds: 20) { $0.frames >= 11025 }, "\(reader.frames) frames")
    #expect(input.status == .running)
    reader.checkStop()
    #expect(reader.problems.isEmpty, "\(reader.problems)")
  }

  @Test(
    "StreamInput on a network stream keeps the contract across a reconnect: a new segment, later in time",
    .enabled(if: IcecastTestServer.isAvailable, "\(IcecastTestServer.skipMessage)"))
  func networkStream() throws {
    let server = try IcecastTestServer()
    let input = try StreamInput(url: server.url, sampleRate: 8000)
    let reader = ContractReader(input, case: 2)
    try input.start()
    try input.start()
    #expect(reader.pump(seconds: 15) { $0.frames > 0 }, "no audio from \(server.url)\n\(server.log)")
    server.dropSource()
    try server.startSource()
    #expect(reader.pump(seconds: 40) { $0.segments.count >= 2 }, "segments \(reader.segments)")
    reader.checkStop()
    #expect(reader.problems.isEmpty, "\(reader.problems)")
  }

  // MARK: - JACK

  @Test(
    "JackChannelInput keeps the contract; stopped after its session, it returns what its rings held, then nothing",
    .enabled(if: JackTestServer.jackdPath != nil, "\(JackTestServer.skipMessage)"))
  func jack() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let source = JackSource(stereo: true)
    let session = JackSession(
      settings: JackSettings(
        clientName: "bm-conformance", serverName: server.name, ringSeconds: Self.ringSeconds),
      channels: [.init(name: "fm", source: source, ports: source.portNames(channel: "fm"))],
      log: MonitorLog(write: { _ in }))
    let input = JackChannelInput(channel: "fm", ports: source.portNames(channel: "fm"), session: session)
    let reader = ContractReader(input, isJack: true, case: 3)
    #expect(input.status == .starting)
    session.start()
    defer { session.stop() }
    try input.start()
    try input.start()
    #expect(reader.pump(seconds: 20) { $0.frames >= server.sampleRate }, "\(reader.frames) frames")
    #expect(input.status == .running)
    #expect(input.sourceSampleRate == Double(server.sampleRate))
    session.stop()  // as `Monitor.stop()` does: the session first, then the inputs
    reader.checkStop(bufferedSeconds: Self.ringSeconds)
    #expect(reader.problems.isEmpty, "\(reader.problems)")
  }
}
