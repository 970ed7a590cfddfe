import Common
import Foundation
import Reports
import TestSupport
import Testing

@testable import Matcher
@testable import MonitorKit

@Suite("PlayEventSink")
struct PlayEventSinkTests {
  static let origin = 1_767_225_600.0

  static func play(id: Int = 1, start: Double, end: Double, offset: Double) -> MatchedPlay {
    let track = CatalogTrack(
      key: "song", sourcePath: "/song.ogg", metadata: TrackMetadata(title: "Song"), durationSeconds: 48,
      audibleStartSeconds: 0, audibleEndSeconds: 48, loudEndSeconds: 48, globalStartFrame: 0, frameCount: 1500,
      hashCount: 900,
      addedAt: Date())
    return MatchedPlay(
      id: id, track: track, startSeconds: start, endSeconds: end, referenceOffsetSeconds: offset, speed: 1,
      pitchShifted: false, confidence: 0.9, detectedAtSeconds: 41.5, matchCount: 40)
  }

  @Test("A play's row keeps its id and takes the start and offset the matcher refines after it was first logged")
  func refinedStartReachesThePlayLog() throws {
    let folder = try TemporaryDirectory(prefix: "event-sink")
    let path = folder.file("plays.sqlite").path
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: MonitorLog(write: { _ in }))
    var clock = StreamClock()
    clock.observe(stream: 0, wall: Self.origin)
    let sink = PlayEventSink(channel: "fm", writer: writer, log: MonitorLog(write: { _ in }), clock: clock)
    // First found on a repeated section (40 s into the reference), then moved to the track's opening.
    sink.receive(.playStarted(Self.play(start: 40.1, end: 41.5, offset: 40.3)))
    sink.receive(.playContinues(Self.play(start: 39.99, end: 52, offset: 0)))
    sink.receive(.playEnded(Self.play(start: 39.99, end: 80, offset: 0)))
    #expect(writer.stop().isEmpty)

    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.count == 1)
    #expect(plays.first?.start == Date(timeIntervalSince1970: Self.origin + 39.99))
    #expect(plays.first?.end == Date(timeIntervalSince1970: Self.origin + 80))
    #expect(plays.first?.refOffsetSeconds == 0)
    #expect(plays.first?.status == .closed)
  }

  @Test("The console's plays take the start the matcher moves after a play was first shown, and its end")
  func movedStartReachesTheConsole() throws {
    let folder = try TemporaryDirectory(prefix: "event-sink")
    let writer = PlayLogWriter(
      store: try PlayLogStore(path: folder.file("plays.sqlite").path), log: MonitorLog(write: { _ in }))
    var clock = StreamClock()
    clock.observe(stream: 0, wall: Self.origin)
    let sink = PlayEventSink(channel: "fm", writer: writer, log: MonitorLog(write: { _ in }), clock: clock)
    // First matched 15 s into the song; its opening, judged masked 20 s later, moves the start to the song's start.
    sink.receive(.playStarted(Self.play(start: 40, end: 41.5, offset: 15)))
    #expect(sink.history.recent.map(\.start) == [Date(timeIntervalSince1970: Self.origin + 40)])
    sink.receive(.playContinues(Self.play(start: 25, end: 62, offset: 0)))
    #expect(sink.history.recent.map(\.start) == [Date(timeIntervalSince1970: Self.origin + 25)])
    #expect(sink.history.recent.first?.end == nil, "still on air")
    sink.receive(.playEnded(Self.play(start: 25, end: 80, offset: 0)))
    #expect(sink.history.recent.map(\.start) == [Date(timeIntervalSince1970: Self.origin + 25)])
    #expect(sink.history.recent.first?.end == Date(timeIntervalSince1970: Self.origin + 80))
    #expect(writer.stop().isEmpty)
  }
}
