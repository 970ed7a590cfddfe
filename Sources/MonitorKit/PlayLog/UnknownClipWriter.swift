import Common
import Foundation
import Reports
import Synchronization

/// Keeps each unknown segment's air audio as an Opus clip (ffmpeg, `libopus`, mono, `bitrateKbps`), in one folder,
/// named `CHANNEL_YYYY-MM-DDTHH-MM-SS.mmmZ.opus` so that the names sort by channel, then time (and the clips of
/// catalog plays, `unknown.catalogPlayClips`, as `CHANNEL_YYYY-MM-DDTHH-MM-SS.mmmZ_KIND.opus`); after each clip the
/// retention deletes the oldest clips (by modification time) older than `retentionDays` or beyond
/// `retentionGigabytes`.
///
/// The encoding runs on the writer's own serial queue, never on a channel's worker. A clip that cannot be written (a
/// full disk, a folder that cannot be written, no ffmpeg) is logged in one line, once until a clip is written again,
/// and its segment is logged without a clip.
///
/// Threads: `write` from any thread; `done` runs on the writer's queue; `waitUntilIdle()` from any thread but that
/// queue.
final class UnknownClipWriter: Sendable {
  /// The folder and retention in force: the configuration's `unknown` section, replaced by a reload
  /// (`update(settings:)`); a clip asked for goes by the settings in force when it is written.
  private let current: Mutex<UnknownClipSettings>
  /// The rate of the audio written (the matcher's).
  let sampleRateHz: Int
  private let log: MonitorLog
  private let queue = DispatchQueue(label: "broadcast-monitor.unknown-clips")
  private let group = DispatchGroup()
  /// The reason of the last failure logged; nil after a clip was written.
  private let lastFailure = Mutex<String?>(nil)

  /// Opus at 32 kb/s is transparent enough for a person to recognise a song at the matcher's 8 kHz rate
  /// (speech-grade bandwidth): about 14 MB per hour of unknown music.
  static let bitrateKbps = 32
  /// How long one clip's encoding may take before ffmpeg is stopped (a 10 min clip takes under a second).
  static let encodeTimeoutSeconds = 60.0
  /// An unfinished clip's hidden files (`.NAME.s16le`, `.NAME.partial`) older than this were left by a stop in the
  /// middle of an encoding (kill -9, a crash, a power cut), and the retention deletes them: no encoding runs longer
  /// (`encodeTimeoutSeconds`), so the files of another process writing clips into the same folder are younger.
  static let unfinishedAgeSeconds = 2 * encodeTimeoutSeconds

  /// How much of the latest audio each channel keeps for its clips: a segment of up to 9 min (longer ones keep
  /// their end) plus the 45–55 s the air watch waits before it closes a stretch (`ClassifierTuning.holdSeconds`,
  /// and a short bridge); a catalog play of up to about 9.5 min (it ends some seconds after its last match).
  /// 9.6 MB per channel at 8 kHz, 16 bits.
  static let ringSeconds = 600.0

  /// Clips go to `directory` (whatever `settings.clipsDirectory` says), kept as `settings` says.
  init(directory: String, settings: UnknownClipSettings, sampleRateHz: Int, log: MonitorLog) {
    var settings = settings
    settings.clipsDirectory = directory
    current = Mutex(settings)
    self.sampleRateHz = sampleRateHz
    self.log = log
  }

  /// The settings in force. Any thread.
  var settings: UnknownClipSettings { current.withLock { $0 } }

  /// Applies the `unknown` section of a reloaded configuration to the clips written from now on: their folder and
  /// retention; without `clipsDirectory`, no clip is written (the segments are logged without one). Any thread.
  func update(settings: UnknownClipSettings) {
    current.withLock { $0 = settings }
  }

  /// What a clip holds, for the line that says it was not kept.
  enum Subject: Sendable {
    case unknownSegment
    case catalogPlay

    /// The prefix of the log's lines about it.
    var logPrefix: String { self == .unknownSegment ? "unknown music" : "catalog play" }
    /// What is logged without the clip.
    var record: String { self == .unknownSegment ? "segment" : "play" }
  }

  /// Writes `audio` (mono, at `sampleRateHz`) as the clip `name` (`fileName(channel:start:kind:)`) of `channel`'s
  /// air, off the caller's thread; `done` then gets the clip's path, or nil when none was written.
  func write(
    _ audio: [Float], name: String, channel: String, of subject: Subject,
    then done: @escaping @Sendable (String?) -> Void
  ) {
    group.enter()
    queue.async { [self] in
      defer { group.leave() }
      let settings = self.settings
      guard let directory = settings.clipsDirectory else {
        done(nil)
        return
      }
      do {
        let path = try encode(audio, name: name, in: directory)
        lastFailure.withLock { $0 = nil }
        applyRetention(now: Date(), settings: settings)
        done(path)
      } catch {
        let reason = "\(error)"
        let isNew = lastFailure.withLock { last in
          defer { last = reason }
          return last != reason
        }
        if isNew {
          log.line(
            "\(subject.logPrefix): clip \(name) not kept: \(reason); the \(subject.record) is logged without a clip (free "
              + "space or let broadcast-monitor write in \(directory); unknown.clipsDirectory)", channel: channel,
            severity: .error)
        }
        done(nil)
      }
    }
  }

  /// Runs `body` on the writer's queue once every clip asked for before is written or given up (and its `done` has
  /// run): what must reach the play log after those clips' segments.
  func afterPending(_ body: @escaping @Sendable () -> Void) {
    group.enter()
    queue.async { [group] in
      defer { group.leave() }
      body()
    }
  }

  /// Waits until every clip asked for is written or given up.
  func waitUntilIdle() { group.wait() }

  /// `fm1_2026-12-01T14-05-00.000Z.opus`: the channel, then the UTC start (colons would trouble other systems);
  /// a catalog play's clip ends with its item's kind (`fm1_2026-12-01T14-05-00.000Z_ad.opus`).
  static func fileName(channel: String, start: Date, kind: ItemKind? = nil) -> String {
    "\(channel)_\(ISO8601Millis.format(start).replacingOccurrences(of: ":", with: "-"))"
      + (kind.map { "_\($0.rawValue)" } ?? "") + ".opus"
  }

  struct ClipError: Error, CustomStringConvertible {
    var description: String
  }

  /// The raw audio goes to a hidden file, ffmpeg encodes it to a hidden `.partial` file, which is then renamed:
  /// a clip in the folder is always whole.
  private func encode(_ audio: [Float], name: String, in directory: String) throws -> String {
    if !FileManager.default.fileExists(atPath: directory) {
      do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      } catch {
        throw ClipError(description: "cannot create \(directory) (\(error.localizedDescription))")
      }
    }
    let path = (directory as NSString).appendingPathComponent(name)
    let raw = (directory as NSString).appendingPathComponent(".\(name).s16le")
    let partial = (directory as NSString).appendingPathComponent(".\(name).partial")
    defer {
      unlink(raw)
      unlink(partial)
    }
    var pcm = [Int16](repeating: 0, count: audio.count)
    for (i, sample) in audio.enumerated() { pcm[i] = Int16((max(-1, min(1, sample)) * 32767).rounded()) }
    try Self.writeAll(pcm.withUnsafeBytes { Data($0) }, to: raw)
    guard let ffmpeg = FFmpegProcess.executable(named: "ffmpeg") else {
      throw ClipError(description: "ffmpeg is not installed (apt-get install ffmpeg)")
    }
    let process: FFmpegProcess
    do {
      process = try FFmpegProcess(
        executable: ffmpeg,
        arguments: [
          "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "s16le", "-ar", "\(sampleRateHz)", "-ac", "1",
          "-i", raw, "-c:a", "libopus", "-b:a", "\(Self.bitrateKbps)k", "-ac", "1", "-f", "opus", partial,
        ])
    } catch {
      throw ClipError(description: "cannot start ffmpeg (\(error))")
    }
    process.closeOutput()
    let deadline = Date().addingTimeInterval(Self.encodeTimeoutSeconds)
    var ended: FFmpegProcess.Termination?
    while ended == nil && Date() < deadline {
      process.drainErrors()
      ended = process.waitForExit(seconds: 0.05)
    }
    let termination = ended ?? process.terminate()
    process.drainErrors()
    guard termination == .exited(status: 0) else {
      throw ClipError(description: "\(termination): \(process.lastMessage ?? "no message")")
    }
    guard rename(partial, path) == 0 else {
      throw ClipError(description: "cannot rename into \(path) (\(String(cString: strerror(errno))))")
    }
    return path
  }

  private static func writeAll(_ data: Data, to path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: data) else {
      // createFile hides errno; try again by hand for the reason.
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      let reason = fd < 0 ? String(cString: strerror(errno)) : "the disk may be full"
      if fd >= 0 { close(fd) }
      throw ClipError(description: "cannot write in \(path) (\(reason))")
    }
  }

  /// Deletes the clips (`*.opus` in the folder) older than `retentionDays`, then the oldest until the rest take at
  /// most `retentionGigabytes` (the settings in force unless given), and the hidden files of clips never finished
  /// (``unfinishedAgeSeconds``). Returns the names deleted: the unfinished files, then the clips oldest first.
  @discardableResult
  func applyRetention(now: Date, settings: UnknownClipSettings? = nil) -> [String] {
    let settings = settings ?? self.settings
    guard let directory = settings.clipsDirectory else { return [] }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    var clips: [(name: String, modified: Date, bytes: Int64)] = []
    var deleted: [String] = []
    for name in names {
      let path = (directory as NSString).appendingPathComponent(name)
      let isClip = name.hasSuffix(".opus") && !name.hasPrefix(".")
      let isUnfinished = name.hasPrefix(".") && (name.hasSuffix(".s16le") || name.hasSuffix(".partial"))
      guard isClip || isUnfinished, let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
        continue
      }
      if isUnfinished {
        let modified = attributes[.modificationDate] as? Date ?? .distantFuture
        if modified < now.addingTimeInterval(-Self.unfinishedAgeSeconds) && unlink(path) == 0 { deleted.append(name) }
        continue
      }
      clips.append(
        (
          name, attributes[.modificationDate] as? Date ?? .distantPast,
          (attributes[.size] as? NSNumber)?.int64Value ?? 0
        ))
    }
    clips.sort { ($0.modified, $0.name) < ($1.modified, $1.name) }
    let oldest = now.addingTimeInterval(-settings.retentionDays * 86400)
    let limit = Int64(settings.retentionGigabytes * 1e9)
    var total = clips.reduce(Int64(0)) { $0 + $1.bytes }
    for clip in clips where clip.modified < oldest || total > limit {
      if unlink((directory as NSString).appendingPathComponent(clip.name)) == 0 {
        total -= clip.bytes
        deleted.append(clip.name)
      }
    }
    return deleted
  }
}
