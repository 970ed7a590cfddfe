/// Labels one channel's air, stretch by stretch: catalog play, other music, speech, silence or mixed. It rides on
/// a `StreamMatcher` (`StreamMatcher(catalog:settings:sink:air:)`): its feature extractor taps the matcher's
/// spectra, it counts and keeps the matcher's peaks, and it sees the matcher's events on their way to the sink, so
/// that a catalog play claims its stretch. Closed stretches go to `stretches`; an `unknown-music` stretch carries its
/// fingerprint and, when the watch keeps audio (`keepingAudioSeconds`), its air audio. When it keeps audio, the air
/// audio of each ended catalog play it is asked for (`wantsPlayAudio`) goes to `playAudio`.
///
/// Chain: spectra → `AirFeatureExtractor` → `AirClassifier` (a label per window) → `AirSegmenter` (smoothing, the
/// catalog's plays, runs) → the stretch sink.
///
/// One thread at a time: the thread that feeds the matcher.
public final class AirWatch: MatchEventSink, AirFeaturesConsumer {
  public let parameters: FingerprintParameters
  /// Where the matcher's events go after the watch has seen them (set by the matcher; held weakly).
  weak var downstream: (any MatchEventSink)?
  private weak var stretches: (any AirStretchSink)?
  /// Where the air audio of ended catalog plays goes, when the watch keeps audio (held weakly).
  public weak var playAudio: (any PlayAudioSink)?
  /// Whether an ended play's air audio is cut for `playAudio` (by its item's kind, say), asked as each play ends;
  /// nil: none is.
  public var wantsPlayAudio: ((MatchedPlay) -> Bool)?
  /// Every window's features, as they are made (for tuning and benchmarks).
  package var featureLog: ((AirFeatures, AirLabel, Double) -> Void)?
  /// Stream time of the stream's first sample (set by the matcher).
  var originSeconds: Double = 0
  private var extractor: AirFeatureExtractor?
  private let classifier = AirClassifier()
  private var segmenter = AirSegmenter()
  private let history: PeakHistory
  /// The label of the newest window, smoothed by nothing: what is on the air now, for a console.
  public private(set) var onAir: AirLabel = .silence
  /// Unknown music on the air now (from the newest windows' labels, through short breaks), nil when there is none.
  public private(set) var unknownMusicOnAir: UnknownMusicOnAir?
  /// Finds the cluster of a query signature among the earlier unknown segments, nil when none matches
  /// (`UnknownClusters.identify`): unknown music on air gets its cluster when its recent audio matches. Called on the
  /// watch's thread.
  public var identifyCluster: (@Sendable (Signature) -> Int64?)?
  /// Stream time of the newest window of unknown music, and when its cluster is looked for next.
  private var lastUnknownMusicSeconds = -Double.infinity
  private var nextIdentifySeconds = 0.0
  private var runningPlays = 0
  /// The recent audio at the fingerprint rate (the matcher's front end appends to it), when the watch keeps audio.
  let audioRing: AirAudioRing?

  /// - Parameter keepingAudioSeconds: when above 0, the watch keeps this much of the latest audio, and an unknown
  ///   segment closed carries its audio (`AirStretch.audio`): it should cover the longest segment to keep plus
  ///   `ClassifierTuning.holdSeconds`.
  public init(parameters: FingerprintParameters, stretches: any AirStretchSink, keepingAudioSeconds: Double = 0) {
    self.parameters = parameters
    self.stretches = stretches
    audioRing =
      keepingAudioSeconds > 0 ? AirAudioRing(seconds: keepingAudioSeconds, sampleRateHz: parameters.sampleRateHz) : nil
    history = PeakHistory(parameters: parameters)
    segmenter.emit = { [unowned self] in self.close($0) }
  }

  /// A new stream: a fresh feature extractor for the matcher's front end; what the last stream left undecided is
  /// dropped.
  func startStream(firstBin: Int, binCount: Int) -> AirFeatureExtractor {
    let e = AirFeatureExtractor(parameters: parameters, firstBin: firstBin, binCount: binCount, consumer: self)
    extractor = e
    segmenter = AirSegmenter()
    segmenter.emit = { [unowned self] in self.close($0) }
    history.removeAll()
    audioRing?.removeAll()
    runningPlays = 0
    unknownMusicOnAir = nil
    return e
  }

  func note(peaks: ArraySlice<Peak>) {
    extractor?.notePeaks(peaks.count)
    history.append(peaks)
  }

  /// The stream ended: every window is decided and the last stretches close.
  func finish() {
    segmenter.decide(nowSeconds: .infinity, final: true)
    unknownMusicOnAir = nil
  }

  public func receive(_ event: MatchEvent) {
    switch event {
    case .playStarted(let p), .playContinues(let p):
      if case .playStarted = event { runningPlays += 1 }
      segmenter.notePlay(id: p.id, startSeconds: p.startSeconds, endSeconds: p.endSeconds, item: p.track.key)
    case .playEnded(let p):
      runningPlays -= 1
      segmenter.notePlay(id: p.id, startSeconds: p.startSeconds, endSeconds: p.endSeconds, item: p.track.key)
      cutAudio(of: p)
    case .playRetracted(let p):
      runningPlays -= 1
      segmenter.retractPlay(id: p.id)
    case .noMatch:
      break
    }
    downstream?.receive(event)
  }

  public func consume(_ features: AirFeatures) {
    let verdict = classifier.classify(features)
    let start = originSeconds + Double(features.startFrame * parameters.hopSizeSamples) / rate
    let end = start + Double(features.frameCount * parameters.hopSizeSamples) / rate
    featureLog?(features, verdict.label, verdict.musicScore)
    onAir = runningPlays > 0 && verdict.label != .silence ? .catalog : verdict.label
    noteOnAir(onAir, startSeconds: start, endSeconds: end)
    segmenter.add(
      AirSegmenter.Window(startSeconds: start, endSeconds: end, label: verdict.label, musicScore: verdict.musicScore))
    segmenter.decide(nowSeconds: end)
  }

  private var rate: Double { Double(parameters.sampleRateHz) }

  /// Follows unknown music on air: it starts with a window of unknown music, lasts through at most
  /// `ClassifierTuning.onAirBreakSeconds` of other windows, and ends at once with a catalog play. While its cluster
  /// is unknown, its last `ClassifierTuning.onAirIdentifySeconds` are matched against the earlier unknown segments
  /// that often.
  private func noteOnAir(_ label: AirLabel, startSeconds: Double, endSeconds: Double) {
    guard label == .unknownMusic else {
      if label == .catalog || endSeconds - lastUnknownMusicSeconds > ClassifierTuning.onAirBreakSeconds {
        unknownMusicOnAir = nil
      }
      return
    }
    let every = ClassifierTuning.onAirIdentifySeconds
    if unknownMusicOnAir == nil {
      unknownMusicOnAir = UnknownMusicOnAir(sinceSeconds: startSeconds)
      nextIdentifySeconds = startSeconds + every
    }
    lastUnknownMusicSeconds = endSeconds
    guard unknownMusicOnAir?.cluster == nil, let identifyCluster, endSeconds >= nextIdentifySeconds else { return }
    nextIdentifySeconds = endSeconds + every
    let to = frame(atStream: endSeconds)
    let from = frame(atStream: endSeconds - every)
    let samples = Int(to - from) * parameters.hopSizeSamples
    let recent = Signature(
      parameters: parameters, sampleCount: samples, peaks: history.peaks(from: from, to: to),
      audibleStartSeconds: 0, audibleEndSeconds: Double(samples) / rate)
    unknownMusicOnAir?.cluster = identifyCluster(recent)
  }

  /// The fingerprint frame at stream time `seconds`.
  private func frame(atStream seconds: Double) -> Int32 {
    Int32(((seconds - originSeconds) * rate / Double(parameters.hopSizeSamples)).rounded())
  }

  private func close(_ stretch: AirStretch) {
    var s = stretch
    if s.label == .unknownMusic {
      let from = frame(atStream: s.startSeconds)
      let to = frame(atStream: s.endSeconds)
      let peaks = history.peaks(from: from, to: to)
      let samples = Int(to - from) * parameters.hopSizeSamples
      s.signature = Signature(
        parameters: parameters, sampleCount: samples, peaks: peaks, audibleStartSeconds: 0,
        audibleEndSeconds: Double(samples) / rate)
      if let cut = audio(fromSeconds: s.startSeconds, toSeconds: s.endSeconds) {
        s.audio = cut.samples
        s.audioStartSeconds = cut.startSeconds
      }
    }
    stretches?.receive(s)
  }

  /// The ended play's air audio to `playAudio`, when it is wanted and the ring holds some of it.
  private func cutAudio(of play: MatchedPlay) {
    guard let playAudio, wantsPlayAudio?(play) == true,
      let cut = audio(fromSeconds: play.startSeconds, toSeconds: play.endSeconds)
    else { return }
    playAudio.receive(PlayAudio(play: play, samples: cut.samples, startSeconds: cut.startSeconds))
  }

  /// The ring's audio from stream time `fromSeconds` to `toSeconds`, and the stream time of its first sample:
  /// `fromSeconds` itself when the ring still holds it, later when that part was overwritten. Nil when the watch
  /// keeps no audio or the ring holds none of the span.
  private func audio(fromSeconds: Double, toSeconds: Double) -> (samples: [Float], startSeconds: Double)? {
    guard let audioRing else { return nil }
    let from = Int(((fromSeconds - originSeconds) * rate).rounded())
    guard let audio = audioRing.samples(from: from, to: Int(((toSeconds - originSeconds) * rate).rounded())) else {
      return nil
    }
    let first = max(from, audioRing.firstHeld)
    return (audio, first == from ? fromSeconds : originSeconds + Double(first) / rate)
  }
}
