import Foundation
import Matcher
import Reports

/// A channel's labelled stretches into the play log: an unknown segment is first placed in its cluster
/// (`UnknownClusters`, shared by every channel; cut in two where two clusters match one after the other) and its
/// audio handed to the clip writer, when clips are kept; then
/// each stretch goes to the play log writer (spooled like the plays when the play log cannot be written); an unknown
/// segment with audio goes once its clip is written (or given up), from the clip writer's queue, with the span of
/// air its clip holds. A clip that lacks its segment's start (the segment began before the oldest audio the channel
/// keeps) is logged as a warning, once per clip. The clips of catalog plays go the same way
/// (`AirStretchRecorder+PlayAudio.swift`).
///
/// Threads: `receive` from the channel's worker (the thread that feeds its matcher); the counts from the same thread.
final class AirStretchRecorder: AirStretchSink {
  let channel: String
  private let clusters: UnknownClusters
  let writer: PlayLogWriter?
  let clips: UnknownClipWriter?
  let log: MonitorLog?
  /// Stream seconds → wall-clock time.
  let time: (Double) -> Date
  /// Every stretch recorded, for `scan`'s summary (run keeps none).
  private(set) var recorded: [AirStretchRecord] = []
  private let keepsRecords: Bool

  init(
    channel: String, clusters: UnknownClusters, writer: PlayLogWriter?, clips: UnknownClipWriter? = nil,
    log: MonitorLog? = nil, keepsRecords: Bool = false, time: @escaping (Double) -> Date
  ) {
    self.clips = clips
    self.log = log
    self.channel = channel
    self.clusters = clusters
    self.writer = writer
    self.keepsRecords = keepsRecords
    self.time = time
  }

  func receive(_ stretch: AirStretch) {
    guard stretch.label == .unknownMusic, let signature = stretch.signature else {
      record(stretch, unknown: nil, audio: nil, audioStartSeconds: nil)
      return
    }
    // Two recordings aired back to back, each heard before, are two segments: one per cluster. An earlier segment
    // that this one shows to hold two recordings is cut in the play log too.
    let (parts, revisions) = clusters.assignParts(signature) { [channel, time] partStart in
      UnknownSegmentOrigin(channel: channel, start: time(stretch.startSeconds + partStart))
    }
    revise(revisions)
    let rate = Double(signature.parameters.sampleRateHz)
    for part in parts {
      var piece = stretch
      piece.startSeconds = stretch.startSeconds + part.startSeconds
      if part.endSeconds < signature.durationSeconds { piece.endSeconds = stretch.startSeconds + part.endSeconds }
      let assignment = part.assignment
      let fingerprint = (try? assignment.reference.encoded())?.base64EncodedString() ?? ""
      // The audio covers the stretch from `audioStartSeconds` (its start unless the ring no longer held it) to its
      // end: the part's share of it.
      var audioStartSeconds: Double?
      let audio = stretch.audio.flatMap { audio -> [Float]? in
        let audioStart = stretch.audioStartSeconds ?? stretch.endSeconds - Double(audio.count) / rate
        let from = max(0, Int(((piece.startSeconds - audioStart) * rate).rounded()))
        let to = min(audio.count, Int(((piece.endSeconds - audioStart) * rate).rounded()))
        guard to > from else { return nil }
        audioStartSeconds = max(piece.startSeconds, audioStart)
        return Array(audio[from..<to])
      }
      record(
        piece,
        unknown: AirStretchRecord.Unknown(
          cluster: assignment.cluster, clusterOffsetSeconds: assignment.offsetSeconds, fingerprint: fingerprint),
        audio: audio, audioStartSeconds: audioStartSeconds)
    }
  }

  /// Records a stretch; an unknown segment with `audio` (from stream time `audioStartSeconds` to its end) goes once
  /// its clip is written, with the span the clip holds.
  private func record(
    _ stretch: AirStretch, unknown: AirStretchRecord.Unknown?, audio: [Float]?, audioStartSeconds: Double?
  ) {
    var record = AirStretchRecord(
      channel: channel, start: time(stretch.startSeconds), end: time(stretch.endSeconds),
      label: stretch.label.rawValue, itemKey: stretch.item, musicConfidence: stretch.musicConfidence)
    record.unknown = unknown
    if keepsRecords { recorded.append(record) }
    if record.unknown != nil, let clips, let audio, let audioStartSeconds {
      let clipStart = time(audioStartSeconds)
      let name = UnknownClipWriter.fileName(channel: channel, start: record.start)
      if audioStartSeconds > stretch.startSeconds {
        warnShort(
          "unknown music: the clip \(name) holds the last "
            + Self.seconds(stretch.endSeconds - audioStartSeconds) + " of its "
            + Self.seconds(stretch.durationSeconds) + " segment (from \(ISO8601Millis.format(clipStart)))")
      }
      clips.write(audio, name: name, channel: channel, of: .unknownSegment) { [writer, record] path in
        var clipped = record
        clipped.unknown?.clipPath = path
        if path != nil {
          clipped.unknown?.clipStart = clipStart
          clipped.unknown?.clipEnd = record.end
        }
        writer?.submit(.stretch(clipped))
      }
      return
    }
    writer?.submit(.stretch(record))
  }

  /// Hands the play log the earlier segments a cluster split changed: after the clips being written, whose segments
  /// go to the play log once their clip is written.
  private func revise(_ revisions: [UnknownClusters.Revision]) {
    guard !revisions.isEmpty else { return }
    let records = revisions.map(Self.record)
    for revision in records {
      let start = ISO8601Millis.format(revision.start)
      log?.line(
        revision.tail.map { tail in
          "unknown music: the segment of \(start) holds two recordings (later airings start or end at "
            + "\(ISO8601Millis.format(tail.start)) in it): cut in two, clusters \(revision.cluster) and \(tail.cluster)"
        }
          ?? "unknown music: the segment of \(start) moves to cluster \(revision.cluster) (its cluster held two recordings)",
        channel: revision.channel)
    }
    let submit: @Sendable () -> Void = { [writer] in
      for revision in records { writer?.submit(.reviseUnknown(revision)) }
    }
    if let clips { clips.afterPending(submit) } else { submit() }
  }

  /// A split's revision as the play log applies it.
  static func record(_ revision: UnknownClusters.Revision) -> UnknownSegmentRevision {
    UnknownSegmentRevision(
      channel: revision.origin.channel, start: revision.origin.start, cluster: revision.cluster,
      clusterOffsetSeconds: revision.offsetSeconds,
      fingerprint: (try? revision.reference.encoded())?.base64EncodedString() ?? "",
      tail: revision.tail.map { tail in
        UnknownSegmentRevision.Tail(
          start: revision.origin.advanced(bySeconds: tail.startSeconds).start, cluster: tail.cluster,
          clusterOffsetSeconds: tail.offsetSeconds,
          fingerprint: (try? tail.reference.encoded())?.base64EncodedString() ?? "")
      })
  }

  /// Logs a clip that lacks the start of what it is the clip of (`what` names both), and why.
  func warnShort(_ what: String) {
    log?.line(
      what + ": the channel keeps its last " + Self.seconds(UnknownClipWriter.ringSeconds)
        + " of audio for clips; the play log has the span the clip holds", channel: channel, severity: .warning)
  }

  /// `123.4 s`.
  static func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }

  /// Rebuilds the clusters from the unknown segments in the play log at `path` (their fingerprints); a fingerprint
  /// that cannot be read is skipped.
  static func restoreClusters(_ clusters: UnknownClusters, from store: any PlayLogStorage) throws -> Int {
    var segments: [UnknownClusters.Restored] = []
    for row in try store.unknownReferences() {
      guard let data = Data(base64Encoded: row.fingerprint),
        let signature = try? Signature(decoding: data, path: "unknown_segments.fingerprint")
      else { continue }
      segments.append(
        UnknownClusters.Restored(
          reference: signature, cluster: row.cluster, offsetSeconds: row.clusterOffsetSeconds,
          origin: UnknownSegmentOrigin(channel: row.channel, start: row.start), promoted: row.promoted))
    }
    try clusters.restore(segments)
    return segments.count
  }
}
