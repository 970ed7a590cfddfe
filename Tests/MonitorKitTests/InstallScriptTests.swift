import Foundation
import TestSupport
import Testing

/// `scripts/install.sh` into a temporary root (`--destdir`), with the built binary (`--binary`), and the unit it
/// installs measured with `systemd-analyze security` when the machine has it.
@Suite("scripts/install.sh", .enabled(if: CLI.isBuilt, CLI.notBuilt))
struct InstallScriptTests {
  let root: TemporaryDirectory
  var script: String { Fixtures.packageRoot.appendingPathComponent("scripts/install.sh").path }
  var unit: URL { root.file("etc/systemd/system/broadcast-monitor.service") }

  init() throws {
    root = try TemporaryDirectory(prefix: "install")
  }

  func install(_ options: [String]) throws -> Subprocess.Result {
    let binary = try #require(CLI.executable, CLI.notBuilt)
    return try Subprocess.run(
      "/bin/bash", [script, "--destdir", root.url.path, "--binary", binary.path] + options)
  }

  /// Every file and folder under the root, as paths from it.
  func tree() throws -> [String] {
    let base = root.url.resolvingSymlinksInPath().path
    let paths = FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? []
    return paths.sorted()
  }

  @Test("--dry-run names every step and changes nothing")
  func dryRun() throws {
    let result = try install(["--dry-run", "--prefix", "/opt/bm"])
    #expect(result.status == 0, "\(result)")
    for step in [
      "/opt/bm/bin/broadcast-monitor", "/opt/bm/share/man/man1/broadcast-monitor.1",
      "/opt/bm/share/bash-completion/completions/broadcast-monitor",
      "/opt/bm/share/zsh/site-functions/_broadcast-monitor",
      "/etc/systemd/system/broadcast-monitor.service", "/etc/broadcast-monitor/monitor.json5",
      "/var/lib/broadcast-monitor", "useradd --system", "(dry run: nothing was changed)",
    ] {
      #expect(result.stdout.contains(step), "\(step) in \(result.stdout)")
    }
    let left = try tree()
    #expect(left.isEmpty, "\(left)")
  }

  @Test("installs binary, man page, completions, unit, configuration and state folder; again, it keeps the config")
  func installsIntoARoot() throws {
    let first = try install(["--prefix", "/usr/local"])
    #expect(first.status == 0, "\(first)")
    let files = [
      "usr/local/bin/broadcast-monitor", "usr/local/share/man/man1/broadcast-monitor.1",
      "usr/local/share/bash-completion/completions/broadcast-monitor",
      "usr/local/share/zsh/site-functions/_broadcast-monitor", "etc/systemd/system/broadcast-monitor.service",
      "etc/broadcast-monitor/monitor.json5",
    ]
    for file in files { #expect(FileManager.default.fileExists(atPath: root.file(file).path), "\(file)") }
    #expect(FileManager.default.isExecutableFile(atPath: root.file("usr/local/bin/broadcast-monitor").path))
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: root.file("var/lib/broadcast-monitor").path, isDirectory: &isFolder))
    #expect(isFolder.boolValue)
    for (installed, source) in [
      ("usr/local/share/man/man1/broadcast-monitor.1", "share/man/man1/broadcast-monitor.1"),
      ("etc/broadcast-monitor/monitor.json5", "config/monitor.example.json5"),
    ] {
      #expect(
        try Data(contentsOf: root.file(installed))
          == Data(contentsOf: Fixtures.packageRoot.appendingPathComponent(source)), "\(installed)")
    }
    let version = try Subprocess.run(root.file("usr/local/bin/broadcast-monitor").path, ["--version"])
    #expect(version.status == 0, "the installed binary runs: \(version)")

    // Again, elsewhere, with an edited configuration: the unit follows the prefix, the configuration stays.
    let edited = "// edited by the station\n"
    try edited.write(to: root.file("etc/broadcast-monitor/monitor.json5"), atomically: true, encoding: .utf8)
    let second = try install(["--prefix", "/opt/bm"])
    #expect(second.status == 0, "\(second)")
    #expect(second.stdout.contains("monitor.json5 exists: kept as it is"))
    #expect(try String(contentsOf: root.file("etc/broadcast-monitor/monitor.json5"), encoding: .utf8) == edited)
    let unitText = try String(contentsOf: unit, encoding: .utf8)
    #expect(unitText.contains("\nExecStart=/opt/bm/bin/broadcast-monitor run --config /etc/broadcast-monitor/"))
    #expect(FileManager.default.fileExists(atPath: root.file("opt/bm/bin/broadcast-monitor").path))
  }

  @Test("a relative --prefix and an unknown option are refused with exit status 64")
  func badOptions() throws {
    let relative = try install(["--prefix", "usr"])
    #expect(relative.status == 64 && relative.stderr.contains("not an absolute path"), "\(relative)")
    let unknown = try install(["--frobnicate"])
    #expect(unknown.status == 64 && unknown.stderr.contains("unknown option --frobnicate"), "\(unknown)")
  }

  /// The most `systemd-analyze security` may rate the installed unit's exposure (the unit was 8.9 before it was
  /// hardened; the README has the figures).
  static let maxExposure = 4.0

  @Test(
    "the installed unit's exposure is at most 4.0 by systemd-analyze security",
    .enabled(if: Subprocess.isInstalled("systemd-analyze"), "needs systemd-analyze (the systemd package)"))
  func unitExposure() throws {
    #expect(try install([]).status == 0)
    let result = try Subprocess.run("/usr/bin/env", ["systemd-analyze", "security", "--offline=true", unit.path])
    let line = try #require(
      result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(result)")
    let figure = try #require(
      line.split(separator: " ").compactMap { Double($0) }.first, "a figure in \(line)")
    #expect(figure <= Self.maxExposure, "\(line)")
  }
}
