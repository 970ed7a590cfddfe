import Testing

@testable import Matcher

@Suite("AirClassifier")
struct AirClassifierTests {
  static func features(
    level: Double = -20, modulation: Double, flux: Double, harmonicity: Double
  ) -> AirFeatures {
    AirFeatures(
      startFrame: 0, frameCount: 32, levelDB: level, lowEnergyShare: 0, syllableModulationDB: modulation,
      flatness: 0.05, flux: flux, harmonicity: harmonicity, peaksPerSecond: 19.5)
  }

  @Test("Features at music's medians make music; at speech's, speech; half way, mixed")
  func labels() {
    let c = AirClassifier()
    let music = c.classify(Self.features(modulation: 1.0, flux: 0.27, harmonicity: 0.30))
    #expect(music.label == .unknownMusic && music.musicScore == 1)
    let speech = c.classify(Self.features(modulation: 4.0, flux: 0.43, harmonicity: 0.50))
    #expect(speech.label == .speech && speech.musicScore == 0)
    let between = c.classify(Self.features(modulation: 2.5, flux: 0.35, harmonicity: 0.40))
    #expect(between.label == .mixed)
    #expect(abs(between.musicScore - 0.5) < 1e-9)
  }

  @Test("Below the silence level a window is silence whatever else it shows")
  func silence() {
    let quiet = AirClassifier().classify(Self.features(level: -70, modulation: 8, flux: 0.4, harmonicity: 0.6))
    #expect(quiet == AirClassifier.Verdict(label: .silence, musicScore: 0))
  }

  @Test("The score is bounded: features beyond speech's medians count as speech, not more")
  func bounded() {
    let score = AirClassifier().speechScore(Self.features(modulation: 40, flux: 0.9, harmonicity: 0.99))
    #expect(score == 1)
  }
}
