/// Where the values of a loaded configuration were written: keys of the configuration file, or the command-line
/// options that replaced them. An error names the place to fix: `monitor.json5: channels[2].timeZone`, `--workers`,
/// `--channel fm=jack:x`.
///
/// Threads: a value; any thread.
struct ConfigurationOrigin: Sendable, Equatable {
  /// The configuration file as the user named it; nil when everything came from the command line.
  var file: String?
  /// Top-level key paths (`catalogPath`, `jack.clientName`) whose value came from the command line, with the
  /// option as it is written there (`--catalog`).
  var options: [String: String] = [:]
  /// The channels that came from `--channel`, by index, with the argument as given (`fm=jack`).
  var channelArguments: [Int: String] = [:]
  /// `--tz ZONE` as given, when it set the time zone of the command-line channels.
  var timeZoneOption: String?

  /// Where the value at `keyPath`, a key path from the top (`workerThreads`, `jack.ringSeconds`), was written.
  func place(of keyPath: String) -> String {
    var prefix = Substring(keyPath)
    while true {
      if let option = options[String(prefix)] { return option }
      guard let dot = prefix.lastIndex(of: ".") else { break }
      prefix = prefix[..<dot]
    }
    return file.map { "\($0): \(keyPath)" } ?? keyPath
  }

  /// Where `keyPath` of channel `index` (`name`, `source.stream.url`) was written.
  func place(ofChannel index: Int, _ keyPath: String) -> String {
    if let argument = channelArguments[index] {
      if keyPath == "timeZone", let timeZoneOption { return timeZoneOption }
      return "--channel \(argument)"
    }
    return place(of: "channels[\(index)].\(keyPath)")
  }
}
