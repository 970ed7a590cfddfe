import Foundation
import JackTestSupport
import Synchronization
import TestSupport
import Testing

@testable import MonitorKit

@Suite("JackSession", .enabled(if: JackTestServer.jackdPath != nil, "\(JackTestServer.skipMessage)"))
struct JackSessionTests {
  @Test("A second stop() returns at once (it waited forever for a supervisor that had already finished)")
  func stopTwice() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let source = JackSource(stereo: false)
    let session = JackSession(
      settings: JackSettings(clientName: "bm-stop-twice", serverName: server.name),
      channels: [.init(name: "fm", source: source, ports: source.portNames(channel: "fm"))],
      log: MonitorLog(write: { _ in }))
    session.start()
    session.stop()
    // On a thread of its own, so that a stop() that hangs fails the test instead of blocking the run.
    let returned = Atomic<Bool>(false)
    Thread { [session] in
      session.stop()
      returned.store(true, ordering: .releasing)
    }.start()
    #expect(Wait.until(seconds: 10) { returned.load(ordering: .acquiring) }, "the second stop() did not return")
  }
}
