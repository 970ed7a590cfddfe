import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("UnknownClipWriter")
struct UnknownClipWriterTests {
  @Test("Retention deletes the clips older than its days, then the oldest until the rest fit its gigabytes")
  func retention() throws {
    let folder = try TemporaryDirectory(prefix: "clips")
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    // Names that sort otherwise than their times: retention goes by age, not by name.
    let clips: [(name: String, ageDays: Double)] = [
      ("am_c.opus", 100), ("fm_a.opus", 5), ("am_b.opus", 3), ("fm_d.opus", 1), ("am_e.opus", 0.5),
    ]
    for clip in clips {
      let path = folder.file(clip.name).path
      try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes(
        [.modificationDate: now.addingTimeInterval(-clip.ageDays * 86400)], ofItemAtPath: path)
    }
    try Data(repeating: 1, count: 5000).write(to: folder.file("notes.txt"))  // not a clip: left alone
    let writer = UnknownClipWriter(
      directory: folder.url.path, settings: UnknownClipSettings(retentionDays: 90, retentionGigabytes: 3.5e-6),
      sampleRateHz: 8000, log: MonitorLog(write: { _ in }))
    #expect(writer.applyRetention(now: now) == ["am_c.opus", "fm_a.opus"])
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(left == ["am_b.opus", "am_e.opus", "fm_d.opus", "notes.txt"])
    #expect(writer.applyRetention(now: now).isEmpty, "what is left fits")
  }

  @Test("A clip's name sorts by channel, then by time")
  func names() {
    let early = UnknownClipWriter.fileName(channel: "fm1", start: Date(timeIntervalSince1970: 1_764_597_900))
    #expect(early == "fm1_2025-12-01T14-05-00.000Z.opus")
    let later = UnknownClipWriter.fileName(channel: "fm1", start: Date(timeIntervalSince1970: 1_764_601_500))
    #expect(early < later)
  }
}
