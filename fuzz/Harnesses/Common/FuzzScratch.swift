import Foundation

/// The files a harness hands to the code under test: the readers take paths (a catalog and a WAV are memory-mapped,
/// SQLite opens a file), so each input is written to a file first. One folder per process, under
/// `FUZZ_SCRATCH_DIR` (set by scripts/fuzz.sh) or the temporary folder; each input replaces the previous one.
///
/// Thread: libFuzzer's, one input at a time.
enum FuzzScratch {
  static let folder: String = {
    let base = ProcessInfo.processInfo.environment["FUZZ_SCRATCH_DIR"] ?? NSTemporaryDirectory()
    let folder = URL(fileURLWithPath: base).appendingPathComponent("fuzz-\(getpid())").standardizedFileURL.path
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      fatalError("cannot create the scratch folder \(folder): \(error)")
    }
    return folder
  }()

  /// Writes `bytes` to `name` in the scratch folder, first removing the files whose names start with `name` (an
  /// SQLite file's -wal and -shm), and returns the file's path.
  static func write(_ bytes: UnsafeBufferPointer<UInt8>, name: String) -> String {
    let path = folder + "/" + name
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    guard FileManager.default.createFile(atPath: path, contents: Data(buffer: bytes)) else {
      fatalError("cannot write \(path)")
    }
    return path
  }
}

/// A harness's own check: the code under test must refuse bad input with an error that says what is wrong. A
/// failure stops the fuzzer as a crash would, with the input kept.
func fuzzExpect(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("fuzz expectation failed: \(message())") }
}

/// Writes the harness's seed corpus, and exits, when `FUZZ_WRITE_SEEDS` names a folder (`scripts/fuzz.sh --seeds`).
/// - Parameter seeds: file names and contents.
func writeSeedsIfAsked(_ seeds: () throws -> [(name: String, bytes: Data)]) {
  guard let folder = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] else { return }
  do {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for seed in try seeds() {
      try seed.bytes.write(to: URL(fileURLWithPath: folder).appendingPathComponent(seed.name))
    }
  } catch {
    fatalError("cannot write the seeds to \(folder): \(error)")
  }
  exit(0)
}
