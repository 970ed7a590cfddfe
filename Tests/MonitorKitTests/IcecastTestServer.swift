import Foundation
import TestSupport

/// A private Icecast server for one test, on a free port of 127.0.0.1, with its configuration and logs in a
/// temporary folder, fed by `ffmpeg -re -stream_loop -1` with `Tests/Fixtures/music/catalog-a.ogg` (Ogg Vorbis,
/// copied as is) on the mount `/test.ogg`. It can be killed and started again on the same port, or lose only its
/// source, to test reconnection. Both programs run under `timeout`, so they go away after three minutes even if the
/// test process dies first.
///
/// Running as root, Icecast refuses to start unless it may drop to an unprivileged user: the configuration then
/// names the `icecast2` user and `icecast` group that Debian's package creates.
/// Threads: use one instance from one test at a time.
final class IcecastTestServer {
  static let icecastPath = BackgroundProcess.path(of: "icecast2")
  static let ffmpegPath = BackgroundProcess.path(of: "ffmpeg")
  static let isAvailable = icecastPath != nil && ffmpegPath != nil
  static let skipMessage =
    "icecast2 or ffmpeg is not installed: `apt-get install icecast2 ffmpeg` to run the network stream tests"

  struct StartError: Error, CustomStringConvertible {
    let description: String
  }

  let port: UInt16
  let mount = "/test.ogg"
  var url: String { "http://127.0.0.1:\(port)\(mount)" }

  private let directory: TemporaryDirectory
  private let password = "source-\(UInt32.random(in: 0...UInt32.max))"
  private var server: BackgroundProcess?
  private var feeder: BackgroundProcess?

  /// Writes the configuration and starts the server and its source.
  init() throws {
    guard Self.isAvailable else { throw StartError(description: Self.skipMessage) }
    directory = try TemporaryDirectory(prefix: "icecast-test")
    port = try LocalTCP.freePort()
    let logs = directory.file("log")
    try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    var security = "<chroot>0</chroot>"
    if getuid() == 0 {
      guard getpwnam("icecast2") != nil, getgrnam("icecast") != nil else {
        throw StartError(
          description: "running as root, Icecast must drop to the icecast2 user, which does not exist: "
            + "reinstall Debian's icecast2 package, or run the tests as a normal user")
      }
      security += "<changeowner><user>icecast2</user><group>icecast</group></changeowner>"
      chmod(logs.path, 0o777)  // written by icecast2 after it drops root
    }
    let configuration = """
      <icecast>
        <location>test</location><admin>test@localhost</admin>
        <limits><clients>20</clients><sources>2</sources><source-timeout>10</source-timeout></limits>
        <authentication>
          <source-password>\(password)</source-password>
          <admin-user>admin</admin-user><admin-password>\(password)</admin-password>
        </authentication>
        <hostname>127.0.0.1</hostname>
        <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
        <fileserve>0</fileserve>
        <paths>
          <basedir>/usr/share/icecast2</basedir><logdir>\(logs.path)</logdir>
          <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot>
        </paths>
        <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
        <security>\(security)</security>
      </icecast>
      """
    try configuration.write(to: directory.file("icecast.xml"), atomically: true, encoding: .utf8)
    try start()
  }

  deinit { kill() }

  /// Starts the server and its source and returns once a listener gets the mount (HTTP 200).
  func start() throws {
    guard let icecast = Self.icecastPath else {
      throw StartError(description: Self.skipMessage)
    }
    kill()
    let server = try BackgroundProcess.underTimeout(
      seconds: 180, executable: icecast, arguments: ["-c", directory.file("icecast.xml").path],
      outputPath: directory.file("icecast.out").path)
    self.server = server
    try waitUntil("Icecast to accept connections on port \(port)", server) {
      LocalTCP.httpStatus(port: self.port, path: "/") != nil
    }
    try startSource()
  }

  /// Starts the source again after `dropSource()` and returns once a listener gets the mount (HTTP 200).
  func startSource() throws {
    guard let ffmpeg = Self.ffmpegPath else { throw StartError(description: Self.skipMessage) }
    feeder?.terminateAndWait()
    let feeder = try BackgroundProcess.underTimeout(
      seconds: 180, executable: ffmpeg,
      arguments: [
        "-nostdin", "-hide_banner", "-v", "error", "-re", "-stream_loop", "-1", "-i",
        Fixtures.music("catalog-a.ogg").path, "-c:a", "copy", "-f", "ogg", "-content_type", "application/ogg",
        "icecast://source:\(password)@127.0.0.1:\(port)\(mount)",
      ], outputPath: directory.file("feeder.out").path)
    self.feeder = feeder
    try waitUntil("the source to be live on \(mount)", feeder) {
      LocalTCP.httpStatus(port: self.port, path: self.mount) == 200
    }
  }

  /// Stops the source only, as a studio encoder that goes away: the server stays up, listeners lose their
  /// connection and the mount answers 404 until `startSource()`.
  func dropSource() {
    feeder?.terminateAndWait()
    feeder = nil
  }

  /// Stops the source and the server (as a crash would: listeners lose their connection).
  func kill() {
    feeder?.terminateAndWait()
    feeder = nil
    server?.terminateAndWait()
    server = nil
  }

  /// What the server and the source printed, for failure messages.
  var log: String {
    let files = ["icecast.out", "feeder.out", "log/error.log"]
    return files.map { name in
      "--- \(name)\n" + ((try? String(contentsOf: directory.file(name), encoding: .utf8)) ?? "(none)")
    }.joined(separator: "\n")
  }

  private func waitUntil(_ what: String, _ process: BackgroundProcess, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(15)
    while Date() < deadline {
      if condition() { return }
      guard process.isRunning else { throw StartError(description: "waiting for \(what): it exited\n\(log)") }
      Thread.sleep(forTimeInterval: 0.1)
    }
    throw StartError(description: "waited 15 s for \(what)\n\(log)")
  }
}
