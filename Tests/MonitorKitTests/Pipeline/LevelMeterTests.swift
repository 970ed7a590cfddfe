import Testing

@testable import MonitorKit

@Suite("LevelMeter")
struct LevelMeterTests {
  static let second: UInt64 = 1_000_000_000

  @Test("a peak falls back at 20 dB a second while quieter peaks come")
  func fallsBack() {
    var meter = LevelMeter()
    #expect(meter.reading(peakDB: -6, atNanoseconds: Self.second) == -6)
    #expect(meter.reading(peakDB: -40, atNanoseconds: Self.second + Self.second / 2) == -16)
    #expect(meter.reading(peakDB: -20, atNanoseconds: 2 * Self.second) == -20)
  }

  @Test("digital silence reads -inf once the last peak has fallen below the meter's floor, not -300 dBFS")
  func silenceReadsMinusInfinity() {
    var meter = LevelMeter()
    _ = meter.reading(peakDB: -3, atNanoseconds: Self.second)
    #expect(meter.reading(peakDB: -.infinity, atNanoseconds: 2 * Self.second) == -23)
    let later = meter.reading(peakDB: -.infinity, atNanoseconds: 16 * Self.second)
    #expect(later == -.infinity, "\(later)")
  }
}
