import Foundation

/// `broadcast-monitor run`: the daemon. Runs until SIGINT or SIGTERM, then ends every running play at the last
/// audio heard and exits 0; SIGHUP reloads the catalog without losing running plays.
enum RunCommand {
  static func run(_ words: ArraySlice<String>) throws -> Int32 {
    if words.contains("--help") || words.contains("-h") {
      print(MonitorConfiguration.runUsage)
      return 0
    }
    let arguments = try CommandLineArguments(
      words, valueOptions: MonitorConfiguration.runValueOptions, flagOptions: MonitorConfiguration.runFlagOptions)
    guard arguments.positionals.isEmpty else {
      throw UsageError(
        "unexpected \(arguments.positionals.joined(separator: " ")); channels go in --channel NAME=SOURCE")
    }
    let configuration = try MonitorConfiguration.load(
      arguments: arguments, currentDirectory: FileManager.default.currentDirectoryPath)
    let log = MonitorLog()
    let monitor = try Monitor(configuration: configuration, log: log)
    try monitor.start()

    let stop = DispatchSemaphore(value: 0)
    var stopping = false  // touched only on the `signals` queue
    let signals = DispatchQueue(label: "signals")
    var sources: [DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM, SIGHUP] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: signals)
      source.setEventHandler {
        if number == SIGHUP {
          monitor.reloadCatalog()
        } else if !stopping {
          stopping = true
          log.line("\(number == SIGINT ? "SIGINT" : "SIGTERM"): stopping; running plays end at the last audio heard")
          stop.signal()
        }
      }
      source.resume()
      sources.append(source)
    }
    stop.wait()
    monitor.stop()
    for source in sources { source.cancel() }
    return 0
  }
}
