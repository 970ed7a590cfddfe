import Foundation
import Testing

@testable import Matcher

@Suite("AirSegmenter")
struct AirSegmenterTests {
  /// Feeds one window per second with the labels given (a label per second), then decides everything.
  static func stretches(
    _ labels: [AirLabel], plays: [(id: Int, start: Double, end: Double)] = [], final: Bool = true
  ) -> [AirStretch] {
    let segmenter = AirSegmenter()
    var out: [AirStretch] = []
    segmenter.emit = { out.append($0) }
    for p in plays { segmenter.notePlay(id: p.id, startSeconds: p.start, endSeconds: p.end, item: "item-\(p.id)") }
    for (i, label) in labels.enumerated() {
      let score = label == .unknownMusic ? 0.9 : label == .mixed ? 0.5 : 0.1
      segmenter.add(
        AirSegmenter.Window(startSeconds: Double(i), endSeconds: Double(i + 1), label: label, musicScore: score))
      segmenter.decide(nowSeconds: Double(i + 1))
    }
    segmenter.decide(nowSeconds: .infinity, final: final)
    return out
  }

  static func repeated(_ label: AirLabel, _ seconds: Int) -> [AirLabel] { Array(repeating: label, count: seconds) }

  @Test("Music of 20 s or more between talk is unknown music; shorter music is mixed")
  func minimumLength() {
    let s = Self.stretches(
      Self.repeated(.speech, 10) + Self.repeated(.unknownMusic, 30) + Self.repeated(.speech, 10)
        + Self.repeated(.unknownMusic, 12) + Self.repeated(.speech, 10))
    #expect(s.map(\.label) == [.speech, .unknownMusic, .speech, .mixed, .speech])
    #expect(s[1].startSeconds == 10 && s[1].endSeconds == 40)
    #expect(abs(s[1].musicConfidence - 0.9) < 1e-9)
  }

  @Test("A window that a catalog play covers is the catalog's, with the item")
  func catalog() {
    let s = Self.stretches(Self.repeated(.unknownMusic, 60), plays: [(1, 0, 40)])
    #expect(s.map(\.label) == [.catalog, .unknownMusic])
    #expect(s[0].item == "item-1" && s[0].endSeconds == 40)
    #expect(s[1].startSeconds == 40 && s[1].endSeconds == 60)
  }

  @Test("A retracted play gives its stretch back to the music")
  func retracted() {
    let segmenter = AirSegmenter()
    var out: [AirStretch] = []
    segmenter.emit = { out.append($0) }
    segmenter.notePlay(id: 1, startSeconds: 0, endSeconds: 30, item: "a")
    for i in 0..<40 {
      segmenter.add(
        AirSegmenter.Window(startSeconds: Double(i), endSeconds: Double(i + 1), label: .unknownMusic, musicScore: 1))
      if i == 10 { segmenter.retractPlay(id: 1) }
    }
    segmenter.decide(nowSeconds: .infinity, final: true)
    #expect(out.map(\.label) == [.unknownMusic])
  }

  @Test("A short blip is outvoted by its neighbours")
  func smoothing() {
    var labels = Self.repeated(.unknownMusic, 40)
    labels[20] = .speech
    labels[21] = .speech
    #expect(Self.stretches(labels).map(\.label) == [.unknownMusic])
  }

  @Test("Up to 10 s of mixed between two runs of music is bridged into one unknown segment; talk is not")
  func bridge() {
    let bridged = Self.stretches(
      Self.repeated(.unknownMusic, 30) + Self.repeated(.mixed, 8) + Self.repeated(.unknownMusic, 30))
    #expect(bridged.map(\.label) == [.unknownMusic])
    #expect(bridged[0].durationSeconds == 68)
    let talk = Self.stretches(
      Self.repeated(.unknownMusic, 30) + Self.repeated(.speech, 12) + Self.repeated(.unknownMusic, 30))
    #expect(talk.map(\.label) == [.unknownMusic, .speech, .unknownMusic])
    let long = Self.stretches(
      Self.repeated(.unknownMusic, 30) + Self.repeated(.mixed, 15) + Self.repeated(.unknownMusic, 30))
    #expect(long.map(\.label) == [.unknownMusic, .mixed, .unknownMusic])
  }

  @Test("Nothing is decided until the hold has passed, so that a late-reported play claims its stretch")
  func hold() {
    let segmenter = AirSegmenter()
    var out: [AirStretch] = []
    segmenter.emit = { out.append($0) }
    for i in 0..<60 {
      segmenter.add(
        AirSegmenter.Window(
          startSeconds: Double(i), endSeconds: Double(i + 1), label: i < 30 ? .speech : .unknownMusic, musicScore: 0))
      segmenter.decide(nowSeconds: Double(i + 1))
      // The matcher reports a play 15 s after it started, dated back.
      if i == 45 { segmenter.notePlay(id: 1, startSeconds: 30, endSeconds: 46, item: "late") }
      if i > 45 { segmenter.notePlay(id: 1, startSeconds: 30, endSeconds: Double(i + 1), item: "late") }
    }
    #expect(out.isEmpty)
    segmenter.decide(nowSeconds: .infinity, final: true)
    #expect(out.map(\.label) == [.speech, .catalog])
    #expect(out[1].item == "late" && out[1].startSeconds == 30)
  }

  @Test("A song's start moved back over its masked opening at the first report that can move it claims the stretch")
  func maskedOpeningClaimedInTime() {
    // The matcher judges an opening once the play has matched a second opening's length past it, reports the
    // moved start at its next progress report, and moves it back by up to noisyOpeningSnapSeconds.
    let settings = MatcherSettings()
    let snapSeconds = settings.noisyOpeningSnapSeconds
    let openingSeconds = Double(MatcherTuning.openingBuckets)  // second-long buckets
    let songStart = 30.0
    let firstMatch = songStart + snapSeconds
    let foundAt = firstMatch + 5  // the play is first reported, from its first match, 5 s after it
    let movedAt = firstMatch + 2 * openingSeconds + settings.progressIntervalSeconds
    let segmenter = AirSegmenter()
    var out: [AirStretch] = []
    segmenter.emit = { out.append($0) }
    for i in 0..<Int(movedAt) + 30 {
      let now = Double(i + 1)
      segmenter.add(
        AirSegmenter.Window(
          startSeconds: Double(i), endSeconds: now, label: Double(i) < songStart ? .speech : .unknownMusic,
          musicScore: 0))
      segmenter.decide(nowSeconds: now)
      if now >= foundAt {
        segmenter.notePlay(id: 1, startSeconds: now >= movedAt ? songStart : firstMatch, endSeconds: now, item: "s")
      }
    }
    segmenter.decide(nowSeconds: .infinity, final: true)
    #expect(out.map(\.label) == [.speech, .catalog])
    #expect(out.last?.startSeconds == songStart)
  }

  @Test(
    "Other music closes within the hold (and a short bridge) of its end, whatever follows it",
    arguments: [
      [],  // a catalog play follows, then talk and another play
      [(AirLabel.mixed, 5)],  // a few seconds of mixed first, not bridged: a play follows
      [(AirLabel.mixed, 20)],  // too long to bridge
    ])
  func closesSoon(lead: [(AirLabel, Int)]) {
    let segmenter = AirSegmenter()
    var closed: [(stretch: AirStretch, atSeconds: Double)] = []
    var now = 0.0
    segmenter.emit = { closed.append(($0, now)) }
    // Talk, 220 s of music, then what `lead` says, then a 240 s catalog play, talk and a 200 s play.
    var labels = Self.repeated(.speech, 30) + Self.repeated(.unknownMusic, 220)
    for (label, seconds) in lead { labels += Self.repeated(label, seconds) }
    let playStart = labels.count
    labels += Self.repeated(.unknownMusic, 240) + Self.repeated(.speech, 30) + Self.repeated(.unknownMusic, 200)
    segmenter.notePlay(id: 1, startSeconds: Double(playStart), endSeconds: Double(playStart + 240), item: "a")
    segmenter.notePlay(
      id: 2, startSeconds: Double(playStart + 270), endSeconds: Double(playStart + 470), item: "b")
    for (i, label) in labels.enumerated() {
      segmenter.add(
        AirSegmenter.Window(
          startSeconds: Double(i), endSeconds: Double(i + 1), label: label,
          musicScore: label == .unknownMusic ? 0.9 : 0.3))
      now = Double(i + 1)
      segmenter.decide(nowSeconds: now)
    }
    let music = closed.first { $0.stretch.label == .unknownMusic }
    #expect(music?.stretch.startSeconds == 30 && music?.stretch.endSeconds == 250, "\(closed.map(\.stretch))")
    let late = (music?.atSeconds ?? .infinity) - 250
    #expect(
      late <= ClassifierTuning.holdSeconds + ClassifierTuning.maxBridgeSeconds + 2,
      "closed \(late) s after its end: its audio would be gone from the ring")
  }
}
