import Foundation

/// The progress of `catalog add` on stderr: tracks done of the total, hours of audio fingerprinted, failures, and the
/// time left, estimated from the bytes of the files done so far. On a terminal the line is rewritten in place; into a
/// file or pipe, one line is written per `linesEvery(total:)` tracks, and one at the end.
///
///     catalog add: 120/1000 tracks, 7.95 h of audio, 2 failed, about 3 min 05 s left
///
/// Main thread only.
final class ImportProgress {
  /// What has been done so far.
  struct Snapshot: Equatable {
    var done: Int
    var total: Int
    var audioSeconds: Double
    var failed: Int
    /// Nil until a file is done.
    var secondsLeft: Double?
  }

  private let reporter = ProgressReporter()
  private let isTerminal = isatty(STDERR_FILENO) != 0
  private var lastLineDone = 0

  /// Shows `snapshot`: in place on a terminal; as a line when it crosses a multiple of `linesEvery` tracks, or ends.
  func show(_ snapshot: Snapshot) {
    if isTerminal {
      reporter.update(Self.line(snapshot), force: snapshot.done == snapshot.total)
      return
    }
    let every = Self.linesEvery(total: snapshot.total)
    guard snapshot.done > lastLineDone,
      snapshot.done / every > lastLineDone / every || snapshot.done == snapshot.total
    else { return }
    lastLineDone = snapshot.done
    printError(Self.line(snapshot))
  }

  /// Writes `message` on a line of its own (a terminal's progress line is ended first).
  func message(_ message: String) {
    reporter.finish()
    printError(message)
  }

  /// Ends the progress line.
  func finish() { reporter.finish() }

  /// Tracks between two lines into a file or pipe: 1 % of the tracks (every track up to 100), so that a log gets
  /// about a hundred lines, whatever the import's size.
  static func linesEvery(total: Int) -> Int { max(1, (total + 99) / 100) }

  static func line(_ s: Snapshot) -> String {
    var line = "catalog add: \(s.done)/\(s.total) tracks, " + String(format: "%.2f h of audio", s.audioSeconds / 3600)
    if s.failed > 0 { line += ", \(s.failed) failed" }
    line += s.secondsLeft.map { ", about \(duration($0)) left" } ?? ", estimating the time left"
    return line
  }

  /// `42 s`, `3 min 05 s`, `2 h 07 min`.
  static func duration(_ seconds: Double) -> String {
    let s = max(0, Int(seconds.rounded()))
    if s < 60 { return "\(s) s" }
    if s < 3600 { return String(format: "%d min %02d s", s / 60, s % 60) }
    return String(format: "%d h %02d min", s / 3600, s % 3600 / 60)
  }

  /// The time left when `doneBytes` of `totalBytes` took `elapsedSeconds`; nil before anything is done.
  static func secondsLeft(elapsedSeconds: Double, doneBytes: Int, totalBytes: Int) -> Double? {
    guard doneBytes > 0 else { return nil }
    return elapsedSeconds * Double(max(0, totalBytes - doneBytes)) / Double(doneBytes)
  }
}
