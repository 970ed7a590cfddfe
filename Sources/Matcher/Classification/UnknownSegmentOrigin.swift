import Foundation

/// Where an unknown segment aired: its channel and start, as the play log keys it (to the millisecond).
public struct UnknownSegmentOrigin: Sendable, Hashable {
  public var channel: String
  public var start: Date

  public init(channel: String, start: Date) {
    self.channel = channel
    self.start = start
  }

  /// The start of the part of the segment from `seconds` into it, to the millisecond (as the play log keeps it).
  public func advanced(bySeconds seconds: Double) -> UnknownSegmentOrigin {
    let ms = (start.timeIntervalSince1970 * 1000).rounded() + (seconds * 1000).rounded()
    return UnknownSegmentOrigin(channel: channel, start: Date(timeIntervalSince1970: ms / 1000))
  }
}
