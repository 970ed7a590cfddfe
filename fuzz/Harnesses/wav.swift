import Foundation
import TestSupport

@testable import Matcher

// Fuzzes the WAV reader (WAVFile) and what `catalog add` does with a WAV it reads: decoding every sample and
// fingerprinting them (resampled from the file's rate to the catalog's), as `ReferenceFingerprinter` does. A file
// must either be read or be refused with an error naming it; a crash, a hang or an allocation without bound is a
// finding. (Refused files go to ffmpeg in the product; that path is not fuzzed here.)

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  writeSeedsIfAsked {
    // 40 frames of a synthetic song in each encoding the reader takes, mono and stereo: small, so that most
    // mutations fall in the header and chunks; and a tenth of a second, long enough to be fingerprinted.
    let song = SyntheticSong(seed: 7, seconds: 1).render()
    let mono = Array(song.prefix(40))
    let stereo = zip(mono, mono.reversed()).flatMap { [$0, $1 * 0.5] }
    return [
      (
        "mono-8k-pcm16-long.wav",
        WAVWriter.data(Array(song.prefix(800)), channels: 1, sampleRate: 8000, encoding: .pcm16)
      ),
      ("mono-8k-pcm16.wav", WAVWriter.data(mono, channels: 1, sampleRate: 8000, encoding: .pcm16)),
      ("stereo-11k-pcm24.wav", WAVWriter.data(stereo, channels: 2, sampleRate: 11025, encoding: .pcm24)),
      ("mono-16k-pcm32.wav", WAVWriter.data(mono, channels: 1, sampleRate: 16000, encoding: .pcm32)),
      ("stereo-44k-float-extensible.wav", WAVWriter.float32(stereo, channels: 2, sampleRate: 44100, extensible: true)),
    ]
  }
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let path = FuzzScratch.write(UnsafeBufferPointer(start: data, count: size), name: "fuzzed.wav")
  let wav: WAVFile
  do {
    wav = try WAVFile(path: path)
  } catch {
    fuzzExpect(error.path == path && !error.reason.isEmpty, "a refusal that names no file: \(error)")
    return 0
  }
  let generator = SignatureGenerator(parameters: FingerprintParameters(), purpose: .reference)
  do {
    _ = try wav.decode { samples, channels, rate in try generator.append(samples, channels: channels, sampleRate: rate)
    }
    _ = generator.signature()
  } catch {
    fuzzExpect(!"\(error)".isEmpty, "a decode error without a reason")
  }
  return 0
}
