import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("Shell completion")
struct ShellCompletionTests {
  static let committed = [
    "bash": "share/bash-completion/completions/broadcast-monitor",
    "zsh": "share/zsh/site-functions/_broadcast-monitor",
  ]

  @Test("The committed completion scripts are the generated ones", arguments: ShellCompletion.shells)
  func committedIsCurrent(shell: String) throws {
    let script = try #require(ShellCompletion.script(for: shell))
    let url = Fixtures.packageRoot.appendingPathComponent(try #require(Self.committed[shell]))
    let mismatch = try Golden.mismatch(script, at: url)
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  /// What bash completes for `words`, the last one being completed.
  static func complete(_ words: [String]) throws -> [String] {
    let folder = try TemporaryDirectory(prefix: "completion")
    let file = folder.file("broadcast-monitor.bash")
    try Data(ShellCompletion.bash.utf8).write(to: file)
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let result = try Subprocess.run(
      "bash",
      [
        "-c",
        "source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _broadcast_monitor; "
          + "printf '%s\\n' \"${COMPREPLY[@]}\"",
      ], in: folder.url)
    #expect(result.status == 0, "\(result)")
    return CLI.lines(result.stdout)
  }

  @Test("bash completes commands, subcommands, report kinds and each command's options")
  func bash() throws {
    #expect(try Self.complete(["broadcast-monitor", "sc"]) == ["scan", "schedule"])
    #expect(try Self.complete(["broadcast-monitor", "catalog", "u"]) == ["upgrade"])
    #expect(try Self.complete(["broadcast-monitor", "catalog", "add", "--m"]) == ["--metadata"])
    #expect(try Self.complete(["broadcast-monitor", "report", "rec"]) == ["reconcile"])
    #expect(try Self.complete(["broadcast-monitor", "report", "reconcile", "--to"]) == ["--to", "--tolerance"])
    #expect(try Self.complete(["broadcast-monitor", "run", "--js"]) == ["--json"])
  }

  @Test("The zsh script is valid zsh", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
  func zsh() throws {
    let folder = try TemporaryDirectory(prefix: "completion")
    let file = folder.file("_broadcast-monitor")
    try Data(ShellCompletion.zsh.utf8).write(to: file)
    let result = try Subprocess.run("zsh", ["-n", file.path])
    #expect(result.status == 0, "\(result)")
  }
}
