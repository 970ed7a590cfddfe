import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("ReadOnlyFile")
struct ReadOnlyFileTests {
  @Test("A folder, or a FIFO, is refused at once, with what to name instead")
  func notARegularFile() throws {
    let folder = try TemporaryDirectory()
    let fifo = folder.file("pipe")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let folderError = #expect(throws: FormatError.self) {
      try ReadOnlyFile(path: folder.url.path, naming: "the catalog file")
    }
    #expect(folderError?.reason == "is a folder; name the catalog file in it")
    let fifoError = #expect(throws: FormatError.self) { try ReadOnlyFile(path: fifo.path) }
    #expect(fifoError?.reason.contains("not a regular file") == true)
    let missing = #expect(throws: FormatError.self) { try ReadOnlyFile(path: folder.file("none").path) }
    #expect(missing?.reason.contains("cannot open") == true)
  }

  @Test("Reads come from the file as it was opened; one cut short since then reads short, and readWhole says so")
  func cutShort() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("data")
    try Data((0..<100).map { UInt8($0) }).write(to: url)
    let file = try ReadOnlyFile(path: url.path)
    #expect(file.byteCount == 100)
    var buffer = [UInt8](repeating: 0, count: 40)
    try buffer.withUnsafeMutableBytes { try file.readWhole(into: $0.baseAddress!, bytes: 40, at: 50) }
    #expect(buffer == (50..<90).map { UInt8($0) })
    #expect(truncate(url.path, 60) == 0)
    let read = try buffer.withUnsafeMutableBytes { try file.read(into: $0.baseAddress!, bytes: 40, at: 50) }
    #expect(read == 10)
    let error = #expect(throws: FormatError.self) {
      try buffer.withUnsafeMutableBytes { try file.readWhole(into: $0.baseAddress!, bytes: 40, at: 50) }
    }
    #expect(error?.reason.hasPrefix("cut short while it was read (60 of 100 bytes)") == true)
  }
}
