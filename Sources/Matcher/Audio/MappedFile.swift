import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A read-only memory map of a whole file; unmapped when released. The pages are shared with the page cache, so
/// loading a large catalog costs no copy; or, for a process that holds the file for days, the file's bytes read into a
/// map of the process's own memory (`ownCopy`).
final class MappedFile: @unchecked Sendable {
  let bytes: UnsafeRawBufferPointer
  let path: String
  /// The file as it was when it was opened.
  let identity: FileIdentity

  /// Maps the regular file at `path`. A folder, a FIFO, a socket or a device is refused without waiting on it (a FIFO
  /// would block the open until a writer came).
  /// - Parameters:
  ///   - naming: what the caller wants there, for the message when `path` is a folder ("the catalog file").
  ///   - hugePages: ask the kernel to back the map with huge pages (`MADV_HUGEPAGE`), for a file read at random, such
  ///     as a catalog's index. Where the file system caches files in large folios (ext4 since Linux 6.16, XFS), the
  ///     pages read after this are read in folios of 2 MB and mapped as such; pages already cached stay as they
  ///     were cached (`Catalog.writeChunkBytes`). Elsewhere the hint does nothing.
  ///   - ownCopy: read the file into anonymous memory (with `hugePages`, advised before it is touched, so that it is
  ///     made of huge pages) instead of mapping it. Then nothing done to the file later reaches the bytes: a map of a
  ///     file that is cut short (a new catalog copied into the one a monitor runs on, where it should have been
  ///     renamed over it) kills the process with `SIGBUS` at its next read past the new end, and a map of a file
  ///     written in place would hand the process bytes that its checks never saw. It costs the copy, and memory
  ///     beside the page cache's copy of the file, which the kernel may drop.
  init(path: String, naming wanted: String = "a file", hugePages: Bool = false, ownCopy: Bool = false)
    throws(FormatError)
  {
    self.path = path
    let file = try ReadOnlyFile(path: path, naming: wanted)
    identity = file.identity
    let size = file.byteCount
    guard size > 0 else { throw FormatError(path: path, reason: "empty file") }
    let base =
      ownCopy
      ? mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
      : mmap(nil, size, PROT_READ, MAP_PRIVATE, file.descriptor, 0)
    guard let base, base != MAP_FAILED else {
      throw FormatError(
        path: path,
        reason: ownCopy
          ? "cannot allocate \(size) bytes to hold it (\(String(cString: strerror(errno))))"
          : "cannot map (\(String(cString: strerror(errno))))")
    }
    #if os(Linux)
      if hugePages { _ = madvise(base, size, MADV_HUGEPAGE) }  // a kernel without huge pages refuses it: no matter
    #endif
    if ownCopy {
      do throws(FormatError) {
        try file.readWhole(into: base, bytes: size, at: 0)
      } catch {
        munmap(base, size)
        throw error
      }
      mprotect(base, size, PROT_READ)
    }
    bytes = UnsafeRawBufferPointer(start: base, count: size)
  }

  deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}
