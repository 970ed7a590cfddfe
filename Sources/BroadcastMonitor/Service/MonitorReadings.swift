/// What the HTTP API reads of a running monitor: values copied out under short locks, so that a request never waits
/// for capture, matching or the play log's writer. `Monitor` provides them; tests and the fuzz harness give fixed
/// ones.
///
/// Implementation requirements: every property may be read from any thread, returns a copy, and never blocks on
/// the pipeline.
protocol MonitorReadings: Sendable {
  var statuses: [ChannelStatus] { get }
  var overview: MonitorOverview { get }
  var playLogWriteLatency: LatencyHistogram.Snapshot { get }
}

extension Monitor: MonitorReadings {}
