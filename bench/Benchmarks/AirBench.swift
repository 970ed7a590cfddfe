import Foundation
import Matcher

// The air classifier's benchmarks (README "Unknown music"):
//
//   Benchmarks air-features CATALOG RECORDING      one CSV row per classification window: the features, the
//                                                   window's label and music score, to tune `ClassifierTuning`
//   Benchmarks air-cost CATALOG RECORDING [RUNS]   CPU time of the stream matcher with and without the air watch

/// Keeps the stretches, to count them.
final class StretchCounter: AirStretchSink {
  var stretches: [AirStretch] = []
  func receive(_ stretch: AirStretch) { stretches.append(stretch) }
}

func dumpAirFeatures(catalogPath: String, recording: String) throws {
  let catalog = try Catalog.load(from: URL(fileURLWithPath: catalogPath))
  let counter = StretchCounter()
  let watch = AirWatch(parameters: catalog.parameters, stretches: counter)
  let rate = Double(catalog.parameters.sampleRateHz) / Double(catalog.parameters.hopSizeSamples)
  print("start_s,end_s,level_db,low_share,modulation_db,flatness,flux,harmonicity,peaks_per_s,label,music_score")
  watch.featureLog = { f, label, score in
    let start = Double(f.startFrame) / rate
    print(
      String(
        format: "%.3f,%.3f,%.2f,%.3f,%.2f,%.4f,%.4f,%.4f,%.1f,%@,%.3f", start, start + Double(f.frameCount) / rate,
        f.levelDB, f.lowEnergyShare, f.syllableModulationDB, f.flatness, f.flux, f.harmonicity, f.peaksPerSecond,
        label.rawValue, score))
  }
  let matcher = StreamMatcher(catalog: catalog, sink: nil, air: watch)
  _ = try AudioFileDecoder(ffmpegSampleRate: catalog.parameters.sampleRateHz).decode(path: recording) {
    samples, channels, rate in
    try matcher.append(samples, channels: channels, sampleRate: rate)
  }
  matcher.flush()
  for s in counter.stretches {
    FileHandle.standardError.write(
      Data(
        String(
          format: "%.3f,%.3f,%@,%@,%.3f\n", s.startSeconds, s.endSeconds, s.label.rawValue, s.item ?? "",
          s.musicConfidence
        ).utf8))
  }
}

func benchAirCost(catalogPath: String, recording: String, runs: Int) throws {
  let catalog = try Catalog.load(from: URL(fileURLWithPath: catalogPath))
  var plain: [Double] = []
  var watched: [Double] = []
  var stretches = 0
  for _ in 1...runs {
    for withAir in [false, true] {
      let sink = CountingSink()
      let counter = StretchCounter()
      let watch = withAir ? AirWatch(parameters: catalog.parameters, stretches: counter) : nil
      let matcher = StreamMatcher(catalog: catalog, sink: sink, air: watch)
      let cpu0 = cpuSeconds() + childCPUSeconds()
      _ = try AudioFileDecoder(ffmpegSampleRate: catalog.parameters.sampleRateHz).decode(path: recording) {
        samples, channels, rate in
        try matcher.append(samples, channels: channels, sampleRate: rate)
      }
      matcher.flush()
      let cpu = cpuSeconds() + childCPUSeconds() - cpu0
      if withAir {
        watched.append(cpu)
        stretches = counter.stretches.count
      } else {
        plain.append(cpu)
      }
    }
  }
  let a = median(plain)
  let b = median(watched)
  print(
    String(
      format: "air-cost: matcher %.2f s CPU, with the air watch %.2f s (+%.1f %%, target < 15 %%), %d stretches", a,
      b, a > 0 ? 100 * (b - a) / a : 0, stretches))
}
