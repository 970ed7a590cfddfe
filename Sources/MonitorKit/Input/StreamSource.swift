import Foundation

/// What a `StreamInput` plays: a network stream, reconnected whenever it fails, or a file at real-time pace, once or
/// looped, never reconnected. It knows the ffmpeg command line for itself.
///
/// Threads: a value; any thread.
enum StreamSource: Equatable, Sendable {
  /// A URL ffmpeg opens over the network: `http://`, `https://`, `rtmp://`, `rtsp://`, an HLS playlist … (not
  /// `icecast://`, ffmpeg's protocol for sending to a server).
  case network(url: String)
  /// A local file, played at real-time pace (`-re`); `loop` plays it again and again without a break.
  case file(path: String, loop: Bool)

  /// Checks a network URL (`StreamSource.urlProblem(_:)`).
  static func network(checking url: String) throws(StreamInputError) -> StreamSource {
    if let problem = urlProblem(url) { throw .invalidURL(url, reason: problem) }
    return .network(url: url)
  }

  /// Why `url` is not a network stream ffmpeg could open, or nil when it is one: it must be `scheme://rest`, with a
  /// scheme that starts with a letter and has letters, digits, `+`, `-`, `.` (what ffmpeg needs to pick a protocol:
  /// `scheme(of:)`), not `file` or `icecast`, and no white space. The one check of a stream URL: the command line,
  /// the configuration and `StreamInput` all use it.
  static func urlProblem(_ url: String) -> String? {
    guard let range = url.range(of: "://"), range.lowerBound > url.startIndex, url[range.upperBound...].count > 0
    else {
      return "not a URL: it has no scheme (it needs the form scheme://host/path)"
    }
    guard let scheme = scheme(of: url) else {
      return "\"\(url[..<range.lowerBound])\" is not a URL scheme"
    }
    guard scheme != "file" else {
      return "a file is not a network stream"
    }
    guard scheme != "icecast" else {
      return "icecast:// is ffmpeg's protocol for sending a stream to an Icecast server, not for listening; give the "
        + "stream's own http:// or https:// URL (http://HOST:8000/MOUNT)"
    }
    guard !url.contains(where: { $0.isWhitespace || $0.isNewline }) else {
      return "it contains white space (write a space as %20)"
    }
    return nil
  }

  /// The scheme of `url`, lowercased, when `url` has the form `scheme://rest` with a scheme that starts with a letter
  /// and has letters, digits, `+`, `-`, `.`; nil otherwise.
  static func scheme(of url: String) -> String? {
    guard let range = url.range(of: "://"), range.lowerBound > url.startIndex, !url[range.upperBound...].isEmpty
    else { return nil }
    let scheme = url[..<range.lowerBound]
    guard let first = scheme.first, first.isASCII, first.isLetter,
      scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    else { return nil }
    return scheme.lowercased()
  }

  /// True for files: they are never reconnected.
  var isFile: Bool {
    if case .file = self { return true }
    return false
  }

  /// For log lines: the URL with any password replaced by `***`, or `file:PATH`, with `(looped)` for a looped file.
  var description: String {
    switch self {
    case .network(let url):
      return Self.redactingPassword(url)
    case .file(let path, let loop):
      return "file:\(path)" + (loop ? " (looped)" : "")
    }
  }

  /// ffmpeg's arguments (without the program): decode to mono 32-bit float at `sampleRate`, resampled by soxr, on
  /// standard output. Network sources give up on their own after `networkTimeoutSeconds` without data (`-rw_timeout`,
  /// a second line of defence behind the reader's stall watchdog; RTSP, whose demuxer opens its own sockets and
  /// refuses `-rw_timeout`, takes its own `-timeout`).
  func ffmpegArguments(sampleRate: Int, networkTimeoutSeconds: Double) -> [String] {
    var arguments = ["-nostdin", "-hide_banner", "-v", "error", "-threads", "1"]
    let input: String
    switch self {
    case .network(let url):
      let microseconds = Int((networkTimeoutSeconds * 1_000_000).rounded())
      let scheme = Self.scheme(of: url)
      arguments += [scheme == "rtsp" || scheme == "rtsps" ? "-timeout" : "-rw_timeout", "\(microseconds)"]
      input = url
    case .file(let path, let loop):
      arguments.append("-re")
      if loop { arguments += ["-stream_loop", "-1"] }
      input = "file:" + path  // the file protocol, so that a ':' in the path is not read as a protocol
    }
    arguments += [
      "-i", input, "-vn", "-ac", "1", "-af", "aresample=\(sampleRate):resampler=soxr", "-f", "f32le", "-",
    ]
    return arguments
  }

  /// `scheme://user:secret@host/…` → `scheme://user:***@host/…`; other URLs unchanged.
  static func redactingPassword(_ url: String) -> String {
    guard let schemeEnd = url.range(of: "://") else { return url }
    let rest = url[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
    return String(url[..<schemeEnd.upperBound]) + authority[...colon] + "***" + url[at...]
  }
}
