import Foundation

/// A command line that asks for help rather than work: `help [COMMAND [SUBCOMMAND]]`, `COMMAND … --help` (or
/// `-h`), `--version`, `help --man` and `help --completion SHELL`. Its `text` goes to standard output, exit 0.
struct HelpRequest {
  var text: String

  /// The request `words` (the words after the program's name) make, or nil when they ask for work.
  init?(_ words: [String]) throws(UsageError) {
    guard let first = words.first else { return nil }
    switch first {
    case "--version", "-V", "version":
      text = BuildVersion.description
    case "--help", "-h":
      text = CommandHelp.usage
    case "help":
      let a = try CommandLineArguments(words.dropFirst(), for: CommandTable.help)
      if a.has("man") {
        text = ManPage.text
      } else if let shell = a.value("completion") {
        guard let script = ShellCompletion.script(for: shell) else {
          throw UsageError("--completion \(shell): give \(ShellCompletion.shells.joined(separator: " or "))")
        }
        text = script
      } else if let name = a.positionals.first {
        text = CommandHelp.help(try Self.command(name, a.positionals.dropFirst().first))
      } else {
        text = CommandHelp.usage
      }
    default:
      // `COMMAND … --help`: for the subcommand when one is named (anywhere, for kinds), before any `--`.
      let options = words.dropFirst().prefix { $0 != "--" }
      guard options.contains("--help") || options.contains("-h") else { return nil }
      guard let command = CommandTable.command([first]) else { throw UsageError(CommandHelp.unknownCommand(first)) }
      let named =
        command.subcommandsAreKinds
        ? options.first { command.subcommand($0) != nil } : options.first.flatMap { command.subcommand($0)?.name }
      text = CommandHelp.help(try Self.command(first, named))
    }
  }

  /// The declaration of `name` (and `sub`), or an error naming the word that is not one.
  static func command(_ name: String, _ sub: String?) throws(UsageError) -> CommandSpec {
    guard let command = CommandTable.command([name]) else { throw UsageError(CommandHelp.unknownCommand(name)) }
    guard let sub else { return command }
    guard let subSpec = command.subcommand(sub) else {
      throw UsageError(CommandHelp.unknownSubcommand(sub, of: command))
    }
    return subSpec
  }
}
