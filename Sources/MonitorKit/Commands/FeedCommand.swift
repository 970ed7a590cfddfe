import Foundation
import JackInput
import Matcher
import Reports

/// `broadcast-monitor feed`: plays an audio file in real time into JACK input ports, as a radio channel arrives from
/// a sound card. It lets a live monitor be tried and tested without one: `jackd -d dummy`, then `feed` into the
/// monitor's ports.
///
/// The file is decoded by ffmpeg at the JACK server's rate, in stereo for two destinations or mono for one, and
/// queued into a `JackPlayback` whose rings hold one second: the decoder waits while they are full, which paces it
/// to real time. At the end of the file, `feed` waits until the audio has been played out, then exits 0. With
/// `--loop` it starts the file again instead, until SIGINT or SIGTERM, which stop it cleanly (exit 0) at any time.
///
/// `--on-air-since TIME` plays the file as live air that began at TIME: its first sample is the file's sample of
/// the moment it is played, however long the start took (`FeedCommand+LiveAirStart.swift`).
///
/// Threads: everything runs on the calling (main) thread, which is the playback's feeder; the signal handlers run
/// on a dispatch queue and only call `JackPlayback.stop()`.
enum FeedCommand {
  /// Thrown from the decoder's callback to stop decoding once the playback stopped.
  private struct PlaybackStopped: Error {}

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    // First, before any thread starts: SIGINT and SIGTERM must be blocked in every thread to reach the handler.
    let signals = TerminationSignals()
    let a = try CommandLineArguments(args, for: CommandTable.feed)
    guard a.positionals.count == 1 else { throw UsageError(CommandHelp.help(CommandTable.feed)) }
    let file = a.positionals[0]
    let destinations = try parseDestinations(try a.required("connect"))
    let start = try parseStart(a.value("start"))
    let onAirSince = try parseOnAirSince(a.value("on-air-since"))
    if onAirSince != nil, a.value("start") != nil {
      throw UsageError(
        "--start and --on-air-since both say where to begin: give --start SECONDS into the file, or "
          + "--on-air-since TIME to begin where live air that started at TIME is")
    }
    guard FileManager.default.isReadableFile(atPath: file) else {
      throw AudioError.unreadable(path: file, reason: "no such file, or not readable")
    }
    // ffmpeg seeking past the end of some files (Ogg) still gives audio from near the end: live air that has passed
    // the end of the file is told by its duration.
    let duration = onAirSince == nil ? nil : AudioFileDecoder().probeDurationSeconds(path: file)

    let portNames = destinations.count == 2 ? ["out_L", "out_R"] : ["out"]
    let playback = try JackPlayback(
      clientName: a.value("client") ?? "broadcast-monitor-feed", serverName: a.value("server"),
      portNames: portNames, ringSeconds: 1)
    defer { playback.close() }
    signals.onSignal { _ in playback.stop() }
    for (port, destination) in zip(portNames, destinations) {
      try playback.connect(port: port, to: destination)
    }
    let into = destinations.joined(separator: ",")

    // The first queued frame plays at the start of the next cycle: between now and a period from now.
    let leadSeconds = Double(playback.bufferSize) / Double(playback.sampleRate) / 2
    var announced = false
    var pass = 0
    feeding: repeat {
      // With --on-air-since, the first pass starts where the air is once the client runs, and the decoded audio
      // the start took is skipped.
      var live = pass == 0 ? onAirSince.map { LiveAirStart(sinceSeconds: $0, sampleRate: playback.sampleRate) } : nil
      if let wait = live?.secondsUntilOnAir(), wait > 0 {
        guard waitOrStop(seconds: wait, playback) else { break feeding }
      }
      let from = live?.decodeFromSeconds() ?? (pass == 0 ? start : 0)
      if let since = onAirSince, live != nil, let duration, from >= duration {
        throw FeedError.airPastEnd(file: file, since: since, seconds: from)
      }
      let decoder = AudioFileDecoder(
        ffmpegSampleRate: playback.sampleRate, ffmpegChannels: portNames.count, forceFFmpeg: true,
        startSeconds: from)
      do {
        try decoder.decode(path: file) { samples, channels, _ in
          var audio = samples
          if live != nil, live!.startSeconds == nil {
            let frames = samples.count / channels
            let skip = live!.framesToSkip(decodedFromSeconds: from, chunkFrames: frames, leadSeconds: leadSeconds)
            guard skip < frames else { return }
            audio = UnsafeBufferPointer(rebasing: samples[(skip * channels)...])
          }
          guard playback.enqueue(audio) else { throw PlaybackStopped() }
          if !announced, let first = playback.firstAudioWallClockSeconds {
            // For scripts that line the audio up with what a monitor logs (bench/live_latency.py, bench/chaos.py).
            announced = true
            printError(
              "feed: first sample at \(ISO8601Millis.format(Date(timeIntervalSince1970: first))) "
                + "(\(file) from \(live?.startSeconds ?? from) s into \(into))")
          }
        }
      } catch {
        // A signal also reaches ffmpeg when it comes from the terminal: then its error is part of stopping.
        if error is PlaybackStopped || playback.isStopped || playback.serverShutDown { break feeding }
        if pass == 0, from > 0, case AudioError.noAudio = error {
          if let since = onAirSince { throw FeedError.airPastEnd(file: file, since: since, seconds: from) }
          throw FeedError.startPastEnd(file: file, start: start)
        }
        throw error
      }
      if let since = onAirSince, let live, live.startSeconds == nil {
        throw FeedError.airPastEnd(file: file, since: since, seconds: from)
      }
      pass += 1
    } while a.has("loop")

    let playedOut = !playback.isStopped && !playback.serverShutDown && playback.waitUntilPlayedOut()
    let seconds = Double(playback.framesPlayed) / Double(playback.sampleRate)
    if playback.serverShutDown {
      throw FeedError.serverShutDown(server: a.value("server"), file: file, seconds: seconds)
    }
    let silence =
      playback.underruns > 0
      ? String(
        format: " (%.2f s of silence where the decoder fell behind)",
        Double(playback.underruns) / Double(playback.sampleRate)) : ""
    if let signal = signals.received {
      printError(
        String(
          format: "feed: stopped by %@ after %.1f s of %@ into %@", TerminationSignals.name(signal), seconds, file,
          into) + silence)
      return 0
    }
    guard playedOut else { throw FeedError.notPlayedOut(file: file, destinations: into) }
    printError(String(format: "feed: played %.1f s of %@ into %@", seconds, file, into) + silence)
    return 0
  }

  /// `--connect`: one destination port (mono) or two separated by a comma (left, right). JACK port names contain
  /// `:`, so only `,` separates them.
  static func parseDestinations(_ text: String) throws(UsageError) -> [String] {
    let ports = text.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard (1...2).contains(ports.count), !ports.contains("") else {
      throw UsageError(
        "--connect \(text): give one JACK input port (mono) or two separated by a comma (left,right), "
          + "e.g. --connect monitor:ch1_L,monitor:ch1_R (`jack_lsp` lists the ports)")
    }
    return ports
  }

  /// `--start`: seconds into the file, 0 or more.
  static func parseStart(_ text: String?) throws(UsageError) -> Double {
    guard let text else { return 0 }
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
      throw UsageError("--start \(text): give the number of seconds into the file to start at, e.g. --start 12.5")
    }
    return seconds
  }
}
