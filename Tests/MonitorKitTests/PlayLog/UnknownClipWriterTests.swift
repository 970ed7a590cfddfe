import Foundation
import Synchronization
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

  @Test("Retention deletes the hidden files of a clip whose encoding was cut (kill -9), once no encoding can own them")
  func unfinishedClips() throws {
    let folder = try TemporaryDirectory(prefix: "clips")
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let files: [(name: String, ageSeconds: Double)] = [
      (".fm_2026-12-01T14-05-00.000Z.opus.s16le", 600), (".fm_2026-12-01T14-05-00.000Z.opus.partial", 600),
      (".am_2026-12-01T14-09-00.000Z_ad.opus.partial", 30), ("am_2026-12-01T14-00-00.000Z.opus", 600),
      (".hidden-notes", 600),
    ]
    for file in files {
      let path = folder.file(file.name).path
      try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes(
        [.modificationDate: now.addingTimeInterval(-file.ageSeconds)], ofItemAtPath: path)
    }
    let writer = UnknownClipWriter(
      directory: folder.url.path, settings: UnknownClipSettings(retentionDays: 90, retentionGigabytes: 1),
      sampleRateHz: 8000, log: MonitorLog(write: { _ in }))
    #expect(
      writer.applyRetention(now: now) == [
        ".fm_2026-12-01T14-05-00.000Z.opus.partial", ".fm_2026-12-01T14-05-00.000Z.opus.s16le",
      ])
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(
      left == [".am_2026-12-01T14-09-00.000Z_ad.opus.partial", ".hidden-notes", "am_2026-12-01T14-00-00.000Z.opus"],
      "an encoding that may still run, a file that is no clip's and the clip stay")
  }

  @Test(
    "Updated settings apply to the clips written next: a new folder and retention; no folder, no clip",
    .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
  func update() throws {
    let folder = try TemporaryDirectory(prefix: "clips")
    let first = folder.file("first").path
    let second = folder.file("second").path
    let writer = UnknownClipWriter(
      directory: first, settings: UnknownClipSettings(clipsDirectory: first), sampleRateHz: 8000,
      log: MonitorLog(write: { _ in }))
    let updated = UnknownClipSettings(clipsDirectory: second, retentionDays: 7, retentionGigabytes: 1)
    writer.update(settings: updated)
    #expect(writer.settings == updated)
    let tone = (0..<8000).map { Float(0.3 * sin(Double($0) * 2 * .pi * 440 / 8000)) }
    let paths = Mutex<[String?]>([])
    let name000 = UnknownClipWriter.fileName(channel: "fm", start: Date(timeIntervalSince1970: 1_800_000_000))
    writer.write(tone, name: name000, channel: "fm", of: .unknownSegment) { path in
      paths.withLock { $0.append(path) }
    }
    writer.waitUntilIdle()
    let written = try #require(paths.withLock { $0.first } ?? nil, "a clip was written")
    #expect(written.hasPrefix(second + "/fm_"))
    #expect(!FileManager.default.fileExists(atPath: first))

    writer.update(settings: UnknownClipSettings(clipsDirectory: nil))
    let name100 = UnknownClipWriter.fileName(channel: "fm", start: Date(timeIntervalSince1970: 1_800_000_100))
    writer.write(tone, name: name100, channel: "fm", of: .unknownSegment) { path in
      paths.withLock { $0.append(path) }
    }
    writer.waitUntilIdle()
    #expect(paths.withLock { $0.count == 2 && $0[1] == nil }, "no folder: no clip")
    #expect(try FileManager.default.contentsOfDirectory(atPath: second).count == 1)
  }

  @Test("A clip that cannot be written is logged once, as the catalog play's or the unknown segment's it is")
  func failureNamesItsSubject() throws {
    let folder = try TemporaryDirectory(prefix: "clips")
    let notAFolder = folder.file("file")
    try Data("x".utf8).write(to: notAFolder)
    let clips = notAFolder.path + "/clips"
    let lines = Mutex<[String]>([])
    let writer = UnknownClipWriter(
      directory: clips, settings: UnknownClipSettings(clipsDirectory: clips), sampleRateHz: 8000,
      log: MonitorLog(write: { line in lines.withLock { $0.append(line) } }))
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let play = UnknownClipWriter.fileName(channel: "fm", start: start, kind: .ad)
    let results = Mutex<[String?]>([])
    writer.write([0, 0.1], name: play, channel: "fm", of: .catalogPlay) { path in results.withLock { $0.append(path) } }
    writer.waitUntilIdle()
    let first = lines.withLock { $0 }
    #expect(first.count == 1 && first[0].contains("catalog play: clip \(play) not kept"), "\(first)")
    #expect(first.first?.contains("the play is logged without a clip") == true, "\(first)")
    #expect(results.withLock { $0 == [nil] })

    lines.withLock { $0.removeAll() }
    let segment = UnknownClipWriter.fileName(channel: "fm", start: start.addingTimeInterval(60))
    writer.write([0, 0.1], name: segment, channel: "fm", of: .unknownSegment) { _ in }
    writer.waitUntilIdle()
    #expect(lines.withLock { $0.isEmpty }, "the same failure is logged once until a clip is written")
  }

  @Test("A clip's name sorts by channel, then by time")
  func names() {
    let early = UnknownClipWriter.fileName(channel: "fm1", start: Date(timeIntervalSince1970: 1_764_597_900))
    #expect(early == "fm1_2025-12-01T14-05-00.000Z.opus")
    let later = UnknownClipWriter.fileName(channel: "fm1", start: Date(timeIntervalSince1970: 1_764_601_500))
    #expect(early < later)
    let spot = UnknownClipWriter.fileName(channel: "fm1", start: Date(timeIntervalSince1970: 1_764_597_900), kind: .ad)
    #expect(spot == "fm1_2025-12-01T14-05-00.000Z_ad.opus", "a catalog play's clip ends with its item's kind")
  }
}
