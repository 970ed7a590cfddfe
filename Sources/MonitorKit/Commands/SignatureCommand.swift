import Foundation
import Matcher

/// `broadcast-monitor signature CLIP --out FILE.bmsig`: writes a clip's query signature to a file.
enum SignatureCommand {
  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let a = try CommandLineArguments(args, for: CommandTable.signature)
    guard a.positionals.count == 1 else { throw UsageError(CommandHelp.help(CommandTable.signature)) }
    let out = URL(fileURLWithPath: try a.required("out"))
    let generator = SignatureGenerator(purpose: .query)
    try AudioFileDecoder().decode(path: a.positionals[0]) { samples, channels, rate in
      try generator.append(samples, channels: channels, sampleRate: rate)
    }
    let signature = generator.signature()
    try signature.write(to: out)
    print(
      String(
        format: "%@: %.1f s, %d peaks", a.positionals[0], signature.durationSeconds, signature.peaks.count))
    return 0
  }
}
