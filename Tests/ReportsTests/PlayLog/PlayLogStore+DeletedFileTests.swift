import Foundation
import Testing

@testable import Reports

/// The play log's file deleted, or replaced, while the store has it open.
@Suite("PlayLogStore, its file deleted while in use")
struct PlayLogStoreDeletedFileTests {
  @Test(
    "a play log deleted while in use is written back whole at the next write, and says so once",
    arguments: [["plays.sqlite"], ["plays.sqlite", "plays.sqlite-wal", "plays.sqlite-shm"]])
  func deletedFileWrittenBack(removed: [String]) throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      try store.record(PlayLogStoreTests.play(itemKey: "first", start: 0))
      try store.recordEvent(channel: "CKUA", kind: .gap, start: PlayLogStoreTests.time(10_000), detail: "no audio")
      for name in removed { unlink(folder.appendingPathComponent(name).path) }
      #expect(!FileManager.default.fileExists(atPath: path))

      try store.record(PlayLogStoreTests.play(itemKey: "second", start: 200_000))
      #expect(FileManager.default.fileExists(atPath: path), "written back")
      #expect(store.takeNotices().map { $0.contains("was deleted while in use: written back") } == [true])
      #expect(store.takeNotices().isEmpty, "said once")
      try store.record(PlayLogStoreTests.play(itemKey: "third", start: 400_000))
      #expect(store.takeNotices().isEmpty, "the file is where it was again")

      let reader = try PlayLogStore(path: path)
      #expect(try reader.plays().map(\.itemKey) == ["first", "second", "third"])
      let gap = try reader.recordedEventID(
        channel: "CKUA", kind: .gap, start: PlayLogStoreTests.time(10_000), end: nil, detail: "no audio")
      #expect(gap != nil)
      #expect(!FileManager.default.fileExists(atPath: path + ".restoring"))
    }
  }

  @Test("a play log replaced while in use is not written over: the write fails, naming the fix")
  func replacedFileRefused() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      try store.record(PlayLogStoreTests.play(itemKey: "first", start: 0))
      let other = folder.appendingPathComponent("other.sqlite").path
      try PlayLogStore(path: other).close()
      unlink(path)
      #expect(rename(other, path) == 0)
      let error = #expect(throws: SQLiteError.self) {
        try store.record(PlayLogStoreTests.play(itemKey: "second", start: 200_000))
      }
      #expect(error?.description.contains("the file was replaced while in use") == true, "\(String(describing: error))")
      #expect(error?.description.contains("Restart broadcast-monitor") == true)
      #expect(try PlayLogStore(path: path).plays().isEmpty, "the file now at the path is left as it was")
      let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
        $0.hasPrefix("plays.sqlite.replaced-")
      }
      #expect(kept.count == 1, "\(kept)")
      let keptPlays = try PlayLogStore(path: folder.appendingPathComponent(kept.first ?? "").path).plays()
      #expect(keptPlays.map(\.itemKey) == ["first"], "what was written before is kept beside it")
      #expect(throws: SQLiteError.self, "and the next write fails the same way") {
        try store.record(PlayLogStoreTests.play(itemKey: "third", start: 400_000))
      }
    }
  }
}
