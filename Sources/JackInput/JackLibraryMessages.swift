import CJack

/// libjack's own messages ("Cannot connect to server socket", "jack server is not running …") go to standard error
/// by default, several lines every time a client fails to open: a monitor that polls for a server that went away
/// would print them every second. `silence()` drops them; broadcast-monitor reports the same conditions itself, in
/// one line with the fix (`JackClientError`).
///
/// Threads: call `silence()` once from the control thread before opening a client. The handler may be called from
/// any libjack thread, including the real-time one, so it does nothing at all.
public enum JackLibraryMessages {
  /// Drops libjack's error and info messages from now on (process-wide).
  public static func silence() {
    jack_set_error_function(jackDropMessage)
    jack_set_info_function(jackDropMessage)
  }
}

/// Receives a libjack message and drops it. Any thread, including JACK's real-time thread: it must not allocate,
/// lock, log or touch reference-counted values, and it does nothing.
func jackDropMessage(_ message: UnsafePointer<CChar>?) {}
