import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A read-only memory map of a whole file; unmapped when released. The pages are shared with the page cache, so
/// loading a large catalog costs no copy.
final class MappedFile: @unchecked Sendable {
  let bytes: UnsafeRawBufferPointer
  let path: String

  /// Maps the regular file at `path`. A folder, a FIFO, a socket or a device is refused without waiting on it (a FIFO
  /// would block the open until a writer came).
  /// - Parameters:
  ///   - naming: what the caller wants there, for the message when `path` is a folder ("the catalog file").
  ///   - hugePages: ask the kernel to back the map with huge pages (`MADV_HUGEPAGE`), for a file read at random, such
  ///     as a catalog's index. Where the file system caches files in large folios (ext4 since Linux 6.16, XFS), the
  ///     pages read after this are read in folios of 2 MB and mapped as such; pages already cached stay as they
  ///     were cached (`Catalog.writeChunkBytes`). Elsewhere the hint does nothing.
  init(path: String, naming wanted: String = "a file", hugePages: Bool = false) throws(FormatError) {
    self.path = path
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw FormatError(path: path, reason: "cannot open (\(String(cString: strerror(errno))))") }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw FormatError(path: path, reason: "cannot stat") }
    switch st.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw FormatError(path: path, reason: "is a folder; name \(wanted) in it")
    default:
      throw FormatError(
        path: path, reason: "not a regular file (a FIFO, socket or device); name \(wanted), which is read whole")
    }
    let size = Int(st.st_size)
    guard size > 0 else { throw FormatError(path: path, reason: "empty file") }
    guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
      throw FormatError(path: path, reason: "cannot map (\(String(cString: strerror(errno))))")
    }
    #if os(Linux)
      if hugePages { _ = madvise(base, size, MADV_HUGEPAGE) }  // a kernel without huge pages refuses it: no matter
    #endif
    bytes = UnsafeRawBufferPointer(start: base, count: size)
  }

  deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}
