import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("StreamProbe")
struct StreamProbeTests {
  @Test("http asks for the path and query, with the user's credentials; other schemes connect only; udp is not probed")
  func fromURL() throws {
    let http = try #require(StreamProbe(url: "http://dj:s3cret@radio.example.org:8000/live.mp3?type=.mp3"))
    #expect(http.host == "radio.example.org" && http.port == 8000)
    #expect(http.httpPath == "/live.mp3?type=.mp3")
    #expect(http.authorization == "Basic " + Data("dj:s3cret".utf8).base64EncodedString())
    let bare = try #require(StreamProbe(url: "http://radio.example.org"))
    #expect(bare.port == 80 && bare.httpPath == "/" && bare.authorization == nil)
    let https = try #require(StreamProbe(url: "https://[::1]/live"))
    #expect(https.host == "::1" && https.port == 443 && https.httpPath == nil)
    #expect(StreamProbe(url: "rtmp://live.example.org/app/stream")?.port == 1935)
    #expect(StreamProbe(url: "rtsp://cam.example.org/stream")?.port == 554)
    #expect(StreamProbe(url: "tcp://127.0.0.1/") == nil, "tcp:// has no default port")
    #expect(StreamProbe(url: "udp://239.0.0.1:1234") == nil)
    #expect(StreamProbe(url: "srt://127.0.0.1:9000") == nil)
  }

  @Test("Status lines: 2xx and 3xx (and SHOUTcast's ICY 200) are up; 404, 401, garbage are not")
  func statusLines() {
    let live = ["HTTP/1.0 200 OK\r\n", "HTTP/1.1 302 Found\r\n", "ICY 200 OK\r\n", "HTTP/1.1 204 No Content"]
    for line in live { #expect(StreamProbe.isLive(statusLine: Array(line.utf8)), "\(line)") }
    let dead = ["HTTP/1.0 404 File Not Found\r\n", "HTTP/1.1 401 Unauthorized\r\n", "SSH-2.0-OpenSSH\r\n", ""]
    for line in dead { #expect(!StreamProbe.isLive(statusLine: Array(line.utf8)), "\(line)") }
  }

  @Test("A closed port is down at once; a server that never answers is down after the timeout; stop wakes it")
  func downAndStopped() throws {
    let wake = try WakeSignal()
    let closed = try #require(StreamProbe(url: "http://127.0.0.1:\(try LocalTCP.freePort())/live.ogg"))
    let started = Date()
    #expect(closed.check(try #require(closed.resolve()), timeoutSeconds: 5, wake: wake) == .down)
    #expect(Date().timeIntervalSince(started) < 1)

    let hanging = try ListeningSocket()
    let silent = try #require(StreamProbe(url: "http://127.0.0.1:\(hanging.port)/live.ogg"))
    let address = try #require(silent.resolve())
    let waited = Date()
    #expect(silent.check(address, timeoutSeconds: 0.5, wake: wake) == .down)
    #expect((0.4...3).contains(Date().timeIntervalSince(waited)))
    // A bare TCP probe (https) proves only that the server accepts connections: the hanging one does.
    let tls = try #require(StreamProbe(url: "https://127.0.0.1:\(hanging.port)/live"))
    #expect(tls.check(try #require(tls.resolve()), timeoutSeconds: 0.5, wake: wake) == .up)

    wake.signal()
    let stopping = Date()
    #expect(silent.check(address, timeoutSeconds: 30, wake: wake) == .stopped)
    #expect(Date().timeIntervalSince(stopping) < 1)
    withExtendedLifetime(hanging) {}
  }
}

@Suite(
  "StreamProbe against a local Icecast server", .serialized,
  .enabled(if: IcecastTestServer.isAvailable, "\(IcecastTestServer.skipMessage)"))
struct StreamProbeIcecastTests {
  @Test("A mount with its source is up; without it (the server still up) it is down; back again, up")
  func mountUpAndDown() throws {
    let server = try IcecastTestServer()
    let wake = try WakeSignal()
    let probe = try #require(StreamProbe(url: server.url))
    let address = try #require(probe.resolve())
    #expect(probe.check(address, timeoutSeconds: 2, wake: wake) == .up)
    let other = try #require(StreamProbe(url: "http://127.0.0.1:\(server.port)/other.ogg"))
    #expect(other.check(address, timeoutSeconds: 2, wake: wake) == .down, "a mount that does not exist")
    server.dropSource()
    #expect(probe.check(address, timeoutSeconds: 2, wake: wake) == .down, "\(server.log)")
    try server.startSource()
    #expect(probe.check(address, timeoutSeconds: 2, wake: wake) == .up, "\(server.log)")
  }
}
