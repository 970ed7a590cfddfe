/// The usage and `--help` texts, generated from the declarations in `CommandTable`.
enum CommandHelp {
  /// Lines are wrapped to this many columns: an 80-column terminal shows most of each, a wide one all of it.
  static let width = 118

  /// The top-level usage: every command's synopsis.
  static var usage: String {
    var lines = ["\(CommandTable.program): \(CommandTable.summary).", ""]
    let synopses = CommandTable.commands.flatMap(synopsis)
    for (i, text) in synopses.enumerated() {
      lines += indented(text, first: i == 0 ? "usage: " : "       ")
    }
    lines += [""]
    lines += wrap(
      "`\(CommandTable.program) help COMMAND` (or COMMAND --help) describes a command and its options; "
        + "--version prints the version.", indent: "")
    return lines.joined(separator: "\n")
  }

  /// `broadcast-monitor catalog add --catalog FILE [...] [PATH...]`, one per subcommand of a command that has them
  /// (a command whose subcommands are kinds has one, with KIND).
  static func synopsis(_ spec: CommandSpec) -> [String] {
    if !spec.subcommands.isEmpty && !spec.subcommandsAreKinds { return spec.subcommands.flatMap(synopsis) }
    var words = [CommandTable.program] + spec.path
    if spec.subcommandsAreKinds { words.append(spec.arguments) }
    for option in shownOptions(spec) {
      let form = option.form + (option.isRepeatable ? "..." : "")
      words.append(option.isRequired ? form : "[\(form)]")
    }
    if !spec.arguments.isEmpty && !spec.subcommandsAreKinds { words.append(spec.arguments) }
    return [words.joined(separator: " ")]
  }

  /// `--help` of a command or subcommand.
  static func help(_ spec: CommandSpec) -> String {
    var lines: [String] = []
    for (i, text) in synopsis(spec).enumerated() {
      lines += indented(text, first: i == 0 ? "usage: " : "       ")
    }
    lines += [""] + wrap("\(spec.fullName): \(spec.summary).", indent: "")
    if !spec.subcommands.isEmpty {
      lines += ["", spec.subcommandsAreKinds ? "KIND:" : "commands:"]
      lines += table(spec.subcommands.map { ($0.name, $0.summary) })
    }
    if !shownOptions(spec).isEmpty {
      lines += ["", "options:"] + table(shownOptions(spec).map { ($0.form, $0.help) })
    }
    if spec.subcommandsAreKinds {
      for kind in spec.subcommands where !kind.options.isEmpty {
        lines += ["", "\(kind.name) options:"] + table(kind.options.map { ($0.form, $0.help) })
      }
    }
    if !spec.details.isEmpty {
      lines += [""] + spec.details.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
    if !spec.subcommands.isEmpty {
      let word = spec.subcommandsAreKinds ? "KIND" : "COMMAND"
      lines += ["", "`\(CommandTable.program) help \(spec.fullName) \(word)` describes one."]
    }
    return lines.joined(separator: "\n")
  }

  /// A command's options, and for a kind (`report airplay`) the command's before the kind's own.
  static func shownOptions(_ spec: CommandSpec) -> [OptionSpec] {
    guard spec.path.count == 2, let parent = CommandTable.command([spec.path[0]]), parent.subcommandsAreKinds else {
      return spec.options
    }
    return parent.options + spec.options
  }

  /// "unknown command 'scna'; did you mean 'scan'?", with a pointer to the list.
  static func unknownCommand(_ word: String) -> String {
    var text = "unknown command '\(word)'"
    if let near = NearestName.nearest(to: word, in: CommandTable.commands.map(\.name)) {
      text += "; did you mean '\(near)'?"
    }
    return text + "\n`\(CommandTable.program) help` lists the commands"
  }

  /// "unknown catalog command `ad`; did you mean `add`?", with a pointer to the command's help.
  static func unknownSubcommand(_ word: String, of spec: CommandSpec) -> String {
    var text = "unknown \(spec.fullName) command `\(word)`"
    if let near = NearestName.nearest(to: word, in: spec.subcommands.map(\.name)) {
      text += "; did you mean `\(near)`?"
    }
    let names = spec.subcommands.map(\.name).joined(separator: ", ")
    return text + "\n\(spec.fullName) takes \(names); `\(CommandTable.program) help \(spec.fullName)` describes them"
  }

  /// Two columns: the names, then their text wrapped beside them.
  static func table(_ rows: [(String, String)]) -> [String] {
    let column = min(rows.map(\.0.count).max() ?? 0, 28) + 4
    var lines: [String] = []
    for (name, text) in rows {
      let head = "  " + name
      let indent = String(repeating: " ", count: column)
      var body = wrap(text, indent: indent)
      if head.count + 2 <= column {
        body[0] = head.padding(toLength: column, withPad: " ", startingAt: 0) + body[0].dropFirst(column)
        lines += body
      } else {
        lines += [head] + body
      }
    }
    return lines
  }

  /// The words of `text` that stay on one line: a bracketed option with its value, `--name VALUE`.
  static func units(_ text: String) -> [String] {
    var units: [String] = []
    var open = 0
    var joinNext = false
    for word in text.split(separator: " ").map(String.init) {
      if let last = units.last, open > 0 || joinNext {
        units[units.count - 1] = last + " " + word
        joinNext = false
      } else {
        units.append(word)
        joinNext = word.hasPrefix("--")
      }
      open += word.filter { $0 == "[" }.count - word.filter { $0 == "]" }.count
      if open > 0 { joinNext = false }
    }
    return units
  }

  /// `text` wrapped at word boundaries to `width`, each line starting with `indent`.
  static func wrap(_ text: String, indent: String) -> [String] {
    indented(text, first: indent, rest: indent)
  }

  /// A synopsis wrapped with its continuation lines aligned after the command's words.
  static func indented(_ text: String, first: String, rest: String? = nil, width: Int = width) -> [String] {
    let words = units(text)
    let hanging =
      rest
      ?? String(
        repeating: " ",
        count: first.count + words.prefix { !$0.hasPrefix("-") && !$0.hasPrefix("[") }.joined(separator: " ").count
          + 1)
    var lines: [String] = []
    var line = first
    var lineHasWord = false
    for word in words {
      if lineHasWord && line.count + 1 + word.count > width {
        lines.append(line)
        line = hanging + word
      } else {
        line += (lineHasWord ? " " : "") + word
      }
      lineHasWord = true
    }
    lines.append(line)
    return lines
  }
}
