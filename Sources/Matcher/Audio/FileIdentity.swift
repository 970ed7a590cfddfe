import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Which file, in which state: its device and inode, size and modification time. A file renamed into place is another
/// inode, and one written over in place has another time, so an equal identity means the same bytes, short of a
/// write that sets the time back. The monitor asks it before it loads its catalog again: a reload of an unchanged
/// catalog keeps the one it runs instead of copying gigabytes again beside it.
package struct FileIdentity: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64
  let bytes: Int64
  let modifiedNanoseconds: Int64

  init(_ st: stat) {
    device = UInt64(st.st_dev)
    inode = UInt64(st.st_ino)
    bytes = Int64(st.st_size)
    modifiedNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
  }

  /// The identity of the file at `path` now (following links), or nil when it cannot be read.
  package init?(path: String) {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    self.init(st)
  }
}
