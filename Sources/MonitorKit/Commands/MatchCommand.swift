import Foundation
import Matcher

/// `broadcast-monitor match --catalog FILE [--all] CLIP|FILE.bmsig`: one-shot recognition of a clip, or of a
/// signature written by `signature`, like Shazam. Exit 0 with the best match (every match with `--all`), 1 with
/// "no match".
enum MatchCommand {
  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let a = try CommandLineArguments(args, for: CommandTable.match)
    guard a.positionals.count == 1 else { throw UsageError(CommandHelp.help(CommandTable.match)) }
    let catalog = try Catalog.load(from: URL(fileURLWithPath: try a.required("catalog")))
    let clip = a.positionals[0]
    try CatalogCommand.requireRegularFileIfPresent(clip, for: "match")
    let collector = PlayCollector()
    let settings = try a.value("settings").map { try MatcherSettings(contentsOf: URL(fileURLWithPath: $0)) }
    let matcher = StreamMatcher(catalog: catalog, settings: settings ?? MatcherSettings(), sink: collector)
    if clip.lowercased().hasSuffix(".bmsig") {
      // A signature written by `signature`: matched without its audio.
      let signature = try Signature(contentsOf: URL(fileURLWithPath: clip))
      do { try matcher.match(signature) } catch { throw UsageError("\(clip): \(error)") }
    } else {
      try AudioFileDecoder(ffmpegSampleRate: catalog.parameters.sampleRateHz).decode(path: clip) {
        samples, channels, rate in
        try matcher.append(samples, channels: channels, sampleRate: rate)
      }
      matcher.flush()
    }
    let plays = collector.ended.sorted { $0.matchCount > $1.matchCount }
    guard let best = plays.first else {
      print("no match")
      return 1
    }
    for play in a.has("all") ? plays : [best] {
      let m = play.track.metadata
      print(
        DisplayWidth.printable(
          "\(m.artist.isEmpty ? "" : m.artist + " – ")\(m.title)" + (m.isrc.isEmpty ? "" : " [\(m.isrc)]"))
          + String(
            format: "  clip %.2f–%.2f s, reference offset %.2f s, speed %.4f (%@), confidence %.2f, %d matches",
            play.startSeconds, play.endSeconds, play.referenceOffsetSeconds, play.speed,
            abs(play.speed - 1) < 0.002 ? "as recorded" : play.pitchShifted ? "resampled" : "time-stretched",
            play.confidence, play.matchCount))
    }
    return 0
  }
}
