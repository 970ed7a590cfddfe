import Common
import Foundation
import Matcher

/// What the channels of a configuration take before any audio arrives, against what the machine has: a monitor
/// refuses at load time what it could not hold, instead of failing an allocation later (or never capturing).
extension MonitorConfiguration {
  /// The most channels one monitor runs. A bound on the file, not a measure of capacity: the capacity benchmark ran
  /// 64 stereo channels on 21 % of one core, so 4,096 would need some 13 cores and 64 worker threads' worth of the
  /// machine. A count past it is a generated file gone wrong; refusing it first keeps loading such a file instant.
  static let maxChannels = 4096

  /// The JACK sample rate that rings are sized for before JACK is reached (the rings are made at JACK's own rate):
  /// the rate of nearly every broadcast chain. At 96 kHz the rings take twice the estimate.
  static let assumedJackSampleRateHz = 48_000.0

  /// A channel's matcher state, an estimate: 0.55 MB measured per channel with a 2-item catalog (VmRSS of `run`
  /// with 201 JACK channels against 1, JACK absent); the vote table and the match queue grow with the catalog, the
  /// vote table to 4 MB at most (`MatcherTuning.voteSlots`).
  static let matcherBytesPerChannel = 4.0 * 1_048_576

  /// A stream or file channel's input, an estimate: its ffmpeg process (53 MB resident decoding Ogg Vorbis, most of
  /// it shared libraries that every ffmpeg shares) and its 30 s ring (1 MB at 8 kHz).
  static let streamInputBytesPerChannel = 16.0 * 1_048_576

  /// A channel's audio kept for the clips of unknown music while `unknown.clipsDirectory` is set: its last
  /// `UnknownClipWriter.ringSeconds` at the fingerprint rate (8 kHz unless the catalog says otherwise), 16 bits
  /// (`AirAudioRing`): 9.6 MB, allocated when the channel starts.
  static let clipAudioBytesPerChannel = UnknownClipWriter.ringSeconds * Double(FingerprintParameters().sampleRateHz) * 2

  /// The share of the machine's memory the channels may take: the rest is for the catalog (mapped whole), SQLite,
  /// the worker threads and the system. JACK's rings are touched before capture starts, so they are resident.
  static let channelMemoryShare = 0.5

  /// The bytes of one JACK port's ring: `ringSeconds` at `assumedJackSampleRateHz`, rounded up to a power of two
  /// frames of 4-byte samples, as `SPSCRingBuffer` allocates it.
  static func jackRingBytesPerPort(ringSeconds: Double) -> Double {
    let frames = (ringSeconds * assumedJackSampleRateHz).rounded(.up)
    return 4 * Double(sign: .plus, exponent: Int(log2(max(frames, 1)).rounded(.up)), significand: 1)
  }

  /// The machine's memory: the physical memory, or the cgroup's limit (`memory.max`) when that is lower. Read once.
  static let availableMemoryBytes: Double = {
    var bytes = Double(ProcessInfo.processInfo.physicalMemory)
    if let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
      let limit = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    {
      bytes = min(bytes, limit)
    }
    return bytes
  }()

  /// Refuses more than `maxChannels` channels, naming the place and the limit. Cheap: called before any
  /// per-channel check.
  func validateChannelCount(origin: ConfigurationOrigin) throws(ConfigurationError) {
    guard channels.count > Self.maxChannels else { return }
    throw ConfigurationError(keyPath: origin.place(of: "channels"), reason: Self.tooManyChannels(channels.count))
  }

  /// Why `count` channels are refused, and what to do.
  static func tooManyChannels(_ count: Int) -> String {
    "\(count) channels; one monitor runs at most \(maxChannels). Split them between monitors, each with its own "
      + "configuration and play log"
  }

  /// Refuses channels whose rings, matchers, inputs and clip audio would take more than `channelMemoryShare` of `memoryBytes`, naming
  /// the channels, the memory they need and have, and what to change. The place is `jack.ringSeconds` when JACK's
  /// rings are most of it.
  func validateMemory(origin: ConfigurationOrigin, memoryBytes: Double) throws(ConfigurationError) {
    var jackPorts = 0
    var streams = 0
    for channel in channels {
      switch channel.source {
      case .jack(let source): jackPorts += source.portCount
      case .stream, .file: streams += 1
      }
    }
    let ringBytes = Double(jackPorts) * Self.jackRingBytesPerPort(ringSeconds: jack.ringSeconds)
    let matcherBytes = Double(channels.count) * Self.matcherBytesPerChannel
    let streamBytes = Double(streams) * Self.streamInputBytesPerChannel
    let clipBytes = unknown.clipsDirectory == nil ? 0 : Double(channels.count) * Self.clipAudioBytesPerChannel
    let total = ringBytes + matcherBytes + streamBytes + clipBytes
    let allowed = memoryBytes * Self.channelMemoryShare
    guard total > allowed else { return }
    let ringsFirst = ringBytes > total / 2
    throw ConfigurationError(
      keyPath: origin.place(of: ringsFirst ? "jack.ringSeconds" : "channels"),
      reason: "\(channels.count) channels would take about \(Self.describe(bytes: total)) before any audio arrives "
        + "(JACK rings \(Self.describe(bytes: ringBytes)): \(jackPorts) ports × jack.ringSeconds "
        + String(format: "%g s at %g kHz", jack.ringSeconds, Self.assumedJackSampleRateHz / 1000)
        + "; matchers \(Self.describe(bytes: matcherBytes)); "
        + "stream inputs \(Self.describe(bytes: streamBytes))"
        + (clipBytes > 0 ? "; audio kept for unknown.clipsDirectory's clips \(Self.describe(bytes: clipBytes))" : "")
        + "), more than half of this machine's "
        + "\(Self.describe(bytes: memoryBytes)); "
        + (ringsFirst
          ? "use a smaller jack.ringSeconds (default 10) or fewer channels"
          : "use fewer channels, or split them between monitors on more machines"))
  }

  /// `bytes` as a person reads it: `7.5 GB`, `380 MB`.
  static func describe(bytes: Double) -> String {
    bytes >= 1e9 ? String(format: "%.1f GB", bytes / 1e9) : String(format: "%.0f MB", bytes / 1e6)
  }
}
