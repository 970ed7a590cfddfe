/// The notices about a network stream's outages: a `.gap` when it fails, a `.reconnect` when audio flows again.
///
/// An outage lasts from the first failure until audio flows again, through any number of failed attempts. Its
/// first failure is reported at once. A later failure of the same outage is reported only when it fails for another
/// reason, or when `repeatAfterSeconds` have passed since the last report, so that a stream that stays down adds a
/// few lines an hour to the log, not one per attempt. Such a later report is a log line only
/// (`InputNotice.recorded` false): one outage is one gap in the play log and the counts.
///
/// Threads: the reader thread only.
extension StreamReader {
  /// A failure is reported again, even for the same reason, after this many seconds.
  static let repeatAfterSeconds = 600.0

  struct Outage {
    /// Wall-clock time at which the audio stopped (the end of the last audio, or the input's start).
    var since: Double
    /// Failed attempts so far.
    var attempts: Int
    /// The reason last reported, and when (monotonic seconds).
    var reportedReason: String
    var reportedAt: Double
  }

  /// What went wrong with one ffmpeg run of a network stream, for a person.
  func failureReason(_ end: RunEnd, hadAudio: Bool) -> String {
    var url = ""
    if case .network(let address) = configuration.source { url = address }
    // ffmpeg's words, without the URL it starts them with, and with the URL's password hidden wherever else it
    // quotes the URL.
    func words(_ message: String?) -> String? {
      guard let message, !url.isEmpty else { return message }
      return message.replacingOccurrences(of: url + ": ", with: "")
        .replacingOccurrences(of: url, with: StreamSource.redactingPassword(url))
    }
    switch end {
    case .stopped:
      return "stopped"
    case .notStarted(let reason):
      return reason
    case .stalled(let message):
      // ffmpeg's words for bytes it cannot decode (AVERROR_INVALIDDATA): the server sends, but not audio.
      let undecodable = message?.contains("Invalid data found") == true
      return "no audio for \(Self.seconds(configuration.stallTimeoutSeconds)), ffmpeg stopped"
        + (words(message).map { " (its last message: \($0))" } ?? "")
        + (undecodable
          ? ". The server sends data that ffmpeg cannot decode as audio: check that the URL is the stream itself, "
            + "not a web page or a playlist, and its format"
          : ". The server or the network stopped sending")
    case .exited(let termination, let message):
      let said = words(message)
      if hadAudio {
        return "the stream ended: " + (said ?? "the server closed the connection (\(termination))")
      }
      return "cannot open the stream: \(said ?? termination.description). Check the URL and that the server is up"
    }
  }

  /// Reports a failed attempt (see the type's comment for when a repeat is reported).
  /// `probed`: the wait is watched by a probe and may end sooner.
  func reportFailure(_ reason: String, retryingIn delay: Double, probed: Bool) {
    let now = Self.monotonicSeconds()
    let retry = "retrying in \(Self.seconds(delay))" + (probed ? ", sooner if the source is back" : "")
    let name = configuration.source.description
    var notice: InputNotice?
    if var current = outage {
      current.attempts += 1
      if reason != current.reportedReason || now - current.reportedAt >= Self.repeatAfterSeconds {
        notice = InputNotice(
          kind: .gap, startTime: current.since, endTime: nil,
          detail: "\(name): still no audio after \(current.attempts) attempts: \(reason); \(retry)", recorded: false)
        current.reportedReason = reason
        current.reportedAt = now
      }
      outage = current
    } else {
      let since = lastAudioEnd ?? configuration.startTime
      outage = Outage(since: since, attempts: 1, reportedReason: reason, reportedAt: now)
      notice = InputNotice(kind: .gap, startTime: since, endTime: nil, detail: "\(name): \(reason); \(retry)")
    }
    if let notice { shared.withLock { $0.post(notice) } }
  }

  /// The `.reconnect` notice that closes `outage`, for a connection whose new audio starts at `audioAgain`.
  func reconnectNotice(for outage: Outage, audioAgain: Double) -> InputNotice {
    let attempts = outage.attempts == 1 ? "" : " (\(outage.attempts) failed attempts)"
    return InputNotice(
      kind: .reconnect, startTime: audioAgain, endTime: audioAgain,
      detail: "\(configuration.source.description): audio again after a gap of "
        + "\(String(format: "%.1f", max(0, audioAgain - outage.since))) s\(attempts)")
  }
}
