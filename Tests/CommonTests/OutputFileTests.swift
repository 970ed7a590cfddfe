import Foundation
import TestSupport
import Testing

@testable import Common

@Suite("OutputFile")
struct OutputFileTests {
  let folder: TemporaryDirectory
  init() throws { folder = try TemporaryDirectory(prefix: "output-file") }

  func status(_ path: String) -> stat {
    var info = stat()
    #expect(stat(path, &info) == 0, "stat \(path)")
    return info
  }

  @Test("a file written to replace another gets the old file's permissions, and as root its owner and group")
  func replacementKeepsAccess() throws {
    let old = folder.file("music.bmcat").path
    #expect(FileManager.default.createFile(atPath: old, contents: Data("old".utf8)))
    #expect(chmod(old, 0o640) == 0)
    let isRoot = getuid() == 0
    if isRoot { #expect(chown(old, 4321, 8765) == 0) }

    let replacement = folder.file(".music.bmcat.tmp").path
    let descriptor = open(replacement, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    OutputFile.keepAccess(of: old, on: descriptor)

    let kept = status(replacement)
    #expect(kept.st_mode & 0o7777 == 0o640)
    if isRoot {
      #expect(kept.st_uid == 4321)
      #expect(kept.st_gid == 8765)
    }
  }

  @Test("a file that replaces nothing keeps the mode it was created with")
  func nothingToKeep() throws {
    let replacement = folder.file("new.csv.partial").path
    let descriptor = open(replacement, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    OutputFile.keepAccess(of: folder.file("new.csv").path, on: descriptor)
    #expect(status(replacement).st_mode & 0o7777 == 0o600)
  }
}
