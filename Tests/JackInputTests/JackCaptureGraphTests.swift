import Foundation
import JackInput
import JackTestSupport
import Testing

/// `JackCapture`'s view of the graph (`graphChanges`, `connections(of:)`, `portExists(_:)`) and of time
/// (`firstFrameTime`, `jackTime(ofFrame:)`, `wallClockSeconds(ofFrame:)`), against a private `jackd -d dummy`.
@Suite(.serialized, .enabled(if: JackTestServer.jackdPath != nil, "\(JackTestServer.skipMessage)"))
struct JackCaptureGraphTests {
  /// Polls `condition` every 10 ms for up to `seconds`; returns whether it became true.
  private func eventually(within seconds: Double = 10, _ condition: () -> Bool) async throws -> Bool {
    let until = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
      guard ContinuousClock.now < until else { return false }
      try await Task.sleep(for: .milliseconds(10))
    }
    return true
  }

  @Test("graphChanges counts a port that appears, a connection and a port that goes; connections(of:) lists sources")
  func graphChangesAndConnections() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let capture = try JackCapture(clientName: "bmcap", serverName: server.name, portNames: ["ch1_L", "ch1_R"])
    defer { capture.close() }
    #expect(try capture.connections(of: "ch1_L") == [])
    #expect(!capture.portExists("bmtone:out"))

    let beforeTone = capture.graphChanges
    let tone = try TestToneClient(name: "bmtone", serverName: server.name)
    defer { tone.close() }
    #expect(try await eventually { capture.graphChanges > beforeTone }, "no graph change seen for a new port")
    #expect(capture.portExists("bmtone:out"))
    #expect(capture.portExists("bmcap:ch1_L"))
    #expect(capture.portExists("system:capture_1"))
    #expect(!capture.portExists("bmtone:nope"))

    let beforeConnect = capture.graphChanges
    try capture.connect(source: tone.portName, to: "ch1_L")
    try capture.connect(source: "system:capture_2", to: "ch1_L")
    #expect(try await eventually { capture.graphChanges >= beforeConnect + 2 }, "two connections, two changes")
    #expect(Set(try capture.connections(of: "ch1_L")) == ["bmtone:out", "system:capture_2"])
    #expect(try capture.connections(of: "bmcap:ch1_R") == [])
    #expect(throws: JackClientError.unknownPort("ch9")) { try capture.connections(of: "ch9") }

    let beforeClose = capture.graphChanges
    tone.close()
    #expect(try await eventually { !capture.portExists("bmtone:out") })
    #expect(capture.graphChanges > beforeClose)
    #expect(try capture.connections(of: "ch1_L") == ["system:capture_2"])

    capture.close()
    #expect(throws: JackClientError.notRunning) { try capture.connections(of: "ch1_L") }
    #expect(!capture.portExists("system:capture_1"))
  }

  @Test("Frame times: the rings start at firstFrameTime, and frames map to JACK and wall-clock time")
  func frameTimes() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let capture = try JackCapture(clientName: "bmcap", serverName: server.name, portNames: ["mono"], ringSeconds: 2)
    defer { capture.close() }
    #expect(try await eventually { capture.framesProcessed >= 4 * capture.bufferSize })
    let first = try #require(capture.firstFrameTime)

    // The latest cycle started at most a period (21 ms) before `lastFrameTime` was read, give or take the dummy
    // driver's scheduling; the read is bracketed, so that this thread's own delays do not count.
    let before = Date().timeIntervalSince1970
    let last = capture.lastFrameTime
    let after = Date().timeIntervalSince1970
    let wall = try #require(capture.wallClockSeconds(ofFrame: last))
    #expect(wall < after + 0.005 && before - wall < 0.2, "frame \(last) was \(before - wall) s before the read")
    let base = try #require(capture.jackTime(ofFrame: last))
    let later = try #require(capture.jackTime(ofFrame: last &+ 48_000))
    #expect(base.usecs <= base.nowUsecs)
    let second = Double(later.usecs) - Double(base.usecs)
    #expect(abs(second - 1_000_000) < 50_000, "48000 frames at 48 kHz took \(second) µs of JACK time")

    capture.close()
    #expect(capture.jackTime(ofFrame: last) == nil)
    #expect(capture.wallClockSeconds(ofFrame: last) == nil)
    #expect(capture.firstFrameTime == first, "the first frame stays recorded after close")
    let frames = capture.framesProcessed
    if capture.xruns == 0 {
      #expect(capture.lastFrameTime &- first == UInt32(frames - capture.bufferSize), "one frame per ring sample")
    }
    // A slow machine may take longer between the start and the close than the ring holds: the ring is then full
    // and the port counts the samples it could not take.
    let ring = capture.rings[0]
    #expect(ring.availableToRead == min(frames, ring.capacity))
    #expect(capture.overruns(ofPortAt: 0) == max(0, frames - ring.capacity))
  }
}
