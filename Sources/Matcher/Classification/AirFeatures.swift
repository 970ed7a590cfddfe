/// Signal features of one classification window (`ClassifierTuning.windowFrames` spectrogram frames, about 1 s), made
/// by `AirFeatureExtractor` from the fingerprint front end's spectra and peaks.
public struct AirFeatures: Sendable, Equatable {
  /// First frame of the window (fingerprint frames from the start of the stream).
  public var startFrame: Int
  /// Frames in the window.
  public var frameCount: Int
  /// Mean power over the analysed band (250 Hz–3.75 kHz by default), in dB relative to a full-scale sine.
  public var levelDB: Double
  /// Share of frames more than `ClassifierTuning.lowEnergyDropDB` below the mean level of the last 2 s: the pauses
  /// between words and phrases. High for speech, low for music.
  public var lowEnergyShare: Double
  /// Depth of the level's modulation at 2–8 Hz (syllable rate), in dB, over the last 2 s. High for speech.
  public var syllableModulationDB: Double
  /// Spectral flatness (geometric over arithmetic mean of power), mean over the window: near 1 for noise, low for
  /// tones.
  public var flatness: Double
  /// Spectral flux: mean positive change of the amplitude spectrum from frame to frame, relative to its sum.
  public var flux: Double
  /// Harmonicity: mean of each frame's best autocorrelation of its amplitude spectrum at a lag of 80–400 Hz (a
  /// harmonic comb), 0…1.
  public var harmonicity: Double
  /// Fingerprint peaks per second in the window (the matcher's query peaks).
  public var peaksPerSecond: Double

  public init(
    startFrame: Int, frameCount: Int, levelDB: Double, lowEnergyShare: Double, syllableModulationDB: Double,
    flatness: Double, flux: Double, harmonicity: Double, peaksPerSecond: Double
  ) {
    self.startFrame = startFrame
    self.frameCount = frameCount
    self.levelDB = levelDB
    self.lowEnergyShare = lowEnergyShare
    self.syllableModulationDB = syllableModulationDB
    self.flatness = flatness
    self.flux = flux
    self.harmonicity = harmonicity
    self.peaksPerSecond = peaksPerSecond
  }
}
