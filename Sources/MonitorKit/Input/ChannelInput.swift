import Foundation
import Reports

/// Where one channel's audio comes from: JACK input ports, a network stream or a file. The channel's worker reads
/// mono audio from it with time stamps; everything that can go wrong with the source (a dead stream, a JACK server
/// that went away) stays inside the input, which reconnects on its own and reports each discontinuity as a new
/// `segment`.
///
/// Threads: `start()` and `stop()` from the control thread; `read(into:)` from the channel's one worker thread only
/// (inputs are single-consumer); `status` and `sourceDescription` from any thread.
protocol ChannelInput: AnyObject, Sendable {
  /// The source as a person reads it in a log line: `jack system:capture_1,system:capture_2`, a URL, a file path.
  var sourceDescription: String { get }

  /// What the input is doing now, for logs and the console.
  var status: InputStatus { get }

  /// Starts capturing or connecting. Errors that a retry can fix (a stream that is down, a JACK server not yet
  /// running) do not throw: the input reports `.reconnecting` and keeps trying. Throws only for what no retry fixes
  /// (a file that does not exist). Control thread.
  func start() throws

  /// Stops for good and releases threads, subprocesses and clients. Control thread. Afterwards a stream or file
  /// input's `read` returns nil at once; a JACK input's returns what its rings already hold, then nil (its capture
  /// stops with the JACK session, first, so that the workers read the last audio heard and end plays there).
  func stop()

  /// Copies up to `buffer.count` frames of mono audio that arrived since the last call into `buffer`, without
  /// blocking. Returns nil when nothing is waiting. All frames of one chunk belong to one segment. Worker thread.
  func read(into buffer: UnsafeMutableBufferPointer<Float>) -> InputChunk?

  /// Seconds of audio that have arrived and that `read(into:)` could return now but has not been asked for yet: how
  /// far the channel's worker is behind the source (see `LagTracker`). Audio the input holds back for a reason of
  /// its own (a network connection whose start time is not fixed yet) does not count. Any thread: a thread other
  /// than the worker watches it, so that a worker stuck in a slow chunk is seen to fall behind.
  var backlogSeconds: Double { get }

  /// Events the input wants logged and recorded (a gap, a reconnect, an overrun), oldest first; each is returned
  /// once. Worker thread.
  func takeNotices() -> [InputNotice]

  /// The rate the source delivers before resampling (JACK's rate for a JACK input), nil while unknown. Any thread.
  var sourceSampleRate: Double? { get }

  /// Xruns the audio server reported since the input started (0 for sources without a server). Any thread.
  var xruns: Int { get }
}

extension ChannelInput {
  var sourceSampleRate: Double? { nil }
  var xruns: Int { 0 }
}

/// A run of mono samples from a `ChannelInput`.
struct InputChunk: Equatable, Sendable {
  /// Frames written to the buffer (at least 1).
  var frames: Int
  /// Their sample rate in Hz.
  var sampleRate: Double
  /// Wall-clock time of the first frame, in seconds since 1970 (UTC). For JACK this comes from JACK's frame time,
  /// not from when the worker ran.
  var startTime: Double
  /// Increments at every discontinuity (a reconnect, a server restart; a stream also after dropped audio, while a
  /// JACK input keeps the segment and moves its time stamps past the drop). Within a segment each chunk follows the
  /// previous one; only a JACK overrun can leave a hole, and the chunk's `startTime` shows it.
  var segment: Int
}

/// What an input is doing.
enum InputStatus: String, Sendable, Equatable {
  /// Not started yet.
  case starting
  /// Audio is flowing.
  case running
  /// The source is down; the input is retrying.
  case reconnecting
  /// A file that was played once has ended, or `stop()` was called.
  case ended
}

/// Something an input reports for the log and the play log's events table.
struct InputNotice: Equatable, Sendable {
  /// `.gap` (the source went away: no audio from `startTime`, the end of the last audio heard), `.reconnect` (audio
  /// flows again from `startTime`), `.overrun` (samples were dropped because the worker fell behind) or `.xrun` (the
  /// audio server missed a deadline: a cycle of audio may be lost or late). The same kind names the play log's
  /// event row and the log line.
  var kind: EventKind
  /// Wall-clock time in seconds since 1970 that the notice is about.
  var startTime: Double
  /// The end of the span (for an overrun: the end of the dropped audio; for an instant, a reconnect or an xrun: its
  /// start); nil while it goes on (a gap: the play log's row gets its end at the reconnect).
  var endTime: Double?
  /// What happened, for a person: "stream http://… ended: Connection refused; retrying in 2 s".
  var detail: String
  /// False when the input's owner already logged it once for every channel it affects (a JACK xrun): the channel
  /// then records the event without a log line of its own.
  var logged = true
  /// False for a later report of a gap already recorded (the same outage, a new reason or a long wait): a log line
  /// only, neither another event in the play log nor another gap in the counts.
  var recorded = true
}
