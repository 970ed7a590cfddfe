import CJack
import Foundation
import JackInput
import JackTestSupport
import RingBuffer
import TestSupport
import Testing

/// `JackCapture` against a real JACK server: each test starts its own `jackd -d dummy` (see `JackTestServer`).
/// Skipped only when jackd is not installed.
@Suite(.serialized, .enabled(if: JackTestServer.jackdPath != nil, "\(JackTestServer.skipMessage)"))
struct JackCaptureTests {
  @Test("A capture opens on the server with its input ports registered under the given names")
  func opensWithNamedInputPorts() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let capture = try JackCapture(clientName: "bmcap", serverName: server.name, portNames: ["ch1_L", "ch1_R"])
    defer { capture.close() }

    #expect(capture.isOpen)
    #expect(capture.clientName == "bmcap")
    #expect(capture.serverName == server.name)
    #expect(capture.sampleRate == 48_000)
    #expect(capture.bufferSize == 1024)
    #expect(capture.portNames == ["ch1_L", "ch1_R"])
    #expect(capture.fullPortNames == ["bmcap:ch1_L", "bmcap:ch1_R"])
    #expect(server.ports(matching: "^bmcap:", flags: JackPortIsInput) == ["bmcap:ch1_L", "bmcap:ch1_R"])
    #expect(server.ports(matching: "^bmcap:", flags: JackPortIsOutput) == [])
    #expect(capture.rings.count == 2)
    // 10 s at 48 kHz, rounded up to a power of two.
    #expect(capture.rings.allSatisfy { $0.capacity == 524_288 })
    #expect(capture.ring(named: "ch1_R") === capture.rings[1])
    #expect(capture.ring(named: "nope") == nil)
  }

  @Test("The dummy driver's silence reaches every ring and the frame counter advances")
  func silenceFromTheDummyDriverReachesTheRings() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let capture = try JackCapture(
      clientName: "bmcap", serverName: server.name, portNames: ["ch1_L", "ch1_R"], ringSeconds: 2)
    let sources = try capture.sourcePorts(matching: "^system:capture_")
    #expect(sources.count >= 2)
    try #require(sources.count >= 2)
    try capture.connect(source: sources[0], to: "ch1_L")
    try capture.connect(source: sources[1], to: "bmcap:ch1_R")
    try capture.connect(source: sources[1], to: "ch1_R")  // again: already connected is fine

    // The wait blocks (no `Task.sleep`, which can resume late behind test threads that block) while the capture
    // fills its 2 s ring: 12 cycles take a quarter of a second.
    let ran = Wait.until(seconds: 10) { capture.framesProcessed >= 12 * 1024 }
    capture.close()
    #expect(!capture.isOpen)

    let frames = capture.framesProcessed
    #expect(ran, "12 cycles of 1024 frames within 10 s, got \(frames) frames")
    #expect(frames % 1024 == 0)
    #expect(capture.lastFrameTime > 0)
    #expect(capture.overruns == [0, 0])
    #expect(!capture.serverShutDown)
    for ring in capture.rings {
      let samples = ring.drain()
      #expect(samples.count == frames, "every processed frame is in every ring")
      #expect(samples.allSatisfy { $0 == 0 })
    }
  }

  @Test("A ramp played by a second JACK client arrives in the ring complete and in order")
  func rampFromAnotherClientArrivesInOrder() async throws {
    // Sample-exact audio: a run the JACK server disturbed (an xrun loses a cycle) is run again.
    let ((left, right, framesProcessed, samplesPlayed), disturbance) = try await JackDisturbance.retrying {
      let server = try await JackTestServer.start()
      defer { server.stop() }
      let tone = try TestToneClient(name: "bmtone", serverName: server.name)
      defer { tone.close() }
      let capture = try JackCapture(
        clientName: "bmcap", serverName: server.name, portNames: ["ch1_L", "ch1_R"], ringSeconds: 2)
      defer { capture.close() }

      #expect(try capture.sourcePorts(matching: "^bmtone:") == ["bmtone:out"])
      try capture.connect(source: tone.portName, to: "ch1_L")

      // Read while JACK writes, as the worker thread will (polling every 20 ms), until 12 cycles of the ramp came.
      var left: [Float] = []
      Wait.until(seconds: 10, pollSeconds: 0.02) {
        left += capture.rings[0].drain()
        return left.count - (left.firstIndex { $0 != 0 } ?? left.count) >= 12 * 1024
      }
      capture.close()
      left += capture.rings[0].drain()
      return (
        (left, capture.rings[1].drain(), capture.framesProcessed, tone.samplesPlayed), JackDisturbance(of: capture)
      )
    }

    #expect(left.count == framesProcessed)
    #expect(right.count == framesProcessed)
    #expect(right.allSatisfy { $0 == 0 }, "the unconnected port stays silent")
    #expect(samplesPlayed > 0)

    // Silence until the connection is made, then the ramp without a gap, repeat or reordering.
    let start = try #require(left.firstIndex { $0 != 0 }, "no ramp sample arrived")
    let ramp = left[start...]
    #expect(ramp.count >= 12 * 1024, "expected 12 cycles of ramp within 10 s, got \(ramp.count) samples")
    var breaks = 0
    var firstBreak: String?
    for i in ramp.indices.dropFirst() where ramp[i] != testRampSuccessor(ramp[i - 1]) {
      breaks += 1
      if firstBreak == nil { firstBreak = "\(ramp[i - 1]) then \(ramp[i]) at \(i)" }
    }
    #expect(breaks == 0, "ramp broken \(breaks) times, first: \(firstBreak ?? "-"); \(disturbance)")
  }

  @Test("Samples that do not fit in a ring are counted as overruns, exactly")
  func fullRingCountsOverruns() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    // 1 ms asks for 48 frames; the ring is raised to two periods (2048 frames) and fills in two cycles.
    let capture = try JackCapture(
      clientName: "bmcap", serverName: server.name, portNames: ["mono"], ringSeconds: 0.001)
    #expect(capture.rings[0].capacity == 2048)
    #expect(Wait.until(seconds: 10) { capture.overruns[0] > 0 }, "the ring is full after two cycles")
    capture.close()

    let frames = capture.framesProcessed
    #expect(frames > 2048)
    #expect(capture.overruns == [frames - 2048])
    #expect(capture.rings[0].availableToRead == 2048)
  }

  @Test("The shutdown callback sets the flag when the server goes away")
  func serverShutdownSetsTheFlag() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let capture = try JackCapture(clientName: "bmcap", serverName: server.name, portNames: ["ch1_L"])
    defer { capture.close() }
    #expect(!capture.serverShutDown)
    server.kill()
    #expect(Wait.until(seconds: 10) { capture.serverShutDown })
    #expect(throws: JackClientError.notRunning) { try capture.sourcePorts(matching: "") }
  }

  @Test("Connecting fails clearly: unknown own port, unknown source, and after close")
  func connectErrors() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let capture = try JackCapture(clientName: "bmcap", serverName: server.name, portNames: ["ch1_L"])
    #expect(throws: JackClientError.unknownPort("ch9")) {
      try capture.connect(source: "system:capture_1", to: "ch9")
    }
    #expect {
      try capture.connect(source: "nosuchclient:out", to: "ch1_L")
    } throws: { error in
      guard case .connectionFailed(let source, let destination, _) = error as? JackClientError else { return false }
      return source == "nosuchclient:out" && destination == "bmcap:ch1_L"
        && "\(error)".contains("sourcePorts(matching:)")
    }
    capture.close()
    capture.close()  // a second close does nothing
    #expect(throws: JackClientError.notRunning) { try capture.connect(source: "system:capture_1", to: "ch1_L") }
    #expect(throws: JackClientError.notRunning) { try capture.sourcePorts(matching: "") }
  }
}
