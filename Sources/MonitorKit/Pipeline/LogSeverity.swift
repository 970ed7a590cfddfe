/// How much a log line matters, as syslog and the journal rank it: an error needs a person (plays not saved, a
/// configuration refused), a warning may (a gap, an overrun, a channel behind), the rest is information. The
/// severity comes with the event, typed: from its kind (`EventKind.severity`), or given by the code that writes a
/// notice; it is never guessed from the text.
///
/// A value type: safe to pass between threads.
enum LogSeverity: Int, Sendable, Comparable {
  case error = 3
  case warning = 4
  case info = 6

  /// The syslog priority (RFC 5424): 3 error, 4 warning, 6 informational.
  var syslogPriority: Int { rawValue }

  static func < (a: LogSeverity, b: LogSeverity) -> Bool { a.rawValue > b.rawValue }
}
