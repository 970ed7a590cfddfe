import Common
import Foundation
import Testing

@testable import Matcher

/// The audio an air watch cuts from its ring: an unknown segment's whole air audio however long the stretches after
/// it are, what the ring still holds (and from when) of a segment longer than the ring, and the audio of ended
/// catalog plays. The watch is driven directly, window by window, with features that say each window's label, and
/// the ring is fed as the matcher's front end feeds it.
@Suite("AirWatch clips")
struct AirWatchClipTests {
  final class Collector: AirStretchSink, PlayAudioSink {
    var stretches: [AirStretch] = []
    var plays: [PlayAudio] = []
    func receive(_ stretch: AirStretch) { stretches.append(stretch) }
    func receive(_ audio: PlayAudio) { plays.append(audio) }
  }

  /// A channel's air, about a second (one classification window) at a time. Its audio tells the seconds apart:
  /// every sample of stream second `k` is `k / 32767`, so a clip's first sample says where it starts.
  final class Air {
    let parameters = FingerprintParameters()
    let collector = Collector()
    let watch: AirWatch
    private var frame = 0
    private var play: MatchedPlay?
    private var playCount = 0
    /// Called after each window.
    var onWindow: (() -> Void)?

    init(ringSeconds: Double, playAudioKinds: Set<ItemKind> = [.ad]) {
      watch = AirWatch(parameters: parameters, stretches: collector, keepingAudioSeconds: ringSeconds)
      _ = watch.startStream(firstBin: 8, binCount: 113)
      watch.playAudio = collector
      watch.wantsPlayAudio = { playAudioKinds.contains($0.track.metadata.kind) }
    }

    var rate: Double { Double(parameters.sampleRateHz) }
    var nowSeconds: Double { Double(frame * parameters.hopSizeSamples) / rate }

    /// `seconds` windows of `label` (`catalog`: music that a play of `kind` covers, from the first window on).
    func air(_ label: AirLabel, seconds: Int, kind: ItemKind = .song) {
      if label == .catalog { startPlay(kind: kind) }
      for _ in 0..<seconds { window(music: label != .speech) }
      if label == .catalog { endPlay() }
    }

    /// Every window still held is decided.
    func finish() { watch.finish() }

    private func window(music: Bool) {
      let frames = ClassifierTuning.windowFrames
      let first = Int((nowSeconds * rate).rounded())
      let samples = (first..<first + frames * parameters.hopSizeSamples).map { Float($0 / 8000) / 32767 }
      if let ring = watch.audioRing { samples.withUnsafeBufferPointer { ring.append($0) } }
      watch.consume(
        AirFeatures(
          startFrame: frame, frameCount: frames, levelDB: -20, lowEnergyShare: 0,
          syllableModulationDB: music ? 0.5 : 6, flatness: 0.05, flux: music ? 0.2 : 0.6,
          harmonicity: music ? 0.2 : 0.7, peaksPerSecond: 20))
      frame += frames
      if var p = play {
        p.endSeconds = nowSeconds
        play = p
        watch.receive(.playContinues(p))
      }
      onWindow?()
    }

    private func startPlay(kind: ItemKind) {
      playCount += 1
      let track = CatalogTrack(
        key: "item-\(playCount)", sourcePath: "/item.ogg", metadata: TrackMetadata(title: "Item", kind: kind),
        durationSeconds: 600, audibleStartSeconds: 0, audibleEndSeconds: 600, loudEndSeconds: 600, globalStartFrame: 0,
        frameCount: 1,
        hashCount: 1, addedAt: Date())
      let p = MatchedPlay(
        id: playCount, track: track, startSeconds: nowSeconds, endSeconds: nowSeconds, referenceOffsetSeconds: 0,
        speed: 1, pitchShifted: false, confidence: 0.9, detectedAtSeconds: nowSeconds, matchCount: 1)
      play = p
      watch.receive(.playStarted(p))
    }

    private func endPlay() {
      guard let p = play else { return }
      play = nil
      watch.receive(.playEnded(p))
    }
  }

  /// The stream second a clip's first sample belongs to.
  static func firstSecond(_ audio: [Float]?) -> Int? { audio?.first.map { Int(($0 * 32767).rounded()) } }

  @Test(
    "An unknown segment keeps its whole audio when a long catalog play and talk follow it, as the bench's did not",
    arguments: [(ring: 600.0, music: 220), (ring: 600.0, music: 248), (ring: 120.0, music: 60)])
  func wholeClipBeforeLongPlays(ring: Double, music: Int) throws {
    let air = Air(ringSeconds: ring)
    air.air(.speech, seconds: 30)
    air.air(.unknownMusic, seconds: music)
    air.air(.catalog, seconds: 240)
    air.air(.speech, seconds: 30)
    air.air(.catalog, seconds: 200)
    air.air(.speech, seconds: 30)
    air.finish()
    let segment = try #require(
      air.collector.stretches.first { $0.label == .unknownMusic }, "\(air.collector.stretches)")
    let audio = try #require(segment.audio, "the ring no longer held any of the segment")
    #expect(abs(segment.durationSeconds - Double(music) * 1.024) < 2, "\(segment)")
    #expect(audio.count == Int((segment.durationSeconds * air.rate).rounded()), "the clip is shorter than its segment")
    #expect(segment.audioStartSeconds == segment.startSeconds)
    #expect(Self.firstSecond(audio) == Int(segment.startSeconds))
  }

  @Test("Other music closes within the hold and a short bridge of its end, not after the stretches that follow")
  func closesSoon() throws {
    let air = Air(ringSeconds: 600)
    air.air(.speech, seconds: 30)
    air.air(.unknownMusic, seconds: 100)
    let end = air.nowSeconds
    var closedAt: Double?
    air.onWindow = {
      if closedAt == nil, air.collector.stretches.contains(where: { $0.label == .unknownMusic }) {
        closedAt = air.nowSeconds
      }
    }
    air.air(.catalog, seconds: 300)
    let after = try #require(closedAt, "still open 300 s after its end") - end
    #expect(after <= ClassifierTuning.holdSeconds + ClassifierTuning.maxBridgeSeconds + 2, "closed \(after) s late")
  }

  @Test("A segment longer than the ring gets what the ring holds, and says from when")
  func longerThanTheRing() throws {
    let air = Air(ringSeconds: 100)
    air.air(.speech, seconds: 20)
    air.air(.unknownMusic, seconds: 150)
    air.air(.speech, seconds: 80)
    air.finish()
    let segment = try #require(air.collector.stretches.first { $0.label == .unknownMusic })
    let audio = try #require(segment.audio)
    let audioStart = try #require(segment.audioStartSeconds)
    #expect(audioStart > segment.startSeconds + 40, "the ring's 100 s end 46 s or more after the segment's end")
    #expect(abs(Double(audio.count) / air.rate - (segment.endSeconds - audioStart)) < 0.001)
    #expect(Self.firstSecond(audio) == Int(audioStart))
  }

  @Test("An ended play of a kind asked for gets its air audio, others none; one longer than the ring lacks its start")
  func playAudio() throws {
    let air = Air(ringSeconds: 200)
    air.air(.speech, seconds: 10)
    air.air(.catalog, seconds: 30, kind: .ad)
    air.air(.catalog, seconds: 60, kind: .song)
    air.air(.catalog, seconds: 250, kind: .ad)
    air.air(.speech, seconds: 10)
    let plays = air.collector.plays
    try #require(plays.count == 2, "\(plays.map(\.play.track.key))")
    let spot = plays[0]
    #expect(spot.play.track.key == "item-1")
    #expect(!spot.lacksStart && spot.startSeconds == spot.play.startSeconds)
    #expect(spot.samples.count == Int((spot.play.durationSeconds * air.rate).rounded()))
    #expect(Self.firstSecond(spot.samples) == Int(spot.play.startSeconds))
    let long = plays[1]
    #expect(long.play.track.key == "item-3")
    #expect(long.lacksStart)
    #expect(abs(Double(long.samples.count) / air.rate - 200) < 0.01, "the ring's 200 s")
    #expect(Self.firstSecond(long.samples) == Int(long.startSeconds))
  }
}
