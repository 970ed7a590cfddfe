/// A small command-line parser: `--name value` options (repeatable), `--flag` switches and positional arguments,
/// checked against what a command declares so that a typo is an error naming the option.
struct CommandLineArguments {
  private(set) var options: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []

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
        let known = (valueOptions.union(flagOptions)).sorted().map { "--\($0)" }.joined(separator: ", ")
        throw UsageError("unknown option --\(name)" + (known.isEmpty ? "" : " (this command takes \(known))"))
      }
    }
  }

  func value(_ name: String) -> String? { options[name]?.last }

  func required(_ name: String) throws(UsageError) -> String {
    guard let v = value(name) else { throw UsageError("--\(name) is required") }
    return v
  }

  func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A command line that cannot be run as given; the message says what to change.
struct UsageError: Error, CustomStringConvertible {
  var description: String
  init(_ message: String) { description = message }
}
