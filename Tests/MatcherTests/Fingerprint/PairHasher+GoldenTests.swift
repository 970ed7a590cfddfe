import Foundation
import TestSupport
import Testing

@testable import Matcher

/// The pair hashes of a fixture song, kept as text in `Tests/Fixtures/golden/fingerprint/catalog-a.hashes.txt`:
/// a change to decoding, the spectrum, peak picking, pairing or the hash layout alters them and has to update the
/// file on purpose (`UPDATE_GOLDEN=1`). The song goes through what `catalog add` does: ffmpeg decodes it to the
/// fingerprint rate, and the reference fingerprinter picks its peaks.
@Suite("PairHasher golden file", .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct PairHasherGoldenTests {
  /// Enough hashes to cover the song's first seconds, where every stage has had its say.
  static let hashesKept = 300

  @Test("The first pair hashes of a fixture song, with their frames and times, are those of the golden file")
  func fixtureSongHashes() throws {
    let parameters = FingerprintParameters()
    let signature = try ReferenceFingerprinter(parameters: parameters).signature(
      ofFileAt: Fixtures.music("catalog-a.ogg").path)
    let hashes = PairHasher(parameters: parameters).referenceHashes(of: signature.peaks)
    let secondsPerFrame = Double(parameters.hopSizeSamples) / Double(parameters.sampleRateHz)
    var text = "# catalog-a.ogg: \(signature.peaks.count) peaks, \(hashes.count) pair hashes; the first "
    text += "\(min(Self.hashesKept, hashes.count))\n# frame\tseconds\thash\n"
    for hash in hashes.prefix(Self.hashesKept) {
      text += String(format: "%d\t%.3f\t%08x\n", hash.frame, Double(hash.frame) * secondsPerFrame, hash.hash)
    }
    let mismatch = try Golden.mismatch(text, file: "fingerprint/catalog-a.hashes.txt")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }
}
