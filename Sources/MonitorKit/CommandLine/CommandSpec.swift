/// One command or subcommand of `broadcast-monitor`, declared once: its name, what it does, its options and
/// arguments. The usage text, `--help`, `help COMMAND`, the man page and the shell completions are all generated from
/// these declarations (`CommandTable`), and each command's parser takes its options from them, so what is
/// documented is what is parsed.
struct CommandSpec: Sendable {
  /// The words that name it after `broadcast-monitor`: `["catalog", "add"]`.
  var path: [String]
  /// One line: what it does, for lists of commands.
  var summary: String
  var options: [OptionSpec]
  /// Its arguments as the usage shows them, such as `CLIP` or `[PATH...]`; empty for none.
  var arguments: String
  /// Text printed after the options in `--help` and the man page (argument forms, examples); empty for none.
  var details: String
  var subcommands: [CommandSpec]
  /// Subcommands that are given as the first argument anywhere on the line (`report`'s kinds), not only right after
  /// the command; their options belong to the command's parser and are refused for the other kinds.
  var subcommandsAreKinds: Bool

  init(
    _ path: [String], _ summary: String, options: [OptionSpec] = [], arguments: String = "", details: String = "",
    subcommands: [CommandSpec] = [], subcommandsAreKinds: Bool = false
  ) {
    self.path = path
    self.summary = summary
    self.options = options
    self.arguments = arguments
    self.details = details
    self.subcommands = subcommands
    self.subcommandsAreKinds = subcommandsAreKinds
  }

  var name: String { path.last ?? "" }

  /// `catalog add` for errors and headings.
  var fullName: String { path.joined(separator: " ") }

  /// The options its parser accepts: its own, and its kinds' for a command whose subcommands are kinds.
  var parsedOptions: [OptionSpec] {
    subcommandsAreKinds ? options + subcommands.flatMap(\.options) : options
  }

  /// The subcommand named `name`, if any.
  func subcommand(_ name: String) -> CommandSpec? { subcommands.first { $0.name == name } }
}

/// One `--name [VALUE]` option of a command.
struct OptionSpec: Sendable {
  /// Without the leading `--`.
  var name: String
  /// What the value is called in the usage (`FILE`, `N`); nil for a switch that takes none.
  var valueName: String?
  /// What it does, with its default; may span lines.
  var help: String
  /// Whether the command needs it (shown without brackets).
  var isRequired: Bool
  /// Whether it may be given more than once (shown with `...`).
  var isRepeatable: Bool

  /// An option that takes a value.
  static func value(
    _ name: String, _ valueName: String, _ help: String, required: Bool = false, repeatable: Bool = false
  ) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help, isRequired: required, isRepeatable: repeatable)
  }

  /// A switch.
  static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help, isRequired: false, isRepeatable: false)
  }

  /// `--name VALUE`, or `--name` for a switch.
  var form: String { "--\(name)" + (valueName.map { " \($0)" } ?? "") }
}
