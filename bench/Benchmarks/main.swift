import Common
import Foundation
import Matcher

// Speed and memory benchmarks for the engine (release build: `swift build -c release --product Benchmarks`).
// Each prints its figures; `bench/run.sh` runs them all on the dev corpus. CPU time is user + system time of this
// process (getrusage), so the ratios are "× real time on one core"; each figure is the median of several runs.
//
//   Benchmarks scan CATALOG RECORDING [RUNS]     decode + stream matcher, as `scan` runs it
//   Benchmarks air-features CATALOG RECORDING      the air classifier's features per window (AirBench.swift)
//   Benchmarks air-cost CATALOG RECORDING [RUNS]   the air watch's share of the matcher's CPU time
//   Benchmarks import FILE... [--runs N]         reference fingerprinting (decode + signature), as `catalog add`
//   Benchmarks catalog-load HOURS [RUNS]         write and load a synthetic catalog of HOURS hours of audio
//   Benchmarks catalog-edit HOURS TRACKS [KEEP]  add TRACKS tracks to an empty catalog and to one of HOURS hours
//                                                (CatalogEditBench.swift)
//   Benchmarks jack-source SERVER CHANNELS CLIENT FILE [SECONDS]
//                                                many stereo channels of music into a monitor's JACK ports
//                                                (bench/capacity.sh)
//   Benchmarks unknown-clusters SEGMENTS [RECORDINGS]
//                                                the unknown-music index over SEGMENTS segments of 4 minutes (airings
//                                                of RECORDINGS recordings): time per assignment and memory as it
//                                                grows (UnknownClustersBench.swift)
//   Benchmarks build-scale-catalog --out FOLDER --sizes H[,H...] [--base tracks.csv] [--music FOLDER] …
//                                                the catalogs of bench/catalog_scale.py (ScaleCatalogCommand.swift)
//   Benchmarks reports FOLDER [--channels N] [--days N] [--runs N] [--year-runs N] [--inserts N]
//                     [--reports-only] [--postgresql URL [--postgresql-copied]]
//                                                a year of plays for 50 channels: report times (from SQLite and
//                                                PostgreSQL), insert throughput
//                                                (bench/reports.sh; see ReportsBench.swift)
//   Benchmarks postgresql URL [--nodes N] [--channels N] [--plays N] [--updates N]
//                                                plays/s into a PostgreSQL play log per node and in total
//                                                (bench/postgresql.sh; see PostgreSQLBench.swift)

func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  return user + system
}

func childCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_CHILDREN.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
    + Double(usage.ru_stime.tv_usec) / 1e6
}

func median(_ values: [Double]) -> Double {
  let s = values.sorted()
  return s.isEmpty ? 0 : (s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2)
}

func maxResidentMB() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_maxrss) / 1024
}

final class CountingSink: MatchEventSink {
  var plays = 0
  func receive(_ event: MatchEvent) {
    if case .playEnded = event { plays += 1 }
  }
}

func benchScan(catalogPath: String, recording: String, runs: Int) throws {
  let catalog = try Catalog.load(from: URL(fileURLWithPath: catalogPath))
  var ratios: [Double] = []
  var audioSeconds = 0.0
  var plays = 0
  for run in 1...runs {
    let sink = CountingSink()
    let matcher = StreamMatcher(catalog: catalog, sink: sink)
    let cpu0 = cpuSeconds() + childCPUSeconds()
    let summary = try AudioFileDecoder(ffmpegSampleRate: catalog.parameters.sampleRateHz).decode(path: recording) {
      samples, channels, rate in
      try matcher.append(samples, channels: channels, sampleRate: rate)
    }
    matcher.flush()
    let cpu = cpuSeconds() + childCPUSeconds() - cpu0
    audioSeconds = summary.durationSeconds
    plays = sink.plays
    ratios.append(audioSeconds / cpu)
    print(
      String(
        format: "scan run %d: %.0f s of audio in %.2f s CPU: %.0f× real time, %d plays", run, audioSeconds, cpu,
        audioSeconds / cpu, plays))
  }
  print(
    String(
      format: "scan: median %.0f× real time on one core (target ≥ 1000×), %.0f s of audio, %d plays, max RSS %.0f MB",
      median(ratios), audioSeconds, plays, maxResidentMB()))
}

func benchImport(files: [String], runs: Int) throws {
  let fingerprinter = ReferenceFingerprinter(parameters: FingerprintParameters())
  var ratios: [Double] = []
  for run in 1...runs {
    var seconds = 0.0
    let cpu0 = cpuSeconds() + childCPUSeconds()
    for f in files {
      seconds += try fingerprinter.signature(ofFileAt: f).durationSeconds
    }
    let cpu = cpuSeconds() + childCPUSeconds() - cpu0
    ratios.append(seconds / cpu)
    print(
      String(
        format: "import run %d: %.0f s of audio in %.2f s CPU (ffmpeg decoding included): %.0f× real time", run,
        seconds, cpu, seconds / cpu))
  }
  print(String(format: "import: median %.0f× real time per core (goal ≥ 500×)", median(ratios)))
}

/// A synthetic catalog of `hours` of audio: tracks of 4 minutes whose peaks are random, at the density real music
/// gives reference signatures (12 peaks a second).
func benchCatalogLoad(hours: Double, runs: Int) throws {
  let parameters = FingerprintParameters()
  let builder = CatalogBuilder(parameters: parameters)
  var rng = SystemRandomNumberGenerator()
  let trackSeconds = 240.0
  let tracks = Int((hours * 3600 / trackSeconds).rounded(.up))
  let t0 = Date()
  for t in 0..<tracks {
    let signature = syntheticSignature(seconds: trackSeconds, parameters: parameters, using: &rng)
    builder.add(
      signature: signature, key: String(format: "synthetic-%06d", t), sourcePath: "/synthetic/\(t).wav",
      metadata: TrackMetadata(title: "Synthetic \(t)", artist: "Benchmark", isrc: String(format: "ZZBMB%07d", t)))
  }
  let catalog = try builder.build()
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("bm-bench-\(getpid()).bmcat")
  defer { try? FileManager.default.removeItem(at: url) }
  try catalog.write(to: url)
  let info = catalog.info()
  let fileBytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
  print(
    String(
      format:
        "catalog-load: %d tracks, %.0f hours, %d hashes, index %.1f MB (%.2f MB per hour, target ≤ 1), file %.1f MB, built in %.0f s",
      info.trackCount, info.hours, info.hashCount, Double(info.indexBytes) / 1e6,
      Double(info.indexBytes) / 1e6 / info.hours,
      Double(fileBytes) / 1e6, Date().timeIntervalSince(t0)))
  var times: [Double] = []
  for run in 1...runs {
    let start = Date()
    let loaded = try Catalog.load(from: url)
    let elapsed = Date().timeIntervalSince(start)
    precondition(loaded.tracks.count == info.trackCount)
    times.append(elapsed)
    print(String(format: "catalog-load run %d: %.3f s", run, elapsed))
  }
  print(
    String(
      format: "catalog-load: median %.3f s for %.0f hours (page cache warm: the file was just written)", median(times),
      info.hours))
}

let args = Array(CommandLine.arguments.dropFirst())
do {
  switch args.first {
  case "scan" where args.count >= 3:
    try benchScan(catalogPath: args[1], recording: args[2], runs: args.count > 3 ? Int(args[3]) ?? 3 : 3)
  case "air-features" where args.count >= 3:
    try dumpAirFeatures(catalogPath: args[1], recording: args[2])
  case "air-cost" where args.count >= 3:
    try benchAirCost(catalogPath: args[1], recording: args[2], runs: args.count > 3 ? Int(args[3]) ?? 3 : 3)
  case "import" where args.count >= 2:
    try benchImport(files: Array(args.dropFirst()), runs: 3)
  case "catalog-load" where args.count >= 2:
    try benchCatalogLoad(hours: Double(args[1]) ?? 100, runs: args.count > 2 ? Int(args[2]) ?? 5 : 5)
  case "catalog-edit" where args.count >= 3:
    try benchCatalogEdit(
      hours: Double(args[1]) ?? 1000, added: Int(args[2]) ?? 100, keep: args.count > 3 ? args[3] : nil)
  case "build-scale-catalog":
    try ScaleCatalogCommand.run(Array(args.dropFirst()))
  case "reports" where args.count >= 2:
    try benchReports(Array(args.dropFirst()))
  case "postgresql" where args.count >= 2:
    try benchPostgreSQL(Array(args.dropFirst()))
  case "unknown-clusters" where args.count >= 2:
    benchUnknownClusters(segments: Int(args[1]) ?? 1000, recordings: args.count > 2 ? Int(args[2]) : nil)
  case "jack-source" where args.count >= 5:
    try benchJackSource(
      server: args[1], channels: Int(args[2]) ?? 64, destinationClient: args[3], file: args[4],
      seconds: args.count > 5 ? Double(args[5]) : nil)
  default:
    print(
      "usage: Benchmarks scan CATALOG RECORDING [RUNS] | air-features CATALOG RECORDING"
        + " | air-cost CATALOG RECORDING [RUNS] | import FILE... | catalog-load HOURS [RUNS]"
        + " | catalog-edit HOURS TRACKS [KEEP]"
        + " | jack-source SERVER CHANNELS CLIENT FILE [SECONDS] | unknown-clusters SEGMENTS [RECORDINGS]"
        + " | reports FOLDER [--channels N] [--days N] [--runs N] [--year-runs N] [--inserts N] [--reports-only]"
        + " [--postgresql URL [--postgresql-copied]]"
        + " | postgresql URL [--nodes N] [--channels N] [--plays N] [--updates N]"
        + " | build-scale-catalog --out FOLDER --sizes H[,H...] [--base tracks.csv] [--music FOLDER] …")
    exit(64)
  }
} catch {
  print("benchmark failed: \(error)")
  exit(1)
}
