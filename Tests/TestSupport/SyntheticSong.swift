import Foundation

/// A "song" made of random notes from a seeded generator: different seeds are different songs, the same seed is the
/// same song. Cheap to render at 8 kHz, so tests can build small catalogs quickly in a debug build.
///
/// The song is kept as note events, so it can be rendered played faster without a resampler: `tempo` alone is an
/// exact time-stretch (pitch kept), `tempo` with `pitch` equal to it is an exact resampling (a sped-up playout).
public struct SyntheticSong: Sendable, Equatable {
  public struct Note: Sendable, Equatable {
    /// Seconds from the song's start.
    public var start: Double
    public var duration: Double
    /// Fundamental, Hz (a second harmonic is added at half the amplitude).
    public var frequency: Double
    public var amplitude: Double
  }

  public let seed: UInt64
  public let seconds: Double
  public let notes: [Note]

  /// - Parameters:
  ///   - seed: which song.
  ///   - seconds: its length; notes cover it from start to end, so its audible span is the whole song.
  ///   - notesPerSecond: how busy it is.
  public init(seed: UInt64, seconds: Double, notesPerSecond: Double = 8) {
    self.seed = seed
    self.seconds = seconds
    var generator = SeededGenerator(seed: seed ^ 0x5EED_5015_6000_0000)
    var notes: [Note] = []
    let count = max(2, Int(seconds * notesPerSecond))
    for n in 0..<count {
      // Semitones from E♭4 (311 Hz) to A7 (3520 Hz): inside the fingerprint band.
      let semitone = Double(Int.random(in: 0...42, using: &generator))
      let frequency = 311.13 * pow(2, semitone / 12)
      let duration = Double.random(in: 0.15...0.6, using: &generator)
      let start: Double
      if n == 0 {
        start = 0
      } else if n == count - 1 {
        start = seconds - duration  // the last note ends the song
      } else {
        start = Double.random(in: 0...(seconds - duration), using: &generator)
      }
      notes.append(
        Note(
          start: start, duration: duration, frequency: frequency,
          amplitude: Double.random(in: 0.06...0.2, using: &generator)))
    }
    self.notes = notes.sorted { $0.start < $1.start }
  }

  /// The song's samples.
  /// - Parameters:
  ///   - sampleRate: output rate.
  ///   - tempo: playback speed (1.04 = 4 % faster: every note starts and lasts 1/1.04 as long).
  ///   - pitch: frequency factor (equal to `tempo` for a resampled, pitch-shifted playout; 1 for a time-stretch).
  public func render(sampleRate: Double = 8000, tempo: Double = 1, pitch: Double = 1) -> [Float] {
    let count = Int((seconds / tempo * sampleRate).rounded())
    var out = [Float](repeating: 0, count: count)
    for note in notes {
      let first = Int((note.start / tempo * sampleRate).rounded())
      let length = Int((note.duration / tempo * sampleRate).rounded())
      let f = note.frequency * pitch
      let attack = 0.005 * sampleRate
      let release = 0.01 * sampleRate
      for i in 0..<length where first + i < count {
        let t = Double(i) / sampleRate
        let envelope = min(1, Double(i) / attack, Double(length - i) / release) * exp(-t * tempo / 0.4)
        var value = sin(2 * Double.pi * f * t)
        if 2 * f < 3800 { value += 0.5 * sin(4 * Double.pi * f * t) }
        out[first + i] += Float(note.amplitude * envelope * value)
      }
    }
    return out
  }
}
