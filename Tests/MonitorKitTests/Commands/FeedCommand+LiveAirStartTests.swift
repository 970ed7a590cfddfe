import Testing

@testable import MonitorKit

/// `feed --on-air-since`: where live air is when the feed's audio starts, with a clock the test sets.
struct FeedCommandLiveAirStartTests {
  @Test("The live start skips the decoded audio the start took, chunk by chunk, and then nothing")
  func liveAirStartSkips() {
    // Air since t = 1000 s; the client runs at t = 1010 s (the decoder starts 10 s in), and the decoded chunks of
    // 1 s arrive when the clock says 1013 s: the 3 s the start took are skipped, then audio from 13.02 s plays.
    var clock = 1010.0
    var live = FeedCommand.LiveAirStart(sinceSeconds: 1000, sampleRate: 100, now: { clock })
    #expect(live.secondsUntilOnAir() == -10)
    let from = live.decodeFromSeconds()
    #expect(from == 10)
    clock = 1013
    var skipped: [Int] = []
    for _ in 0..<5 { skipped.append(live.framesToSkip(decodedFromSeconds: from, chunkFrames: 100, leadSeconds: 0.02)) }
    #expect(skipped == [100, 100, 100, 2, 0])
    #expect(abs((live.startSeconds ?? 0) - 13.02) < 1e-9)
  }
}
