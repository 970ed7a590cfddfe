import Foundation
import JackTestSupport
import Testing

@testable import MonitorKit

@Suite("JackChannelInput", .enabled(if: JackTestServer.jackdPath != nil, "\(JackTestServer.skipMessage)"))
struct JackChannelInputTests {
  @Test("The backlog is what the port rings hold: it grows at real-time pace while nothing reads, reading empties it")
  func backlog() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let source = JackSource(stereo: true)
    let log = MonitorLog(write: { _ in })
    let session = JackSession(
      settings: JackSettings(clientName: "bm-backlog", serverName: server.name, ringSeconds: 10),
      channels: [.init(name: "fm", source: source, ports: source.portNames(channel: "fm"))], log: log)
    session.start()
    defer { session.stop() }
    let input = JackChannelInput(channel: "fm", ports: source.portNames(channel: "fm"), session: session)
    #expect(input.backlogSeconds == 0, "no client followed yet")

    // The first reads follow the session's client and empty its rings (the dummy driver captures silence).
    let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 8192)
    defer { buffer.deallocate() }
    while input.read(into: buffer) != nil {}
    #expect(input.status == .running)
    let emptied = Date()
    #expect(input.backlogSeconds < 0.1)

    var backlog = 0.0
    let deadline = Date().addingTimeInterval(20)
    while backlog < 2 && Date() < deadline {  // nothing is read meanwhile
      try await Task.sleep(for: .milliseconds(20))
      backlog = input.backlogSeconds
    }
    let elapsed = Date().timeIntervalSince(emptied)
    #expect(backlog >= 2, "\(backlog) s waiting after \(elapsed) s")
    // The rings take a period (1024 frames, 21 ms) at a time: the backlog may be a period ahead of the time.
    #expect(backlog <= elapsed + 0.05, "\(backlog) s waiting after \(elapsed) s")

    var frames = 0
    while let chunk = input.read(into: buffer) { frames += chunk.frames }
    #expect(Double(frames) / Double(server.sampleRate) >= backlog)
    #expect(input.backlogSeconds < 0.1)
  }
}
