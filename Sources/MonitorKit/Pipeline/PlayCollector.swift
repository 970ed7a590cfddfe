import Foundation
import Matcher

/// Keeps every play a matcher reports as ended, in the order they end. One thread: the matcher's.
final class PlayCollector: MatchEventSink {
  private(set) var ended: [MatchedPlay] = []
  private(set) var started = 0
  var onEnded: ((MatchedPlay) -> Void)?
  private let debug = ProcessInfo.processInfo.environment["BM_DEBUG"] != nil

  func receive(_ event: MatchEvent) {
    switch event {
    case .playStarted: started += 1
    case .playEnded(let play):
      if debug {
        printError(
          String(
            format: "play %@ %.2f-%.2f det %.2f matches %d rate %.2f/s speed %.4f conf %.3f", play.track.metadata.isrc,
            play.startSeconds, play.endSeconds, play.detectedAtSeconds, play.matchCount,
            Double(play.matchCount) / max(1, play.durationSeconds), play.speed, play.confidence))
      }
      ended.append(play)
      onEnded?(play)
    case .playContinues, .playRetracted, .noMatch: break
    }
  }
}
