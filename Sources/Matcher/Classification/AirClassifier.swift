/// Labels one window from its features: `silence`, `speech`, or music (`unknownMusic` until the catalog claims it),
/// with a music score 0…1. Each rule reads as the README's table of features and thresholds (`ClassifierTuning`).
///
/// A value type without state: any thread.
struct AirClassifier {
  struct Verdict: Equatable {
    var label: AirLabel
    var musicScore: Double
  }

  func classify(_ f: AirFeatures) -> Verdict {
    if f.levelDB < ClassifierTuning.silenceLevelDB { return Verdict(label: .silence, musicScore: 0) }
    let speech = speechScore(f)
    let label: AirLabel =
      speech >= ClassifierTuning.speechMinScore
      ? .speech : speech <= ClassifierTuning.musicMaxScore ? .unknownMusic : .mixed
    return Verdict(label: label, musicScore: 1 - speech)
  }

  /// 0…1: how much the window sounds like talk. Each feature counts 0 at its usual value in music and 1 at its
  /// usual value in speech; the score is their mean.
  func speechScore(_ f: AirFeatures) -> Double {
    typealias T = ClassifierTuning
    func scaled(_ value: Double, _ music: Double, _ speech: Double) -> Double {
      min(1, max(0, (value - music) / (speech - music)))
    }
    let modulation = scaled(f.syllableModulationDB, T.musicModulationDB, T.speechModulationDB)
    let flux = scaled(f.flux, T.musicFlux, T.speechFlux)
    let harmonicity = scaled(f.harmonicity, T.musicHarmonicity, T.speechHarmonicity)
    return (modulation + flux + harmonicity) / 3
  }
}
