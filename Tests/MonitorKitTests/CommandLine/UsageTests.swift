import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("Command-line arguments")
struct CommandLineArgumentsTests {
  @Test("Options with values, --name=value, flags and positionals are told apart")
  func parsing() throws {
    let a = try CommandLineArguments(
      ["--catalog", "c.bmcat", "clip.wav", "--all", "--channel=fm 1", "-", "more"],
      valueOptions: ["catalog", "channel"],
      flagOptions: ["all"])
    #expect(a.value("catalog") == "c.bmcat")
    #expect(a.value("channel") == "fm 1")
    #expect(a.has("all"))
    #expect(!a.has("other"))
    #expect(a.positionals == ["clip.wav", "-", "more"])
  }

  @Test("A repeated option keeps every value; value() is the last")
  func repeated() throws {
    let a = try CommandLineArguments(["--db", "a", "--db", "b"], valueOptions: ["db"])
    #expect(a.options["db"] == ["a", "b"])
    #expect(a.value("db") == "b")
  }

  @Test("After --, everything is positional")
  func doubleDash() throws {
    let a = try CommandLineArguments(["--", "--catalog", "x"], valueOptions: ["catalog"])
    #expect(a.positionals == ["--catalog", "x"])
    #expect(a.value("catalog") == nil)
  }

  @Test("An unknown option is an error naming it and the options the command takes")
  func unknownOption() {
    let error = #expect(throws: UsageError.self) {
      try CommandLineArguments(["--catalgo", "x"], valueOptions: ["catalog", "db"], flagOptions: ["all"])
    }
    #expect(
      error?.description
        == "unknown option --catalgo; did you mean --catalog? (this command takes --all, --catalog, --db)"
    )
  }

  @Test("An option without its value, and a missing required option, are errors naming the option")
  func missingValues() throws {
    let error = #expect(throws: UsageError.self) { try CommandLineArguments(["--catalog"], valueOptions: ["catalog"]) }
    #expect(error?.description == "--catalog needs a value")
    let a = try CommandLineArguments([], valueOptions: ["catalog"])
    let required = #expect(throws: UsageError.self) { try a.required("catalog") }
    #expect(required?.description == "--catalog is required")
  }
}

@Suite("broadcast-monitor usage errors", .enabled(if: CLI.isBuilt, CLI.notBuilt))
struct UsageErrorTests {
  @Test(
    "Usage errors exit 64 with a message naming the option or command",
    arguments: [
      (["catalog", "list", "--catalog", "x.bmcat", "--bogus"], "unknown option --bogus"),
      (["match", "clip.wav"], "--catalog is required"),
      (["match", "--catalog"], "--catalog needs a value"),
      (["match", "--catalog", "x.bmcat", "--catalog-file", "y", "clip.wav"], "unknown option --catalog-file"),
      (["scan", "--channel", "fm", "recording.wav"], "--catalog is required"),
      (["scan", "--catalog", "x.bmcat", "recording.wav"], "--channel is required"),
      (["catalog", "info"], "--catalog is required"),
      (["catalog", "frobnicate"], "unknown catalog command `frobnicate`"),
      (["catalog", "remove", "--catalog", "x.bmcat"], "name the tracks"),
      (["signature", "clip.wav"], "--out is required"),
      (["transmogrify"], "unknown command 'transmogrify'"),
      ([], "usage: broadcast-monitor"),
      (["schedule", "export"], "unknown schedule command `export`"),
      (["schedule", "import", "--db", "plays.sqlite"], "name one traffic log file"),
      (
        ["report", "reconcile", "--db", "plays.sqlite", "--tolerance", "-5"],
        "--tolerance -5: give seconds from 0 to 3600"
      ),
      (["report", "quota", "--db", "plays.sqlite", "--tolerance", "5"], "--tolerance is for the reconcile report"),
      (["report", "soundexchange", "--db", "plays.sqlite", "--out", "a", "--out-dir", "b"], "--out and --out-dir"),
    ])
  func usageError(arguments: [String], message: String) throws {
    let folder = try TemporaryDirectory(prefix: "cli-usage")
    // The files exist, so that only the usage is wrong.
    for name in ["clip.wav", "recording.wav"] {
      try WAVWriter.write(Signals.silence(seconds: 0.5), sampleRate: 8000, to: folder.file(name))
    }
    let result = try CLI.run(arguments, in: folder.url)
    #expect(result.status == 64, "\(arguments): \(result)")
    #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test("catalog add --help and schedule import --help print their help, not an unknown option")
  func subcommandHelp() throws {
    for words in [["catalog", "add", "--help"], ["schedule", "import", "--help"], ["catalog", "remove", "-h"]] {
      let result = try CLI.run(words)
      #expect(result.status == 0, "\(words): \(result)")
      #expect(result.stdout.hasPrefix("usage: broadcast-monitor \(words[0]) \(words[1])"), "\(result.stdout)")
    }
  }

  @Test("help prints the usage on stdout and exits 0")
  func help() throws {
    for word in ["help", "--help", "-h"] {
      let result = try CLI.run([word])
      #expect(result.status == 0)
      #expect(result.stdout.contains("broadcast-monitor catalog add"))
      #expect(result.stdout.contains("broadcast-monitor scan"))
    }
  }

  @Test("A catalog that does not exist exits 78 (configuration) naming the file")
  func missingCatalog() throws {
    let folder = try TemporaryDirectory(prefix: "cli-usage")
    let result = try CLI.run(["catalog", "list", "--catalog", folder.file("nope.bmcat").path])
    #expect(result.status == 78)
    #expect(result.stderr.contains(folder.file("nope.bmcat").path))
  }
}
