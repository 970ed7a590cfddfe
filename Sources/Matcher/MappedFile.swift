import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A read-only memory map of a whole file; unmapped when released. The pages are shared with the page cache, so
/// loading a large catalog costs no copy.
final class MappedFile: @unchecked Sendable {
  let bytes: UnsafeRawBufferPointer
  let path: String

  init(path: String) throws(FormatError) {
    self.path = path
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw FormatError(path: path, reason: "cannot open (\(String(cString: strerror(errno))))") }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw FormatError(path: path, reason: "cannot stat") }
    let size = Int(st.st_size)
    guard size > 0 else { throw FormatError(path: path, reason: "empty file") }
    guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
      throw FormatError(path: path, reason: "cannot map (\(String(cString: strerror(errno))))")
    }
    bytes = UnsafeRawBufferPointer(start: base, count: size)
  }

  deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}
