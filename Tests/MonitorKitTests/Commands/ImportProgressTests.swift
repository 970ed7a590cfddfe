import Testing

@testable import MonitorKit

@Suite("ImportProgress")
struct ImportProgressTests {
  typealias Snapshot = ImportProgress.Snapshot

  @Test("The progress line: tracks done of the total, hours of audio, failures when there are some, and time left")
  func line() {
    #expect(
      ImportProgress.line(Snapshot(done: 120, total: 1000, audioSeconds: 28_620, failed: 2, secondsLeft: 185))
        == "catalog add: 120/1000 tracks, 7.95 h of audio, 2 failed, about 3 min 05 s left")
    #expect(
      ImportProgress.line(Snapshot(done: 3, total: 29, audioSeconds: 600, failed: 0, secondsLeft: 42.4))
        == "catalog add: 3/29 tracks, 0.17 h of audio, about 42 s left")
    #expect(
      ImportProgress.line(Snapshot(done: 0, total: 29, audioSeconds: 0, failed: 0, secondsLeft: nil))
        == "catalog add: 0/29 tracks, 0.00 h of audio, estimating the time left")
  }

  @Test("Durations: seconds, minutes and seconds, hours and minutes")
  func durations() {
    #expect(ImportProgress.duration(0) == "0 s")
    #expect(ImportProgress.duration(59.4) == "59 s")
    #expect(ImportProgress.duration(60) == "1 min 00 s")
    #expect(ImportProgress.duration(3599) == "59 min 59 s")
    #expect(ImportProgress.duration(7620) == "2 h 07 min")
    #expect(ImportProgress.duration(-3) == "0 s")
  }

  @Test("The time left scales the time so far by the bytes left over the bytes done; unknown before any")
  func timeLeft() {
    #expect(ImportProgress.secondsLeft(elapsedSeconds: 10, doneBytes: 0, totalBytes: 100) == nil)
    #expect(ImportProgress.secondsLeft(elapsedSeconds: 10, doneBytes: 25, totalBytes: 100) == 30)
    #expect(ImportProgress.secondsLeft(elapsedSeconds: 10, doneBytes: 100, totalBytes: 100) == 0)
  }

  @Test("Into a file, a line every 1 % of the tracks: every track up to 100")
  func linesEvery() {
    #expect(ImportProgress.linesEvery(total: 1) == 1)
    #expect(ImportProgress.linesEvery(total: 100) == 1)
    #expect(ImportProgress.linesEvery(total: 101) == 2)
    #expect(ImportProgress.linesEvery(total: 10_000) == 100)
  }
}
