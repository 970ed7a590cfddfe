import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("ReferenceFingerprinter")
struct ReferenceFingerprinterTests {
  /// Sizes: one byte, under one checksum block, and two and a half chunks (`keyChunkBytes`) and 7 bytes.
  @Test(
    "A file's key, read a chunk at a time, is the checksum of all its bytes at once", arguments: [1, 31, 2_621_447])
  func keyOfChunks(byteCount: Int) throws {
    var generator = SeededGenerator(seed: UInt64(byteCount))
    let bytes = (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let folder = try TemporaryDirectory()
    let url = folder.file("song.ogg")
    try Data(bytes).write(to: url)
    let key = try ReferenceFingerprinter.key(ofFileAt: url.path)
    #expect(key == String(format: "%016llx", Checksum64.of(bytes)))
  }

  @Test("A file cut short after it was opened has no key: an error that says so, not the key of a part, nor a crash")
  func keyOfFileCutShort() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("song.ogg")
    try Data(repeating: 42, count: 3 * ReferenceFingerprinter.keyChunkBytes).write(to: url)
    let file = try ReadOnlyFile(path: url.path)
    #expect(truncate(url.path, off_t(ReferenceFingerprinter.keyChunkBytes + 10)) == 0)
    let error = #expect(throws: FormatError.self) { try ReferenceFingerprinter.key(of: file) }
    #expect(error?.reason.contains("cut short while it was read") == true, "\(String(describing: error))")
  }

  @Test("An empty file, or a folder, has no key")
  func noKey() throws {
    let folder = try TemporaryDirectory()
    let empty = folder.file("empty.ogg")
    try Data().write(to: empty)
    for path in [empty.path, folder.url.path] {
      let error = #expect(throws: AudioError.self) { try ReferenceFingerprinter.key(ofFileAt: path) }
      #expect(error != nil, "\(path)")
    }
  }
}
