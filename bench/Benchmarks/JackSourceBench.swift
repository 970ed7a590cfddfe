import Foundation
import JackInput
import Matcher

/// `Benchmarks jack-source SERVER CHANNELS DESTINATION_CLIENT FILE [SECONDS]`: one JACK client with CHANNELS stereo
/// output pairs, each connected to `DESTINATION_CLIENT:chN_L/_R` (N from 1), playing FILE (decoded once, at the
/// server's rate) from a different offset per channel, looped, in real time — many different radio channels at
/// once for the capacity benchmark. Runs for SECONDS (default: until SIGTERM). Prints the underruns it had at the end.
func benchJackSource(server: String, channels: Int, destinationClient: String, file: String, seconds: Double?) throws {
  var ports: [String] = []
  for channel in 1...channels { ports += ["s\(channel)_L", "s\(channel)_R"] }
  let playback = try JackPlayback(clientName: "bm-source", serverName: server, portNames: ports, ringSeconds: 2)
  defer { playback.close() }
  var audio: [Float] = []
  try AudioFileDecoder(ffmpegSampleRate: playback.sampleRate, ffmpegChannels: 2, forceFFmpeg: true).decode(
    path: file
  ) { samples, _, _ in audio += samples }
  let frames = audio.count / 2
  for channel in 1...channels {
    try playback.connect(port: "s\(channel)_L", to: "\(destinationClient):ch\(channel)_L")
    try playback.connect(port: "s\(channel)_R", to: "\(destinationClient):ch\(channel)_R")
  }
  FileHandle.standardError.write(
    Data(
      String(
        format: "jack-source: %d stereo channels from %@ (%.0f s, offsets %.1f s apart) at %d Hz\n", channels, file,
        Double(frames) / Double(playback.sampleRate), Double(frames / channels) / Double(playback.sampleRate),
        playback.sampleRate
      ).utf8))
  signal(SIGTERM, SIG_IGN)
  signal(SIGINT, SIG_IGN)
  let stop = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
  stop.setEventHandler { playback.stop() }
  stop.resume()
  let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
  interrupt.setEventHandler { playback.stop() }
  interrupt.resume()

  let block = 1024
  var chunk = [Float](repeating: 0, count: block * 2 * channels)
  var position = 0
  let deadline = seconds.map { Date().addingTimeInterval($0) }
  while deadline.map({ Date() < $0 }) ?? true {
    for channel in 0..<channels {
      var source = (position + channel * (frames / channels)) % frames
      for i in 0..<block {
        chunk[(i * channels + channel) * 2] = audio[source * 2]
        chunk[(i * channels + channel) * 2 + 1] = audio[source * 2 + 1]
        source += 1
        if source == frames { source = 0 }
      }
    }
    position = (position + block) % frames
    let queued = chunk.withUnsafeBufferPointer { playback.enqueue($0) }
    if !queued { break }
  }
  FileHandle.standardError.write(
    Data(
      String(
        format: "jack-source: played %.1f s; underruns %d frames; xruns %d\n",
        Double(playback.framesPlayed) / Double(playback.sampleRate), playback.underruns, playback.xruns
      ).utf8))
}
