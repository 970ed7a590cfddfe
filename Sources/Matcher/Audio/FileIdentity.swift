import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Which file, in which state: its device and inode, size and modification time. A file renamed into place is another
/// inode, and one written over in place has another time, unless its writer set the time back; so before a monitor
/// loads its catalog again, the catalog also compares the checksum in the file's last bytes
/// (`Catalog.isUnchangedFile`). A reload of an unchanged catalog keeps the one it runs instead of copying gigabytes
/// again beside it.
struct FileIdentity: Equatable, Sendable {
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
}
