import Foundation

/// A FIFO (named pipe) in a test's folder with `cat` reading it into a file: what a program writes into the FIFO
/// ends up in `text()`, and the FIFO stays a FIFO unless the program replaced it.
///
/// Threads: use from one thread at a time.
public final class FIFOReader {
  public struct MakeError: Error, CustomStringConvertible {
    public let description: String
  }

  /// The FIFO's path.
  public let path: String
  private let reader: BackgroundProcess

  /// Makes the FIFO at `path` and starts reading it; what is read goes to `path` + ".read".
  public init(path: String) throws {
    guard mkfifo(path, 0o644) == 0 else {
      throw MakeError(description: "mkfifo \(path): \(String(cString: strerror(errno)))")
    }
    self.path = path
    reader = try BackgroundProcess(executable: "/bin/cat", arguments: [path], outputPath: path + ".read")
  }

  /// Waits up to `seconds` for the writer to close the FIFO; returns what was read, nil if it is still open.
  public func text(within seconds: Double = 10) -> String? {
    reader.waitForExit(seconds: seconds) == 0 ? reader.output : nil
  }

  /// Whether `path` is still a FIFO.
  public var isFIFO: Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
  }
}
