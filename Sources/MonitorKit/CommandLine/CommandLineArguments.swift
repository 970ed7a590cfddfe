/// A small command-line parser: `--name value` options (repeatable), `--flag` switches and positional arguments,
/// checked against what a command declares so that a typo is an error naming the option.
struct CommandLineArguments {
  private(set) var options: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []
  /// The options the command declares, when it was parsed from its declaration: reading another one is a
  /// programming error (an option parsed but not declared), caught by the assertion in `value` and `has`.
  private var declared: Set<String>?

  /// Parses a command's words with the options its declaration (`CommandTable`) gives it.
  init(_ arguments: ArraySlice<String>, for spec: CommandSpec) throws(UsageError) {
    let options = spec.parsedOptions
    try self.init(
      arguments, valueOptions: Set(options.filter { $0.valueName != nil }.map(\.name)),
      flagOptions: Set(options.filter { $0.valueName == nil }.map(\.name)))
    declared = Set(options.map(\.name))
  }

  /// - Parameters:
  ///   - arguments: the words after the command name.
  ///   - valueOptions: options that take a value (without `--`).
  ///   - flagOptions: options that take none.
  init(_ arguments: ArraySlice<String>, valueOptions: Set<String>, flagOptions: Set<String> = []) throws(UsageError) {
    var i = arguments.startIndex
    var onlyPositionals = false
    while i < arguments.endIndex {
      let word = arguments[i]
      i += 1
      if onlyPositionals || !word.hasPrefix("--") || word == "-" {
        positionals.append(word)
        continue
      }
      if word == "--" {
        onlyPositionals = true
        continue
      }
      var name = String(word.dropFirst(2))
      var inlineValue: String?
      if let eq = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      if flagOptions.contains(name) {
        flags.insert(name)
      } else if valueOptions.contains(name) {
        if let v = inlineValue {
          options[name, default: []].append(v)
        } else {
          guard i < arguments.endIndex else { throw UsageError("--\(name) needs a value") }
          options[name, default: []].append(arguments[i])
          i += 1
        }
      } else {
        let names = valueOptions.union(flagOptions).sorted()
        let known = names.map { "--\($0)" }.joined(separator: ", ")
        let near = NearestName.nearest(to: name, in: names).map { "; did you mean --\($0)?" } ?? ""
        throw UsageError(
          "unknown option --\(name)\(near)" + (known.isEmpty ? "" : " (this command takes \(known))"))
      }
    }
  }

  func value(_ name: String) -> String? {
    assert(declared?.contains(name) ?? true, "--\(name) is read but not declared in CommandTable")
    return options[name]?.last
  }

  /// Every value of a repeatable option, in order.
  func values(_ name: String) -> [String] {
    assert(declared?.contains(name) ?? true, "--\(name) is read but not declared in CommandTable")
    return options[name] ?? []
  }

  func required(_ name: String) throws(UsageError) -> String {
    guard let v = value(name) else { throw UsageError("--\(name) is required") }
    return v
  }

  func has(_ flag: String) -> Bool {
    assert(declared?.contains(flag) ?? true, "--\(flag) is read but not declared in CommandTable")
    return flags.contains(flag)
  }
}

/// A command line that cannot be run as given; the message says what to change.
struct UsageError: Error, CustomStringConvertible {
  var description: String
  init(_ message: String) { description = message }
}
