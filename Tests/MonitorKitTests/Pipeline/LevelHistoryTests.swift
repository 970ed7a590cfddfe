import Foundation
import Testing

@testable import MonitorKit

@Suite("LevelHistory")
struct LevelHistoryTests {
  /// `seconds` of a 440 Hz tone at half scale (−6 dBFS) or of digital silence, at `rate`.
  static func audio(tone: Bool, seconds: Double, rate: Int) -> [Float] {
    (0..<Int(seconds * Double(rate))).map { tone ? Float(0.5 * sin(Double($0) * 2 * .pi * 440 / Double(rate))) : 0 }
  }

  /// Feeds `samples` from `time` in chunks of `chunkFrames`, as a channel's worker does; returns the chunks' peaks.
  static func feed(
    _ samples: [Float], rate: Int, from time: Double, chunkFrames: Int, into history: inout LevelHistory
  ) -> [Float] {
    var peaks: [Float] = []
    samples.withUnsafeBufferPointer { all in
      var start = 0
      while start < all.count {
        let end = min(all.count, start + chunkFrames)
        let chunk = UnsafeBufferPointer(rebasing: all[start..<end])
        peaks.append(history.add(chunk, sampleRate: Double(rate), at: time + Double(start) / Double(rate)))
        start = end
      }
    }
    return peaks
  }

  @Test("a chunk that crosses a second's boundary lends its tone only to the second the tone lies in")
  func chunkAcrossASecond() {
    // 8 s of silence from 100.01 s to 108.01 s, between tones, in chunks of 0.128 s from 98.01 s: the chunk from
    // 107.994 s holds the last of the silence and then the tone, and the one from 99.930 s the tone up to 100.01 s.
    let rate = 8000
    let samples =
      Self.audio(tone: true, seconds: 2, rate: rate) + Self.audio(tone: false, seconds: 8, rate: rate)
      + Self.audio(tone: true, seconds: 2, rate: rate)
    var history = LevelHistory()
    _ = Self.feed(samples, rate: rate, from: 98.01, chunkFrames: 1024, into: &history)
    #expect(history.firstSecond == 98)
    let silent = (98...110).filter { history.peakDB(at: $0) == -.infinity }
    #expect(silent == Array(101...107), "the whole seconds inside the silence: \(history.peaksDB)")
    #expect(history.peakDB(at: 100).map { abs($0 + 6.02) < 0.1 } == true, "100 s holds 0.01 s of the tone")
  }

  @Test("each chunk's returned peak is its loudest sample, wherever its seconds fall")
  func returnedPeak() {
    // 8 samples a second from 4.75 s: the first chunk holds 4.75 s to 5.25 s.
    let rate = 8
    let samples: [Float] = [0, 0.25, -0.5, 0, 0, 0, 0, 0, 0, 0]
    var history = LevelHistory()
    let peaks = Self.feed(samples, rate: rate, from: 4.75, chunkFrames: 5, into: &history)
    #expect(peaks.count == 2)
    #expect(abs(peaks[0] - 20 * log10(0.5)) < 1e-4 && peaks[1] == -.infinity, "\(peaks)")
    #expect(history.peakDB(at: 4).map { abs($0 - 20 * log10(0.25)) < 1e-4 } == true, "4 s holds 0 and 0.25")
    #expect(history.peakDB(at: 5).map { abs($0 - 20 * log10(0.5)) < 1e-4 } == true, "5 s holds −0.5 on")
  }

  @Test("a second no chunk reached has no level; a late chunk raises its own second only")
  func gapsAndLateChunks() {
    var history = LevelHistory()
    history.add(peakDB: -20, at: 10.5)
    history.add(peakDB: -30, at: 13.2)
    #expect(history.peakDB(at: 11).map(\.isNaN) == true && history.peakDB(at: 12).map(\.isNaN) == true)
    history.add(peakDB: -10, at: 11.9)
    #expect(history.peakDB(at: 11) == -10 && history.peakDB(at: 13) == -30)
    history.add(peakDB: -40, at: 9.9)
    #expect(history.peakDB(at: 9) == nil, "before the first second kept")
  }
}
