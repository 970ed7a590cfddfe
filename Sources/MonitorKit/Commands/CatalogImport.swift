import Common
import Foundation
import Matcher
import Synchronization

/// Reads the files of a `catalog add` on `jobs` worker threads, each decoding one file at a time through its own
/// ffmpeg: the file's key, its metadata (from the sheet, or its tags) and, when the key is new, its reference
/// signature. Results come back in file order, whatever order the workers finish in, so that the catalog is the same
/// for any number of jobs.
///
/// Threads: `run` on the calling thread (which gets the results), the workers on threads of their own.
final class CatalogImport: Sendable {
  /// What reading one file gave.
  enum Outcome: Sendable {
    /// A new file, fingerprinted.
    case fingerprinted(Signature, key: String, metadata: TrackMetadata)
    /// A file whose key the catalog already has: not decoded again. `metadata` is its row of the sheet; nil without
    /// one, and the catalog's metadata stays: the file's tags are what they were when it was added (the key is the
    /// file's bytes), so reading them again could only undo what a sheet gave it since.
    case present(key: String, metadata: TrackMetadata?)
    /// Why the file could not be read.
    case failed(String)
  }

  /// Results waiting to be taken, at most this many per job: enough that a long file does not hold up the other
  /// workers, while the finished signatures held in memory stay few.
  static let pendingPerJob = 16

  private let files: [URL]
  private let fileBytes: [Int]
  private let totalBytes: Int
  private let jobs: Int
  private let fingerprinter: ReferenceFingerprinter
  private let presentKeys: Set<String>
  private let sheet: MetadataSheet?
  private let state = Mutex(State())
  /// One per result the workers may make before the caller has taken the earlier ones.
  private let slots: DispatchSemaphore
  private let ready = DispatchSemaphore(value: 0)
  private let workerEnded = DispatchSemaphore(value: 0)

  private struct State {
    var next = 0
    var results: [Int: Outcome] = [:]
    var done = 0
    var doneBytes = 0
    var audioSeconds = 0.0
    var failed = 0
  }

  /// - Parameter presentKeys: keys of tracks the catalog has: their files are not decoded, only their metadata read.
  init(
    files: [URL], jobs: Int, parameters: FingerprintParameters, presentKeys: Set<String>, sheet: MetadataSheet?
  ) {
    self.files = files
    fileBytes = files.map { ((try? FileManager.default.attributesOfItem(atPath: $0.path))?[.size] as? Int) ?? 0 }
    totalBytes = fileBytes.reduce(0, +)
    self.jobs = max(1, min(jobs, files.count))
    fingerprinter = ReferenceFingerprinter(parameters: parameters)
    self.presentKeys = presentKeys
    self.sheet = sheet
    slots = DispatchSemaphore(value: self.jobs * Self.pendingPerJob)
  }

  /// Reads every file; calls `take(index, outcome)` for each in file order, and `progress` at least every
  /// `progressSeconds` and whenever results arrive. Returns when all files are read.
  func run(
    progressSeconds: Double = 0.2, take: (Int, Outcome) -> Void, progress: (ImportProgress.Snapshot) -> Void
  ) {
    let started = ProcessCPU.wallSeconds()
    for worker in 0..<jobs {
      let thread = Thread { [self] in
        work()
        workerEnded.signal()
      }
      thread.name = "catalog-import-\(worker)"
      thread.start()
    }
    var taken = 0
    while taken < files.count {
      _ = ready.wait(timeout: .now() + progressSeconds)
      let (batch, snapshot) = state.withLock { s in
        var batch: [Outcome] = []
        while let outcome = s.results.removeValue(forKey: taken + batch.count) { batch.append(outcome) }
        let snapshot = ImportProgress.Snapshot(
          done: s.done, total: files.count, audioSeconds: s.audioSeconds, failed: s.failed,
          secondsLeft: ImportProgress.secondsLeft(
            elapsedSeconds: ProcessCPU.wallSeconds() - started, doneBytes: s.doneBytes, totalBytes: totalBytes))
        return (batch, snapshot)
      }
      for outcome in batch {
        take(taken, outcome)
        taken += 1
        slots.signal()
      }
      progress(snapshot)
    }
    for _ in 0..<jobs { workerEnded.wait() }
  }

  /// A worker: takes the next file while there is one.
  private func work() {
    while true {
      slots.wait()
      let index = state.withLock { s -> Int? in
        guard s.next < files.count else { return nil }
        s.next += 1
        return s.next - 1
      }
      guard let index else {
        slots.signal()  // the slot was not used: wake the next worker, which finds the end too
        return
      }
      let outcome = read(files[index])
      state.withLock { s in
        s.results[index] = outcome
        s.done += 1
        s.doneBytes += fileBytes[index]
        switch outcome {
        case .fingerprinted(let signature, _, _): s.audioSeconds += signature.durationSeconds
        case .present: break
        case .failed: s.failed += 1
        }
      }
      ready.signal()
    }
  }

  private func read(_ file: URL) -> Outcome {
    do {
      let key = try ReferenceFingerprinter.key(ofFileAt: file.path)
      let listed = sheet?.metadata(for: file)
      if presentKeys.contains(key) {
        return .present(key: key, metadata: listed)
      }
      let signature: Signature
      let metadata: TrackMetadata
      if let listed {
        (signature, metadata) = (try fingerprinter.signature(ofFileAt: file.path), listed)
      } else {
        let (read, tags) = try fingerprinter.signatureAndTags(ofFileAt: file.path)
        (signature, metadata) = (read, AudioTags.metadata(tags: tags, path: file.path))
      }
      return Self.withoutPeaks(signature, file) ?? .fingerprinted(signature, key: key, metadata: metadata)
    } catch {
      return .failed("\(error)")
    }
  }

  /// A failure for a recording without a single spectral peak, which no broadcast could ever match: digital silence,
  /// or a file that decodes to something other than its audio (a WAV whose header names the wrong encoding).
  private static func withoutPeaks(_ signature: Signature, _ file: URL) -> Outcome? {
    guard signature.peaks.isEmpty else { return nil }
    return .failed(
      "\(file.path): no fingerprint in its \(String(format: "%.1f", signature.durationSeconds)) s: the audio as "
        + "decoded is silent or not sound, and could never be matched; check that the file plays as it should")
  }
}
