import Common
import Foundation
import Matcher

/// `broadcast-monitor signature CLIP --out FILE.bmsig`: writes a clip's query signature to a file.
enum SignatureCommand {
  /// EX_DATAERR: the clip holds no audio to fingerprint.
  static let noPeaksStatus: Int32 = 65

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let a = try CommandLineArguments(args, for: CommandTable.signature)
    guard a.positionals.count == 1 else { throw UsageError(CommandHelp.help(CommandTable.signature)) }
    let clip = a.positionals[0]
    let outPath = try a.required("out")
    if let problem = FileReadProblem.of(clip) {
      // A FIFO would hold the decoder forever; a folder or a device is not a clip.
      throw UsageError("\(clip) \(problem); give an audio file")
    }
    try OutputCheck.check(outPath, option: "--out", inputs: [(role: "the clip", path: clip)])
    if !OutputFile.isSpecial(outPath), let existing = FileHandle(forReadingAtPath: outPath) {
      let start = (try? existing.read(upToCount: Signature.magic.count)) ?? nil
      try? existing.close()
      if let start, !start.isEmpty, !start.elementsEqual(Signature.magic) {
        throw UsageError(
          "--out \(outPath) exists and is not a signature file: writing there would destroy it; name another file")
      }
    }
    let out = URL(fileURLWithPath: outPath)
    let generator = SignatureGenerator(purpose: .query)
    try AudioFileDecoder().decode(path: clip) { samples, channels, rate in
      try generator.append(samples, channels: channels, sampleRate: rate)
    }
    let signature = generator.signature()
    guard !signature.peaks.isEmpty else {
      // A signature without peaks matches nothing: written, it would look like a clip the catalog lacks.
      printError(
        String(
          format: "broadcast-monitor: signature: %@ has no fingerprint (no peaks in %.1f s of audio): it is silent "
            + "or too short; nothing was written", clip, signature.durationSeconds))
      return noPeaksStatus
    }
    try signature.write(to: out)
    print(
      String(
        format: "%@: %.1f s, %d peaks", clip, signature.durationSeconds, signature.peaks.count))
    return 0
  }
}
