import Foundation
import Reports
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Samples the listeners of channels' streams from Icecast's JSON stats endpoint (`status-json.xsl`) every
/// `reports.soundExchange.icecastStatsSeconds`, into the play log through the writer (`listener_samples`), for the
/// SoundExchange Report of Use's actual total performances (`ListenerSamples`).
///
/// Icecast's stats give the listeners connected now, while a play's performances are the listeners during it, so
/// the count is sampled while the monitor runs. A count is written when it differs from the channel's last written
/// one, and unchanged at least every `ListenerSamples.rewriteUnchangedSeconds`, so that a quiet stream's count stays
/// in force and a sampler that stopped lapses. A mount missing from the stats (its source is not connected) has no
/// listeners: 0. A server that does not answer, or answers something else, writes nothing (its channels' counts
/// lapse) and is logged once, until it answers again. Each endpoint is read once per round, whatever the number of
/// its channels.
///
/// Threads: `start()` and `stop()` from the control thread; the requests and the writes' submission run on the
/// sampler's own thread.
final class IcecastStatsSampler: @unchecked Sendable {
  /// One channel to sample: its name, the stats endpoint of its server and its mount there.
  struct Target: Sendable, Equatable {
    var channel: String
    var endpoint: URL
    var mount: String
  }

  let targets: [Target]
  let intervalSeconds: Double
  private let writer: PlayLogWriter
  private let log: MonitorLog
  private let session: URLSession
  private let stopped = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private let isRunning = Atomic<Bool>(false)
  // Sampler thread only.
  /// Each channel's last written count and when it was written.
  private var written: [String: (listeners: Int, at: Date)] = [:]
  /// The endpoints that failed last time, with the reason logged.
  private var failing: [URL: String] = [:]

  /// The sampler of `configuration`'s channels that have an `icecastStatsURL`; nil when none has.
  init?(configuration: MonitorConfiguration, writer: PlayLogWriter, log: MonitorLog) {
    guard let soundExchange = configuration.reports.soundExchange else { return nil }
    targets = configuration.channels.compactMap { channel in
      guard let text = soundExchange.channels[channel.name]?.icecastStatsURL, let endpoint = Self.endpoint(text)
      else { return nil }
      return Target(channel: channel.name, endpoint: endpoint, mount: soundExchange.icecastMount(of: channel.name))
    }
    guard !targets.isEmpty else { return nil }
    intervalSeconds = soundExchange.icecastStatsSeconds
    self.writer = writer
    self.log = log
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.timeoutIntervalForRequest = min(intervalSeconds, 10)
    session = URLSession(configuration: sessionConfiguration)
  }

  /// `text` as a stats endpoint: an http or https URL with a host; nil for anything else.
  static func endpoint(_ text: String) -> URL? {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = url.host, !host.isEmpty
    else { return nil }
    return url
  }

  /// The listeners on each mount in an answer of `status-json.xsl`: `{"icestats": {"source": …}}`, where `source`
  /// is one object, an array of them, or missing when no source is connected; each source's mount is the path of its
  /// `listenurl`. Nil when the answer is not Icecast's JSON stats.
  static func listenersByMount(_ data: Data) -> [String: Int]? {
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let stats = root["icestats"] as? [String: Any]
    else { return nil }
    let sources: [[String: Any]]
    switch stats["source"] {
    case nil: sources = []
    case let one as [String: Any]: sources = [one]
    case let many as [[String: Any]]: sources = many
    default: return nil
    }
    var listeners: [String: Int] = [:]
    for source in sources {
      guard let text = source["listenurl"] as? String, let url = URL(string: text) else { continue }
      let count = (source["listeners"] as? NSNumber)?.intValue ?? 0
      listeners[url.path.isEmpty ? "/" : url.path, default: 0] += count
    }
    return listeners
  }

  /// Starts sampling on the sampler's thread: a first round at once, then one every `intervalSeconds`.
  func start() {
    guard !isRunning.exchange(true, ordering: .relaxed) else { return }
    let thread = Thread { [self] in
      repeat { sampleRound() } while stopped.wait(timeout: .now() + intervalSeconds) == .timedOut
      finished.signal()
    }
    thread.name = "icecast-stats"
    thread.start()
    let servers = Set(targets.map(\.endpoint.absoluteString)).sorted().joined(separator: ", ")
    log.line(
      String(
        format: "listener stats: sampling %d channels from %@ every %g s", targets.count, servers, intervalSeconds))
  }

  /// Stops sampling and waits for a request under way (at most its timeout).
  func stop() {
    guard isRunning.exchange(false, ordering: .relaxed) else { return }
    stopped.signal()
    finished.wait()
  }

  /// Reads each endpoint once and submits the channels' counts that are due.
  private func sampleRound() {
    for (endpoint, channels) in Dictionary(grouping: targets, by: \.endpoint).sorted(by: {
      $0.key.absoluteString < $1.key.absoluteString
    }) {
      let sampledAt = Date()
      let answer = fetch(endpoint)
      guard case .success(let mounts) = answer else {
        if case .failure(let reason) = answer, failing[endpoint] != reason {
          failing[endpoint] = reason
          log.line(
            "listener stats: \(endpoint.absoluteString): \(reason); the listeners of "
              + channels.map(\.channel).joined(separator: ", ")
              + " are not sampled until it answers (check the URL and that Icecast runs)", severity: .warning)
        }
        continue
      }
      if failing.removeValue(forKey: endpoint) != nil {
        log.line("listener stats: \(endpoint.absoluteString) answers again")
      }
      for target in channels {
        let listeners = mounts[target.mount] ?? 0
        if let last = written[target.channel], last.listeners == listeners,
          sampledAt.timeIntervalSince(last.at) < ListenerSamples.rewriteUnchangedSeconds
        {
          continue
        }
        written[target.channel] = (listeners, sampledAt)
        writer.submit(.listeners(channel: target.channel, sampledAt: sampledAt, listeners: listeners))
      }
    }
  }

  private enum Answer: Sendable {
    case success([String: Int])
    case failure(String)
  }

  /// One GET of `endpoint`, waited for at most the session's timeout and a second.
  private func fetch(_ endpoint: URL) -> Answer {
    var request = URLRequest(url: endpoint, timeoutInterval: min(intervalSeconds, 10))
    request.setValue("broadcast-monitor", forHTTPHeaderField: "User-Agent")
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Answer>(.failure("no answer within \(Int(min(intervalSeconds, 10))) s"))
    let task = session.dataTask(with: request) { data, response, error in
      let answer: Answer
      if let error {
        answer = .failure(error.localizedDescription)
      } else if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
        answer = .failure("HTTP status \(status)")
      } else if let data, let mounts = Self.listenersByMount(data) {
        answer = .success(mounts)
      } else {
        answer = .failure("the answer is not Icecast's JSON stats (status-json.xsl)")
      }
      result.withLock { $0 = answer }
      done.signal()
    }
    task.resume()
    if done.wait(timeout: .now() + min(intervalSeconds, 10) + 1) == .timedOut { task.cancel() }
    return result.withLock { $0 }
  }
}
