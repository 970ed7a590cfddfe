/// The string form of a source, as `run --channel NAME=SOURCE` and the JSON `source` key take it.
extension ChannelSource {
  /// The forms `init(parsing:)` accepts, for error messages and usage texts.
  static let acceptedForms = """
    jack (stereo ports NAME_L and NAME_R, not connected), jack-mono (one port NAME), \
    jack:SRC_L,SRC_R or jack-mono:SRC (connected from those JACK ports, e.g. jack:system:capture_1,system:capture_2), \
    jack~REGEX or jack-mono~REGEX (connected from the JACK ports that match the POSIX extended regular expression, \
    sorted by name), a stream URL (http://, https:// or any scheme:// that ffmpeg reads), \
    file:PATH (played once) or file+loop:PATH (played over and over)
    """

  /// Reads the string form:
  /// - `jack`: stereo, not connected; `jack-mono`: mono, not connected;
  /// - `jack:SRC_L,SRC_R`, `jack-mono:SRC`: connected from those exact source ports. Port names contain `:`
  ///   themselves, so only the first `jack:` is a separator and the rest is split on `,`;
  /// - `jack~REGEX`, `jack-mono~REGEX`: connected from the ports the regular expression matches (`connectPattern`);
  /// - `scheme://…`: a stream;
  /// - `file:PATH`, `file+loop:PATH`: a file, played once or looped.
  ///
  /// Throws a `UsageError` that says what is wrong and lists the accepted forms.
  init(parsing text: String) throws(UsageError) {
    let jackForms: [(prefix: String, stereo: Bool)] = [("jack-mono", false), ("jack", true)]
    for form in jackForms where text.hasPrefix(form.prefix) {
      let rest = text.dropFirst(form.prefix.count)
      var source = JackSource(stereo: form.stereo)
      if rest.isEmpty {
        self = .jack(source)
        return
      } else if rest.hasPrefix(":") {
        source.connect = rest.dropFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      } else if rest.hasPrefix("~") {
        source.connectPattern = String(rest.dropFirst())
      } else {
        continue
      }
      if let problem = source.problem() {
        throw UsageError("`\(text)`: \(problem.reason)")
      }
      self = .jack(source)
      return
    }
    for (prefix, loop) in [("file+loop:", true), ("file:", false)] where text.hasPrefix(prefix) {
      let path = String(text.dropFirst(prefix.count))
      guard !path.isEmpty else { throw UsageError("`\(text)`: name the file after `\(prefix)`") }
      self = .file(path: path, loop: loop)
      return
    }
    switch StreamSource.urlProblem(text) {
    case nil:
      self = .stream(url: text)
      return
    case let problem? where StreamSource.scheme(of: text) != nil:
      throw UsageError("`\(text)`: \(problem)")  // a text in URL form: the URL's own problem says what to fix
    default:
      break
    }
    throw UsageError("`\(text)` is not a channel source; give one of: \(Self.acceptedForms)")
  }
}
