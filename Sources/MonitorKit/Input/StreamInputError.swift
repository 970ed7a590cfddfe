/// Why a `StreamInput` cannot be made or started: the problems that no reconnection fixes. A stream that is down is
/// not one of them (the input reports `.reconnecting` and keeps trying). Each description names the problem and the
/// fix.
enum StreamInputError: Error, Equatable, CustomStringConvertible {
  /// The stream's address is not a URL ffmpeg could open.
  case invalidURL(String, reason: String)
  /// A sample rate, ring size or timeout that cannot work.
  case invalidSetting(String)
  /// The file of a `file:` source does not exist or cannot be read.
  case fileUnreadable(path: String, reason: String)
  /// ffmpeg is not installed, or not where it was said to be.
  case ffmpegMissing(String)
  /// The system refused a resource (a pipe, a thread).
  case systemResources(String)

  /// Whether only a person can fix it (ffmpeg installed, the source corrected): a restart would only repeat it.
  var needsConfigurationFix: Bool {
    if case .systemResources = self { return false }
    return true
  }

  var description: String {
    switch self {
    case .invalidURL(let url, let reason):
      return "stream \"\(url)\": \(reason). Give a URL such as http://radio.example:8000/live.mp3, "
        + "or file:PATH for a file."
    case .invalidSetting(let what):
      return what
    case .fileUnreadable(let path, let reason):
      return "file:\(path): \(reason). Check the path in the channel's source (an absolute path is safest)."
    case .ffmpegMissing(let what):
      return "ffmpeg not found (\(what)). Install it with `apt-get install ffmpeg` (scripts/setup.sh does this)."
    case .systemResources(let what):
      return "\(what). The system is out of resources; raise the limit (ulimit -n) or run fewer channels."
    }
  }
}
