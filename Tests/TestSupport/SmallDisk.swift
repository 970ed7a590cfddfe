import Foundation

/// A real file system of 1 MB (a tmpfs mounted in `folder`), for tests of a full disk: `fill()` writes a file until
/// the disk has no block left, and removing that file gives the room back. Mounting needs root; the mount goes with
/// the value (a lazy unmount, so that a process still holding a file there does not keep it): keep the value alive to
/// the end of the test (`withExtendedLifetime`).
public final class SmallDisk {
  /// The mount point.
  public let url: URL

  public init(in folder: TemporaryDirectory) throws {
    url = folder.file("disk")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let mount = try Subprocess.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", url.path])
    guard mount.status == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot mount a tmpfs: \(mount)"])
    }
  }

  deinit { _ = try? Subprocess.run("umount", ["-l", url.path]) }

  /// A path on the disk.
  public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// Fills the disk to its last block with a file, and returns that file: remove it to free the space.
  @discardableResult
  public func fill() throws -> URL {
    let filler = file("filler")
    _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
    let handle = try FileHandle(forWritingTo: filler)
    let block = Data(count: 4096)
    while (try? handle.write(contentsOf: block)) != nil {}
    try? handle.close()
    return filler
  }
}
