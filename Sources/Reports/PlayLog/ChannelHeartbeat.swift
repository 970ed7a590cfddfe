import Foundation

/// Through when a running monitor has heard one of its channels: the end of the newest audio it consumed. The
/// monitor writes its channels' heartbeats every few seconds (``PlayLogStorage/recordHeartbeat(_:)``) and clears
/// them when it stops; heartbeats still there at the next start are those of a run that was killed (SIGKILL, a
/// crash, a power cut), and the start records each channel as not heard from its heartbeat on
/// (``PlayLogStorage/recoverDowntime(channels:at:)``).
///
/// A value type: safe to pass between threads.
public struct ChannelHeartbeat: Sendable, Equatable, Codable {
  public var channel: String
  /// The end of the channel's newest audio, or when its run began listening when it has heard none yet.
  public var heardThrough: Date

  public init(channel: String, heardThrough: Date) {
    self.channel = channel
    self.heardThrough = heardThrough
  }
}
