import Common

/// The parameters that shape a fingerprint: how audio becomes spectral peaks and peaks become hashes.
///
/// A catalog records the parameters it was built with, and every matcher that uses the catalog takes them from it,
/// so that reference and query fingerprints always agree. Units are in the names; defaults are documented per field.
public struct FingerprintParameters: Codable, Sendable, Equatable {
  /// Sample rate the matcher works at. Default 8000 Hz: keeps 250 Hz–3.75 kHz, the band that survives FM, codecs
  /// and telephone-band segments, at a quarter of the cost of 16 kHz.
  public var sampleRateHz: Int = 8000
  /// FFT frame length. Default 1024 samples (128 ms at 8 kHz, 7.8 Hz per bin).
  public var fftSizeSamples: Int = 1024
  /// Hop between frames. Default 256 samples (32 ms at 8 kHz): 31.25 frames per second.
  public var hopSizeSamples: Int = 256
  /// Lowest frequency considered for peaks. Default 250 Hz.
  public var minFrequencyHz: Double = 250
  /// Highest frequency considered for peaks. Default 3750 Hz.
  public var maxFrequencyHz: Double = 3750

  /// A peak must be the maximum of ±this many frames around it. Default 6 (±192 ms).
  public var peakNeighborhoodFrames: Int = 6
  /// A peak must be the maximum of ±this many bins around it. Default 10 (±78 Hz).
  public var peakNeighborhoodBins: Int = 10
  /// Peaks are ranked and thinned per block of this many frames. Default 8 (0.256 s).
  public var peakBlockFrames: Int = 8
  /// Peaks kept per block in reference (catalog) fingerprints. Default 3 (about 12 per second).
  public var referencePeaksPerBlock: Int = 3
  /// Peaks kept per block in query (broadcast) fingerprints: more than the reference, so that the reference's peaks
  /// are found even when noise adds peaks of its own. Default 5.
  public var queryPeaksPerBlock: Int = 5
  /// Peak times between frames: each peak's time is refined by parabolic interpolation across its neighbouring
  /// frames, and a pair's hash rounds the refined time difference. Default true.
  ///
  /// A broadcast starts anywhere within a hop of its reference's frame grid. With whole-frame times, a pair's frame
  /// difference then often differs by one from the reference's, and its hash with it: a song shifted by half a hop
  /// kept a third of its matches (measured on a dev-corpus song), against two thirds with refined times. Catalogs
  /// made before this setting existed hashed whole frames: a catalog file without the key reads as false.
  public var interpolatePeakTimes: Bool = true
  /// Spectral whitening: a peak's strength is measured against the running mean power of its bin over about this
  /// long. Default 3 s.
  public var whiteningSeconds: Double = 3
  /// Power below this level (dB relative to a full-scale sine) never makes a peak: digital silence and dither.
  /// Default -75 dB.
  public var silenceFloorDB: Double = -75

  /// Longest distance between the two peaks of a pair. Default 40 frames (1.28 s).
  public var maxPairFrames: Int = 40
  /// Largest pitch interval between the two peaks of a pair. Default 15.5 semitones.
  public var maxPairSemitones: Double = 15.5
  /// Pairs made per anchor peak in reference fingerprints (nearest in time). Default 3.
  public var referenceFanOut: Int = 3
  /// Pairs made per anchor peak in query fingerprints: enough to reach the reference's targets among the query's
  /// extra peaks. Default 8.
  public var queryFanOut: Int = 8
  /// Quantization step of the anchor's pitch in a hash. Default 0.5 semitone.
  public var anchorStepSemitones: Double = 0.5
  /// Quantization step of the interval between the two peaks in a hash. Default 0.5 semitone.
  public var intervalStepSemitones: Double = 0.5

  public init() {}

  /// Frames per second of the spectrogram.
  public var framesPerSecond: Double { Double(sampleRateHz) / Double(hopSizeSamples) }

  /// Stream time, in seconds from the first sample, of the centre of frame `frame`.
  public func seconds(ofFrame frame: Double) -> Double {
    (frame * Double(hopSizeSamples) + Double(fftSizeSamples) / 2) / Double(sampleRateHz)
  }

  /// The frame whose centre is at `seconds` (fractional).
  public func frame(atSeconds seconds: Double) -> Double {
    (seconds * Double(sampleRateHz) - Double(fftSizeSamples) / 2) / Double(hopSizeSamples)
  }

  /// Largest FFT frame: 32768 samples (4 s at 8 kHz, 0.7 s at 48 kHz), far beyond any useful fingerprint; a catalog
  /// asking for more is damaged, and would allocate without bound.
  static let maxFFTSizeSamples = 32768
  /// Largest peak neighbourhood, block and per-block count: 256, tens of times the defaults (6 frames, 8 frames, 3 and
  /// 5 peaks). The extractor keeps `2 × peakNeighborhoodFrames + 1` spectra, and the matcher counts pairs per peak in
  /// a byte, so that `queryFanOut` (and the fan-out below it) must stay below 256.
  static let maxPeakCount = 255
  /// Quantization steps finer than a thousandth of a semitone would make hashes of more than 24 bits in any case; the
  /// floor keeps the hash layout's step counts finite while it is computed.
  static let minStepSemitones = 0.001

  /// Checks that the values can work together; the error says which value is wrong.
  public func validate() throws(ConfigurationError) {
    func require(_ ok: Bool, _ key: String, _ why: String) throws(ConfigurationError) {
      if !ok { throw ConfigurationError(keyPath: "fingerprint.\(key)", reason: why) }
    }
    let most = Self.maxPeakCount
    try require(sampleRateHz >= 4000 && sampleRateHz <= 48000, "sampleRateHz", "must be 4000…48000")
    try require(
      fftSizeSamples >= 128 && fftSizeSamples <= Self.maxFFTSizeSamples && fftSizeSamples.nonzeroBitCount == 1,
      "fftSizeSamples", "must be a power of two from 128 to \(Self.maxFFTSizeSamples)")
    try require(hopSizeSamples > 0 && hopSizeSamples <= fftSizeSamples, "hopSizeSamples", "must be 1…fftSizeSamples")
    try require(
      minFrequencyHz >= 1 && minFrequencyHz < maxFrequencyHz, "minFrequencyHz", "must be ≥ 1 and < maxFrequencyHz")
    try require(maxFrequencyHz < Double(sampleRateHz) / 2, "maxFrequencyHz", "must be below half the sample rate")
    try require((1...most).contains(peakNeighborhoodFrames), "peakNeighborhoodFrames", "must be 1…\(most)")
    try require(
      peakNeighborhoodBins >= 1 && peakNeighborhoodBins <= fftSizeSamples / 2, "peakNeighborhoodBins",
      "must be 1…fftSizeSamples / 2")
    try require((1...most).contains(peakBlockFrames), "peakBlockFrames", "must be 1…\(most)")
    try require((1...most).contains(referencePeaksPerBlock), "referencePeaksPerBlock", "must be 1…\(most)")
    try require((1...most).contains(queryPeaksPerBlock), "queryPeaksPerBlock", "must be 1…\(most)")
    try require(whiteningSeconds > 0 && whiteningSeconds <= 3600, "whiteningSeconds", "must be > 0 and ≤ 3600")
    try require(silenceFloorDB >= -200 && silenceFloorDB <= 0, "silenceFloorDB", "must be -200…0")
    try require(maxPairFrames >= 2 && maxPairFrames <= 63, "maxPairFrames", "must be 2…63 (6 bits in a hash)")
    try require(maxPairSemitones > 0 && maxPairSemitones <= 48, "maxPairSemitones", "must be > 0 and ≤ 48")
    try require(referenceFanOut >= 1, "referenceFanOut", "must be ≥ 1")
    try require(
      queryFanOut >= referenceFanOut && queryFanOut <= most, "queryFanOut", "must be referenceFanOut…\(most)")
    try require(
      anchorStepSemitones >= Self.minStepSemitones && anchorStepSemitones <= 12, "anchorStepSemitones",
      "must be \(Self.minStepSemitones)…12")
    try require(
      intervalStepSemitones >= Self.minStepSemitones && intervalStepSemitones <= 12, "intervalStepSemitones",
      "must be \(Self.minStepSemitones)…12")
    try require(HashLayout(self).totalBits <= 24, "anchorStepSemitones", "too fine: a hash needs more than 24 bits")
  }
}

extension FingerprintParameters {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case sampleRateHz
    case fftSizeSamples
    case hopSizeSamples
    case minFrequencyHz
    case maxFrequencyHz
    case peakNeighborhoodFrames
    case peakNeighborhoodBins
    case peakBlockFrames
    case referencePeaksPerBlock
    case queryPeaksPerBlock
    case interpolatePeakTimes
    case whiteningSeconds
    case silenceFloorDB
    case maxPairFrames
    case maxPairSemitones
    case referenceFanOut
    case queryFanOut
    case anchorStepSemitones
    case intervalStepSemitones
  }

  /// Missing keys take their defaults; an unknown key is an error that names it.
  public init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = FingerprintParameters()
    self.init()
    sampleRateHz = try c.value(.sampleRateHz, or: defaults.sampleRateHz)
    fftSizeSamples = try c.value(.fftSizeSamples, or: defaults.fftSizeSamples)
    hopSizeSamples = try c.value(.hopSizeSamples, or: defaults.hopSizeSamples)
    minFrequencyHz = try c.value(.minFrequencyHz, or: defaults.minFrequencyHz)
    maxFrequencyHz = try c.value(.maxFrequencyHz, or: defaults.maxFrequencyHz)
    peakNeighborhoodFrames = try c.value(.peakNeighborhoodFrames, or: defaults.peakNeighborhoodFrames)
    peakNeighborhoodBins = try c.value(.peakNeighborhoodBins, or: defaults.peakNeighborhoodBins)
    peakBlockFrames = try c.value(.peakBlockFrames, or: defaults.peakBlockFrames)
    referencePeaksPerBlock = try c.value(.referencePeaksPerBlock, or: defaults.referencePeaksPerBlock)
    queryPeaksPerBlock = try c.value(.queryPeaksPerBlock, or: defaults.queryPeaksPerBlock)
    interpolatePeakTimes = try c.value(.interpolatePeakTimes, or: false)  // absent: a catalog made before it existed
    whiteningSeconds = try c.value(.whiteningSeconds, or: defaults.whiteningSeconds)
    silenceFloorDB = try c.value(.silenceFloorDB, or: defaults.silenceFloorDB)
    maxPairFrames = try c.value(.maxPairFrames, or: defaults.maxPairFrames)
    maxPairSemitones = try c.value(.maxPairSemitones, or: defaults.maxPairSemitones)
    referenceFanOut = try c.value(.referenceFanOut, or: defaults.referenceFanOut)
    queryFanOut = try c.value(.queryFanOut, or: defaults.queryFanOut)
    anchorStepSemitones = try c.value(.anchorStepSemitones, or: defaults.anchorStepSemitones)
    intervalStepSemitones = try c.value(.intervalStepSemitones, or: defaults.intervalStepSemitones)
  }
}
