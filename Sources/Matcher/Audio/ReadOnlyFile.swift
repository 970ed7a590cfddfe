import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A regular file open for reading, closed when released. Its bytes are read with `pread`, never through a map: a
/// file cut shorter while it is read then reads short, which the reader reports, where a map read past the file's new
/// end kills the process (`SIGBUS`). Everything read comes from this one open file, so a file renamed over the path
/// meanwhile is not read in part.
final class ReadOnlyFile: @unchecked Sendable {
  let descriptor: Int32
  let path: String
  /// The file as it was when it was opened.
  let identity: FileIdentity
  /// Its size when it was opened.
  var byteCount: Int { Int(identity.bytes) }

  /// Opens the regular file at `path`. A folder, a FIFO, a socket or a device is refused without waiting on it (a FIFO
  /// would block the open until a writer came).
  /// - Parameter wanted: what the caller wants there, for the message when `path` is a folder ("the catalog file").
  init(path: String, naming wanted: String = "a file") throws(FormatError) {
    self.path = path
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw FormatError(path: path, reason: "cannot open (\(String(cString: strerror(errno))))") }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      close(fd)
      throw FormatError(path: path, reason: "cannot stat")
    }
    switch st.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR:
      close(fd)
      throw FormatError(path: path, reason: "is a folder; name \(wanted) in it")
    default:
      close(fd)
      throw FormatError(
        path: path, reason: "not a regular file (a FIFO, socket or device); name \(wanted), which is read whole")
    }
    descriptor = fd
    identity = FileIdentity(st)
  }

  deinit { close(descriptor) }

  /// Reads up to `bytes` bytes at `offset` into `buffer`, in as many `pread` calls as it takes: the bytes read, fewer
  /// only at the file's end. A failed call is an error that says why.
  func read(into buffer: UnsafeMutableRawPointer, bytes: Int, at offset: Int) throws(FormatError) -> Int {
    var done = 0
    while done < bytes {
      let n = pread(descriptor, buffer + done, bytes - done, off_t(offset + done))
      if n > 0 {
        done += n
      } else if n == 0 {
        break
      } else if errno != EINTR {
        throw FormatError(path: path, reason: "cannot read (\(String(cString: strerror(errno))))")
      }
    }
    return done
  }

  /// Reads all `bytes` bytes at `offset` into `buffer`; a file that ends sooner (cut short since it was opened) or a
  /// failed read is an error that says so.
  func readWhole(into buffer: UnsafeMutableRawPointer, bytes: Int, at offset: Int) throws(FormatError) {
    let n = try read(into: buffer, bytes: bytes, at: offset)
    guard n == bytes else {
      throw FormatError(
        path: path,
        reason: "cut short while it was read (\(offset + n) of \(byteCount) bytes): it is being written or copied; "
          + "put a new file in place by renaming it over this one, and read it once it is whole")
    }
  }
}
