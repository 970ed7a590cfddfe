import Foundation
import Matcher
import Reports

/// The clips of catalog plays (`unknown.catalogPlayClips`): the air watch cuts an ended play's audio from its ring,
/// the clip writer keeps it beside the unknown music's clips (under the same retention), and the play log gets the
/// clip with the play's span and the span the clip holds (`play_clips`), once it is written. A play longer than the
/// ring holds gets a clip of what the ring holds; that is logged as a warning, once per clip, and the clip's span
/// says so (`report proof-of-play`'s `clip_missing_s`).
///
/// Threads: `receive` and `wantsAudio(of:)` from the channel's worker (the thread that feeds its matcher).
extension AirStretchRecorder: PlayAudioSink {
  /// True when `play`'s item is of a kind whose plays get a clip, as the settings in force say.
  func wantsAudio(of play: MatchedPlay) -> Bool {
    clips?.settings.catalogPlayClips.contains(play.track.metadata.kind) ?? false
  }

  func receive(_ audio: PlayAudio) {
    guard let clips else { return }
    let play = audio.play
    let playStart = time(play.startSeconds)
    let clipStart = time(audio.startSeconds)
    let name = UnknownClipWriter.fileName(channel: channel, start: playStart, kind: play.track.metadata.kind)
    if audio.lacksStart {
      warnShort(
        "catalog play: the clip \(name) holds the last " + Self.seconds(play.endSeconds - audio.startSeconds)
          + " of the " + Self.seconds(play.durationSeconds) + " play of \(PlayEventSink.describe(play)) (from "
          + "\(ISO8601Millis.format(clipStart)))")
    }
    let record = PlayClipRecord(
      channel: channel, itemKey: play.track.key, playStart: playStart, playEnd: time(play.endSeconds),
      clipStart: clipStart, clipEnd: time(play.endSeconds), clipPath: "")
    clips.write(audio.samples, name: name, channel: channel, of: .catalogPlay) { [writer] path in
      guard let path else { return }
      var clipped = record
      clipped.clipPath = path
      writer?.submit(.playClip(clipped))
    }
  }
}
