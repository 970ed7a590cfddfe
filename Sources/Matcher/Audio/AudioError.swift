/// A problem with audio input: a file that cannot be decoded, a format that is not supported, a decoder missing.
/// The description names the file and says what to do.
public enum AudioError: Error, CustomStringConvertible, Equatable {
  /// ffmpeg (or the WAV reader) could not decode the file.
  case undecodable(path: String, reason: String)
  /// The file decodes but holds no audio samples.
  case noAudio(path: String)
  /// The file could not be read at all.
  case unreadable(path: String, reason: String)
  /// ffmpeg is not installed.
  case decoderMissing(String)
  /// A parameter the audio chain cannot work with.
  case unsupported(String)
  /// A WAV file that holds less audio than its header declares: cut short when it was copied or written.
  case truncated(path: String, declaredSeconds: Double, presentSeconds: Double, declaredBytes: Int, presentBytes: Int)

  public var description: String {
    switch self {
    case .undecodable(let path, let reason):
      return "\(path): not decodable audio (\(reason)). Check that the file is complete and is an audio file."
    case .noAudio(let path):
      return "\(path): contains no audio samples. Check that the file has an audio stream (ffprobe \(path))."
    case .unreadable(let path, let reason):
      return "\(path): cannot be read (\(reason))."
    case .decoderMissing(let what):
      return "\(what) not found. Install it with `apt-get install ffmpeg` (scripts/setup.sh does this)."
    case .unsupported(let what):
      return what
    case .truncated(let path, let declaredSeconds, let presentSeconds, let declaredBytes, let presentBytes):
      return "\(path): truncated WAV file: its header declares "
        + String(
          format: "%.1f s (%d bytes of samples), the file holds %.1f s (%d bytes)", declaredSeconds,
          declaredBytes, presentSeconds, presentBytes)
        + ". Copy or export it again; to use the part it holds, rewrite its header with "
        + "`ffmpeg -i \(path) -c copy FIXED.wav`."
    }
  }
}
