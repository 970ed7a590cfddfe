import Testing

@testable import MonitorKit

@Suite("ReconnectBackoff")
struct ReconnectBackoffTests {
  @Test("1, 2, 4, 8, 16, then 30 s for every further failure")
  func doubling() {
    var backoff = ReconnectBackoff()
    let delays = (0..<9).map { _ in backoff.nextDelay(goodAudioSeconds: 0) }
    #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30, 30])
  }

  @Test("A minute of good audio starts again at 1 s; less does not")
  func reset() {
    var backoff = ReconnectBackoff()
    for _ in 0..<4 { _ = backoff.nextDelay(goodAudioSeconds: 0) }
    #expect(backoff.nextDelay(goodAudioSeconds: 59) == 16)
    #expect(backoff.nextDelay(goodAudioSeconds: 60) == 1)
    #expect(backoff.nextDelay(goodAudioSeconds: 5) == 2)
  }
}
