import CSQLite
import Foundation
import Testing

@testable import Reports

@Suite("PlayLogReader")
struct PlayLogReaderTests {
  static func play(_ channel: String, _ start: Int64, _ title: String) -> PlayRecord {
    PlayRecord(
      channel: channel, itemKey: "k-\(title)", title: title, start: Date(millisecondsSince1970: start),
      end: Date(millisecondsSince1970: start + 1000), confidence: 0.9,
      detectedAt: Date(millisecondsSince1970: start + 500), status: .closed)
  }

  @Test("A scan in small chunks reads every play once, in air order, also when many share a start time")
  func chunks() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      var expected: [(Int64, String)] = []
      for start: Int64 in [5_000, 1_000, 1_000, 1_000, 1_000, 1_000, 2_000, 3_000, 3_000, 4_000] {
        for channel in ["b", "a"] {
          try store.record(Self.play(channel, start, "t\(start)"))
          expected.append((start, channel))
        }
      }
      expected.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
      for chunkRows in [1, 3, 4, 10_000] {
        let reader = try PlayLogReader(path: path, chunkRows: chunkRows)
        let channels = try reader.channels()
        var seen: [(Int64, String)] = []
        try reader.forEachPlay(channelID: nil, fromMilliseconds: 0, toMilliseconds: 10_000) { play in
          seen.append((play.startMilliseconds, channels[play.channelID]!))
        }
        #expect(seen.map(\.0) == expected.map(\.0), "chunkRows \(chunkRows)")
        #expect(seen.map(\.1) == expected.map(\.1), "chunkRows \(chunkRows)")
        var ids: [Int64] = []
        let a = try #require(channels.first { $0.value == "a" }?.key)
        try reader.forEachPlay(channelID: a, fromMilliseconds: 1_000, toMilliseconds: 4_000) { ids.append($0.id) }
        #expect(ids.count == 8 && Set(ids).count == 8, "chunkRows \(chunkRows)")
      }
    }
  }

  @Test("An item kind the play log holds that is no ItemKind is refused, naming the word and the column")
  func unknownItemKind() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      try store.record(Self.play("fm", 1_000, "x"))
      try store.database.run("UPDATE catalog_items SET kind = 'advert'")
      let error = try #require(throws: SQLiteError.self) { try PlayLogReader(path: path).items() }
      #expect(error.code == SQLITE_MISMATCH && error.message.contains("column kind holds \"advert\""), "\(error)")
      #expect(throws: SQLiteError.self) { try store.plays() }
    }
  }

  @Test("Between chunks the reader holds no read transaction: the writer commits and checkpoints the WAL fully")
  func writerIsNeverHeldBack() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      for start in stride(from: Int64(0), to: 100_000, by: 1_000) { try store.record(Self.play("fm", start, "x")) }
      let reader = try PlayLogReader(path: path, chunkRows: 10)
      var count = 0
      var checkpoints: [[Int64]] = []
      try reader.forEachPlay(channelID: nil, fromMilliseconds: 0, toMilliseconds: 1_000_000) { play in
        count += 1
        if count % 10 == 5 {
          // The writer adds a play (later than the scan's end) and checkpoints the whole WAL into the file.
          try store.record(Self.play("fm", 2_000_000 + play.startMilliseconds, "y"))
          let row = try #require(try store.database.firstRow("PRAGMA wal_checkpoint(TRUNCATE)"))
          checkpoints.append([try row.int64(0), try row.int64(1), try row.int64(2)])
        }
      }
      #expect(count == 100)
      #expect(checkpoints.count == 10)
      // busy = 0: no reader kept the checkpoint from finishing.
      #expect(checkpoints.allSatisfy { $0[0] == 0 }, "\(checkpoints)")
    }
  }

  @Test("The reader's connection is read-only: it cannot take the write lock")
  func readOnly() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      try PlayLogStore(path: path).record(Self.play("fm", 0, "x"))
      let reader = try PlayLogReader(path: path)
      #expect(reader.database.isReadOnly)
      let error = try #require(throws: SQLiteError.self) { try reader.database.run("DELETE FROM plays") }
      #expect(error.code & 0xFF == SQLITE_READONLY)
    }
  }

  @Test("A missing file, a file that is not a play log and one from a newer version are refused by name")
  func refusals() throws {
    try withTemporaryDirectory { folder in
      let missing = folder.appendingPathComponent("missing.sqlite").path
      let noFile = try #require(throws: SQLiteError.self) { try PlayLogReader(path: missing) }
      #expect(noFile.description.contains(missing) && noFile.description.contains("no such file"))
      #expect(!FileManager.default.fileExists(atPath: missing))

      let folderError = try #require(throws: SQLiteError.self) { try PlayLogReader(path: folder.path) }
      #expect(folderError.description.contains("is a folder, not a play log") && folderError.isUnusableFile)

      let other = folder.appendingPathComponent("other.sqlite").path
      let database = try SQLiteDatabase(path: other)
      try database.execute("CREATE TABLE t(x)")
      try database.close()
      let notLog = try #require(throws: SQLiteError.self) { try PlayLogReader(path: other) }
      #expect(notLog.description.contains("no play log tables"))

      let newer = folder.appendingPathComponent("newer.sqlite").path
      try PlayLogStore(path: newer).database.run(
        "INSERT INTO schema_migrations(id, applied_at_ms) VALUES('999_future', 0)")
      #expect(throws: MigrationError.self) { try PlayLogReader(path: newer) }
    }
  }
}
