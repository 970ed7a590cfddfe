import Common
import Foundation
import Matcher

/// A query signature of `seconds` of random peaks at the stream matcher's query density (`queryPeaksPerBlock` per
/// block), with random strengths: an unknown segment as a channel closes it, of music that never airs again.
func syntheticQuery(
  seconds: Double, parameters: FingerprintParameters, using rng: inout some RandomNumberGenerator
) -> Signature {
  let frames = Int(seconds * parameters.framesPerSecond)
  var peaks: [Peak] = []
  peaks.reserveCapacity(frames / parameters.peakBlockFrames * parameters.queryPeaksPerBlock)
  for block in 0..<(frames / parameters.peakBlockFrames) {
    var inBlock: [Peak] = (0..<parameters.queryPeaksPerBlock).map { _ in
      Peak(
        frame: Int32(block * parameters.peakBlockFrames + Int.random(in: 0..<parameters.peakBlockFrames, using: &rng)),
        bin: Float.random(in: 33...479, using: &rng), strength: Float.random(in: 3...30, using: &rng),
        frameOffset: Float.random(in: -0.5...0.5, using: &rng))
    }
    inBlock.sort { ($0.frame, $0.bin) < ($1.frame, $1.bin) }
    peaks += inBlock
  }
  return Signature(
    parameters: parameters, sampleCount: frames * parameters.hopSizeSamples, peaks: peaks, audibleStartSeconds: 0,
    audibleEndSeconds: seconds)
}

/// The unknown-music index over a long run: `segments` unknown segments assigned one after another, as channels close
/// them. Without `recordings`, each is 4 minutes of music heard once (random peaks). With it, each is an airing of
/// one of that many recordings of 4 minutes (random peaks, drawn in turn at random): from 0–60 s into it to 180–240 s,
/// with a random fifth of its peaks lost, as each airing's noise loses other peaks. Prints, at each tenth of the run,
/// the segments indexed and how many of them the search holds, the median time of the last assignments and the peak resident memory (the run's own copies
/// of the references, 45 kB a segment, included); then the time to restore them all, as a start does from the play
/// log.
func benchUnknownClusters(segments: Int, recordings: Int?) {
  let parameters = FingerprintParameters()
  var rng = SystemRandomNumberGenerator()
  let clusters = UnknownClusters(parameters: parameters)
  var references: [Signature] = []
  var recent: [Double] = []
  let pool = (0..<(recordings ?? 0)).map { _ in syntheticQuery(seconds: 240, parameters: parameters, using: &rng) }
  let step = max(1, segments / 10)
  print("segments  searched  hours  assign ms (median of the last \(step))  max RSS MB")
  for n in 1...segments {
    let query =
      pool.isEmpty
      ? syntheticQuery(seconds: 240, parameters: parameters, using: &rng)
      : airing(of: pool.randomElement(using: &rng)!, using: &rng)
    let start = Date()
    let assignment = clusters.assign(query)
    recent.append(Date().timeIntervalSince(start) * 1000)
    references.append(assignment.reference)
    if n % step == 0 {
      print(
        String(
          format: "%8d  %8d  %5.0f  %10.1f  %10.0f", n, clusters.searchedCount, Double(n) * 240 / 3600, median(recent),
          maxResidentMB()))
      fflush(nil)
      recent.removeAll()
    }
  }
  let restored = UnknownClusters(parameters: parameters)
  let start = Date()
  try? restored.restore(
    references.enumerated().map { (reference: $0.element, cluster: Int64($0.offset + 1), offsetSeconds: 0) })
  print(String(format: "restore of %d segments: %.1f s", restored.segmentCount, Date().timeIntervalSince(start)))
}

/// An airing of `recording` (`benchUnknownClusters`): from 0–60 s into it to 180–240 s, four peaks in five kept.
func airing(of recording: Signature, using rng: inout some RandomNumberGenerator) -> Signature {
  let from = Double.random(in: 0...60, using: &rng)
  let to = Double.random(in: 180...recording.durationSeconds, using: &rng)
  var excerpt = UnknownClusters.excerpt(recording, fromSeconds: from, toSeconds: to)
  excerpt.peaks = excerpt.peaks.filter { _ in Double.random(in: 0..<1, using: &rng) < 0.8 }
  return excerpt
}
