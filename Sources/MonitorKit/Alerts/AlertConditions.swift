/// The alert conditions of one channel (and of the monitor as a whole), with their thresholds: the `alerts` section's
/// defaults with the channel's own `alerts` section applied (`AlertOverrides`). A condition that is nil is off.
///
/// Threads: a value; any thread.
struct AlertConditions: Sendable, Equatable {
  struct Silence: Sendable, Equatable {
    /// The level (peak per second of audio) below which the channel is silent, in dBFS.
    var belowDBFS: Double
    /// How long the channel must be silent before the alert opens, in seconds.
    var forSeconds: Double
  }

  struct Lagging: Sendable, Equatable {
    /// How far behind real time the matcher must be, in seconds of audio waiting to be analysed.
    var overSeconds: Double
    /// How long it must stay that far behind before the alert opens, in seconds.
    var forSeconds: Double
  }

  /// Dead air: default below −50 dBFS for 15 s.
  var silence: Silence? = Silence(belowDBFS: -50, forSeconds: 15)
  /// How long a stream or JACK source must deliver no audio before the alert opens, in seconds: default 10.
  var sourceDownForSeconds: Double? = 10
  /// The matcher behind real time: default over 10 s behind, at once.
  var lagging: Lagging? = Lagging(overSeconds: 10, forSeconds: 0)
  /// How long the play log must fail to be written before the alert opens, in seconds: default 10. The monitor's
  /// own condition (the `alerts` section only).
  var playLogUnwritableForSeconds: Double? = 10
  /// How long another node of a PostgreSQL deployment must have written no heartbeat before the alert opens, in
  /// seconds: default 60, long enough for a node that systemd restarts after a crash to be back. The monitor's own
  /// condition (the `alerts` section only); nothing to watch with an SQLite play log, which has one writer.
  var nodeDownForSeconds: Double? = 60
  /// How long nothing from the catalog must air before the alert opens, in seconds: off by default (the
  /// configuration gives it in minutes).
  var noCatalogSeconds: Double?
  /// How long a condition must be clear before its alert closes, in seconds: default 10. A level, a lag or a source
  /// that flickers at its threshold keeps its alert open instead of opening a new one at each crossing.
  var holdSeconds: Double = 10

  /// The defaults above.
  static let defaults = AlertConditions()
}
