import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("Command declarations")
struct CommandTableTests {
  /// The source files that read each command's options.
  static let readers: [String: [String]] = [
    "catalog": ["CatalogCommand.swift", "CatalogCommand+FromUnknown.swift"],
    "match": ["MatchCommand.swift"],
    "scan": ["ScanCommand.swift"],
    "signature": ["SignatureCommand.swift"],
    "run": ["RunCommand.swift", "MonitorConfiguration+CommandLine.swift", "ChannelSource+CommandLine.swift"],
    "feed": ["FeedCommand.swift"],
    "report": ["ReportCommand.swift", "ReportCommand+SoundExchange.swift"],
    "schedule": ["ScheduleCommand.swift"],
    "db": ["DatabaseCommand.swift"],
    "help": ["HelpRequest.swift"],
  ]

  /// The source file of the monitor library with this name, in whichever folder of `Sources/MonitorKit` holds it.
  static func sourceFile(named name: String) throws -> URL {
    let root = Fixtures.packageRoot.appendingPathComponent("Sources/MonitorKit")
    let files =
      FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
      .compactMap { $0 as? URL }.filter { $0.lastPathComponent == name } ?? []
    guard files.count == 1 else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name]) }
    return files[0]
  }

  /// The option names the sources read: `value("db")`, `values("channel")`, `has("log")`, `required("out")`, and
  /// report's `bound(a, "from")`, which reads the option it is given.
  static func optionsRead(in files: [String]) throws -> Set<String> {
    let pattern = try NSRegularExpression(
      pattern: #"\b(?:value|values|has|required|bound)\((?:a, )?"([a-z][a-z-]*)"\)"#)
    var names: Set<String> = []
    for file in files {
      let text = try String(contentsOf: try sourceFile(named: file), encoding: .utf8)
      for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        names.insert(String(text[Range(match.range(at: 1), in: text)!]))
      }
    }
    return names
  }

  @Test("Every option a command reads is declared, and every declared option is read")
  func declaredIsParsed() throws {
    #expect(Set(Self.readers.keys) == Set(CommandTable.commands.map(\.name)), "a command without its sources")
    for command in CommandTable.commands {
      let declared = Set(
        (command.parsedOptions + (command.subcommandsAreKinds ? [] : command.subcommands.flatMap(\.options)))
          .map(\.name))
      let read = try Self.optionsRead(in: Self.readers[command.name] ?? [])
      #expect(read.subtracting(declared).isEmpty, "\(command.name) reads undeclared \(read.subtracting(declared))")
      #expect(declared.subtracting(read).isEmpty, "\(command.name) never reads \(declared.subtracting(read))")
    }
  }

  @Test("Each option is declared once per command, with a name the parser can take")
  func unique() {
    for command in CommandTable.commands {
      for spec in [command] + command.subcommands {
        let names = CommandHelp.shownOptions(spec).map(\.name)
        #expect(Set(names).count == names.count, "\(spec.fullName) declares an option twice: \(names)")
        for name in names { #expect(name.allSatisfy { $0.isLowercase || $0 == "-" }, "\(name)") }
      }
    }
  }

  @Test("A parser built from a declaration takes its options and refuses others")
  func parserFromDeclaration() throws {
    let a = try CommandLineArguments(["--catalog", "c.bmcat", "--all", "clip.wav"], for: CommandTable.match)
    #expect(a.value("catalog") == "c.bmcat")
    #expect(a.has("all"))
    let error = #expect(throws: UsageError.self) {
      try CommandLineArguments(["--tolerance", "5"], for: CommandTable.match)
    }
    #expect(error?.description.hasPrefix("unknown option --tolerance") == true)
  }
}
