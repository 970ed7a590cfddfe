import Glibc

/// A POSIX extended regular expression, compiled with `regcomp`: the syntax that JACK's own port lookup
/// (`jack_get_ports`) uses. A match is a search, not anchored: write `^system:capture_[12]$` to anchor.
///
/// Threads: one thread at a time; create it, use it and drop it where the pattern is needed.
final class POSIXRegex {
  /// A pattern that `regcomp` refuses, with its message (`Unmatched ( or \(`).
  struct SyntaxError: Error, Equatable {
    var message: String
  }

  /// The compiled pattern; `deinit` frees it.
  private let compiled: UnsafeMutablePointer<regex_t>

  init(_ pattern: String) throws(SyntaxError) {
    let regex = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
    let status = regcomp(regex, pattern, REG_EXTENDED | REG_NOSUB)
    guard status == 0 else {
      var message = [CChar](repeating: 0, count: 256)
      regerror(status, regex, &message, message.count)
      regex.deallocate()
      let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      throw SyntaxError(message: String(decoding: bytes, as: UTF8.self))
    }
    compiled = regex
  }

  deinit {
    regfree(compiled)
    compiled.deallocate()
  }

  /// Whether the pattern matches anywhere in `text`.
  func matches(_ text: String) -> Bool {
    regexec(compiled, text, 0, nil, 0) == 0
  }
}
