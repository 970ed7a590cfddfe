import Foundation
import Testing

@testable import Reports

@Suite("ReportRowEncoder")
struct ReportRowEncoderTests {
  @Test("Numbers, durations and times are the bytes FixedDecimal and LocalCalendar.format give")
  func sameAsStrings() {
    let calendar = LocalCalendar(
      timeZone: .toronto, fromMilliseconds: 1_772_000_000_000, toMilliseconds: 1_773_000_000_000)
    var encoder = ReportRowEncoder(style: .csv)
    var expected: [String] = []
    for value in [0, 1, 1.04, 0.98765, -0.0004, -2.5, 123_456.789_5, 0.0005, 1e20, .nan] {
      for places in [0, 3, 4] {
        encoder.append(value, places: places)
        expected.append(FixedDecimal.format(value, places: places))
      }
    }
    for milliseconds: Int64 in [0, 1, 999, 1000, 180_000, 12_345_678, -5, -1500] {
      encoder.append(milliseconds: milliseconds)
      expected.append(FixedDecimal.format(Double(milliseconds) / 1000, places: 3))
    }
    for time: Int64 in [1_772_953_199_999, 1_772_953_200_000, 0, -1, 253_402_300_800_000] {
      encoder.append(time: time, on: calendar)
      expected.append(calendar.format(time))
    }
    #expect(String(decoding: encoder.bytes, as: UTF8.self) == expected.joined(separator: ","))
  }

  @Test("Text cells follow the sink: quoted and neutralized for CSV; for pipes only separators cleaned, data kept")
  func text() {
    var csv = ReportRowEncoder(style: .csv)
    var pipe = ReportRowEncoder(style: .pipe)
    for text in ["plain", "=1+1", "a,b", "say \"hi\"", "x|y\r\nz\t"] {
      csv.append(text: text)
      pipe.append(text: text)
    }
    #expect(String(decoding: csv.bytes, as: UTF8.self) == "plain,'=1+1,\"a,b\",\"say \"\"hi\"\"\",\"x|y\r\nz\t\"")
    #expect(String(decoding: pipe.bytes, as: UTF8.self) == "plain|=1+1|a,b|say \"hi\"|x y  z ")
  }
}
