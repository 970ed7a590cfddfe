import Common
import Foundation

/// Runs a program to its end and keeps what it printed (through files, so a chatty program cannot block on a full
/// pipe).
public enum Subprocess {
  public struct Result: Sendable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public var description: String { "exit status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
  }

  /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`, without standard input.
  public static func run(_ executable: String, _ arguments: [String], in folder: URL? = nil) throws -> Result {
    let directory = try TemporaryDirectory(prefix: "subprocess")
    let outURL = directory.file("stdout")
    let errURL = directory.file("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    if executable.contains("/") {
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [executable] + arguments
    }
    if let folder { process.currentDirectoryURL = folder }
    process.environment = FFmpegProcess.inheritedEnvironment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try? out.close()
    try? err.close()
    return Result(
      status: process.terminationStatus,
      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
  }

  /// Whether `name` is a program on PATH.
  public static func isInstalled(_ name: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
  }
}
