import Foundation

@testable import Reports

// Fuzzes opening a damaged play log as the monitor does when it starts (Monitor.swift): `PlayLogStore` opens the
// SQLite file and brings its schema up to date (Migrations), the plays a stopped monitor left open are recovered,
// the restart event is written, then a play is recorded and closed. Every input is an SQLite file, from play logs
// written by this version. A file must either work or be refused with an error that says what is wrong; a crash, a
// hang or an allocation without bound is a finding.

let minute = Date(timeIntervalSince1970: 1_790_000_000)

func play(_ channel: String, _ key: String, at offset: Double, status: PlayStatus) -> PlayRecord {
  PlayRecord(
    channel: channel, itemKey: key, title: "Title \(key)", artist: "Artist", album: "Album", isrc: "ZZ0000000001",
    label: "Label", kind: .song, attributes: ["bpm": "120"], itemDurationSeconds: 180,
    start: minute.addingTimeInterval(offset), end: minute.addingTimeInterval(offset + 170), refOffsetSeconds: 2,
    speed: 1.01, confidence: 0.9, detectedAt: minute.addingTimeInterval(offset + 10), status: status)
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  writeSeedsIfAsked {
    // A play log left by a monitor that was killed while two plays were open, and one whose plays were all closed.
    func written(_ plays: [PlayRecord], events: Bool) throws -> Data {
      let path = FuzzScratch.folder + "/seed.sqlite"
      for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
      let store = try PlayLogStore(path: path)
      try store.record(contentsOf: plays)
      if events {
        try store.recordEvent(channel: nil, kind: .restart, start: minute, detail: "broadcast-monitor started")
        try store.recordEvent(
          channel: "fm1", kind: .gap, start: minute, end: minute.addingTimeInterval(5), detail: "no audio")
      }
      try store.close()
      return try Data(contentsOf: URL(fileURLWithPath: path))
    }
    return [
      (
        "killed.sqlite",
        try written(
          [
            play("fm1", "a", at: 0, status: .closed), play("fm1", "b", at: 200, status: .open),
            play("fm2", "a", at: 30, status: .open),
          ], events: true)
      ),
      ("closed.sqlite", try written([play("fm1", "c", at: 0, status: .closed)], events: false)),
    ]
  }
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlayLog(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let path = FuzzScratch.write(UnsafeBufferPointer(start: data, count: size), name: "plays.sqlite")
  do {
    let store = try PlayLogStore(path: path)
    let recovered = try store.recoverOpenPlays()
    try store.recordEvent(channel: nil, kind: .restart, start: Date(), detail: "recovered \(recovered.count)")
    let id = try store.record(play("fm1", "z", at: 400, status: .open))
    try store.update(
      playID: id, end: minute.addingTimeInterval(600), refOffsetSeconds: 3, speed: 1, confidence: 0.95,
      status: .closed)
    try store.close()
  } catch {
    fuzzExpect(!"\(error)".isEmpty, "a refusal without a reason")
  }
  return 0
}
