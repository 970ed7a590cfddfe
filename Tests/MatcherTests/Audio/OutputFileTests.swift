import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("OutputFile")
struct OutputFileTests {
  let folder: TemporaryDirectory
  init() throws { folder = try TemporaryDirectory(prefix: "output-file") }

  @Test("A FIFO is special; a regular file, a missing name and a link to a regular file are not")
  func special() throws {
    let fifo = folder.file("fifo").path
    try #require(mkfifo(fifo, 0o644) == 0)
    let file = folder.file("file.csv").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let link = folder.file("link.csv").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    #expect(OutputFile.isSpecial(fifo))
    #expect(!OutputFile.isSpecial(file))
    #expect(!OutputFile.isSpecial(link))
    #expect(!OutputFile.isSpecial(folder.file("missing.csv").path))
  }

  @Test("A link is replaced through its target, so that it stays a link; a missing name is itself")
  func replaceablePath() throws {
    let file = folder.file("file.csv").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let link = folder.file("link.csv").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    #expect(OutputFile.replaceablePath(link) == OutputFile.replaceablePath(file))
    #expect(OutputFile.replaceablePath(link).hasSuffix("/file.csv"))
    #expect(OutputFile.replaceablePath(folder.file("new.csv").path) == folder.file("new.csv").path)
  }

  @Test("openInPlace creates a missing file, truncates a regular one, and names the file and cause when it cannot")
  func openInPlace() throws {
    let file = folder.file("out.csv").path
    for text in ["a longer first text", "short"] {
      let handle = try OutputFile.openInPlace(file)
      try handle.write(contentsOf: Data(text.utf8))
      try handle.close()
      #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
    }
    let missing = folder.file("no-such-folder/out.csv").path
    #expect {
      _ = try OutputFile.openInPlace(missing)
    } throws: { error in
      "\(error)" == "cannot write \(missing) (No such file or directory): check that the folder exists and is writable"
    }
  }

  @Test("A signature written to a FIFO goes into the FIFO, which stays a FIFO")
  func signatureToFIFO() throws {
    let fifo = try FIFOReader(path: folder.file("signature.fifo").path)
    let signature = Signature(
      parameters: FingerprintParameters(), sampleCount: 8000, peaks: [], audibleStartSeconds: 0,
      audibleEndSeconds: 1)
    try signature.write(to: URL(fileURLWithPath: fifo.path))
    #expect(fifo.text() != nil, "the FIFO was closed")
    #expect(try Signature(contentsOf: URL(fileURLWithPath: fifo.path + ".read")) == signature)
    #expect(fifo.isFIFO)
  }

  @Test("A catalog written through a symbolic link replaces the file the link names, and the link stays")
  func catalogThroughLink() throws {
    let songs = (1...2).map { SyntheticSong(seed: UInt64($0), seconds: 5) }
    let target = folder.file("v1.bmcat")
    try MatcherHarness.catalog(of: [songs[0]]).write(to: target)
    let link = folder.file("current.bmcat")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
    try MatcherHarness.catalog(of: songs).write(to: link)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
    #expect(try Catalog.load(from: target).tracks.count == 2)
  }

  @Test("A catalog is never written over something that is not a regular file")
  func catalogToFIFO() throws {
    let fifo = folder.file("catalog.fifo").path
    try #require(mkfifo(fifo, 0o644) == 0)
    let catalog = try MatcherHarness.catalog(of: [SyntheticSong(seed: 7, seconds: 5)])
    #expect {
      try catalog.write(to: URL(fileURLWithPath: fifo))
    } throws: { error in
      "\(error)" == "\(fifo): not a regular file: a catalog is written to a file of its own"
    }
    #expect(OutputFile.isSpecial(fifo))
  }
}
