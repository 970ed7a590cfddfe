import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("Usage and help texts")
struct CommandHelpTests {
  /// Every command and subcommand, with the name of its golden file.
  static let specs: [(file: String, spec: CommandSpec)] = CommandTable.commands.flatMap { command in
    [(command.name, command)] + command.subcommands.map { ("\(command.name)-\($0.name)", $0) }
  }

  @Test("The usage text matches its golden file")
  func usageGolden() throws {
    let mismatch = try Golden.mismatch(CommandHelp.usage + "\n", file: "usage/usage.txt")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  @Test("Every command's and subcommand's help matches its golden file")
  func helpGolden() throws {
    for (file, spec) in Self.specs {
      let mismatch = try Golden.mismatch(CommandHelp.help(spec) + "\n", file: "usage/\(file).txt")
      #expect(mismatch == nil, "\(mismatch ?? "")")
    }
  }

  @Test("Every option of every command is in its help, and every command in the usage")
  func everythingDocumented() {
    for (_, spec) in Self.specs {
      let help = CommandHelp.help(spec)
      for option in spec.parsedOptions { #expect(help.contains(option.form), "\(spec.fullName): --\(option.name)") }
    }
    for command in CommandTable.commands {
      #expect(CommandHelp.usage.contains("broadcast-monitor \(command.name)"), "\(command.name)")
    }
  }

  @Test("Help lines fit the width, and a synopsis never breaks inside brackets")
  func wrapping() {
    for line in CommandHelp.usage.split(separator: "\n") { #expect(line.count <= CommandHelp.width, "\(line)") }
    for (_, spec) in Self.specs {
      for line in CommandHelp.help(spec).split(separator: "\n") {
        #expect(line.count <= CommandHelp.width, "\(spec.fullName): \(line)")
        #expect(!line.hasSuffix("[--tz"), "\(line)")
      }
    }
    let lines = CommandHelp.indented(
      "broadcast-monitor run [--tz ZONE] --connect A,B FILE", first: "usage: ", width: 30)
    #expect(
      lines == [
        "usage: broadcast-monitor run", "                             [--tz ZONE]",
        "                             --connect A,B", "                             FILE",
      ])
  }
}

@Suite("Help, --version and typos on the command line", .enabled(if: CLI.isBuilt, CLI.notBuilt))
struct HelpRequestTests {
  @Test("COMMAND --help, COMMAND SUB --help and help COMMAND [SUB] print the generated help and exit 0")
  func helpForEveryCommand() throws {
    for (_, spec) in CommandHelpTests.specs where spec.name != "help" {
      let expected = CommandHelp.help(spec) + "\n"
      for words in [spec.path + ["--help"], ["help"] + spec.path, spec.path + ["-h"]] {
        let result = try CLI.run(words)
        #expect(result.status == 0, "\(words): \(result)")
        #expect(result.stdout == expected, "\(words): \(result.stdout)")
      }
    }
  }

  @Test("report's kind is found anywhere before --help")
  func reportKindHelp() throws {
    let result = try CLI.run(["report", "--db", "x.sqlite", "reconcile", "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("usage: broadcast-monitor report reconcile"))
  }

  @Test("--version prints the commit and exits 0")
  func version() throws {
    let result = try CLI.run(["--version"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasPrefix("broadcast-monitor commit ") || result.stdout.contains("commit unknown"))
    #expect(!result.stdout.contains("usage:"))
  }

  @Test(
    "A mistyped command, subcommand or option names the typo and the nearest name, exit 64",
    arguments: [
      (["scna", "x.wav"], "unknown command 'scna'; did you mean 'scan'?"),
      (["catalgo", "list"], "unknown command 'catalgo'; did you mean 'catalog'?"),
      (["catalog", "lst", "--catalog", "x.bmcat"], "unknown catalog command `lst`; did you mean `list`?"),
      (["match", "--catlog", "x", "clip.wav"], "unknown option --catlog; did you mean --catalog?"),
      (["help", "reprot"], "unknown command 'reprot'; did you mean 'report'?"),
      (["transmogrify"], "unknown command 'transmogrify'\n"),
    ])
  func typo(words: [String], message: String) throws {
    let result = try CLI.run(words)
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!result.stderr.contains("usage: broadcast-monitor catalog add"), "the whole usage is not repeated")
  }
}
