import Common
import Foundation
import Matcher

/// Builds the catalogs of the catalog-scale benchmark (`Benchmarks build-scale-catalog`): a base catalog (the dev
/// catalog, fingerprinted as `catalog add` does) plus, for each size, enough distractor copies of real music
/// (`ScaleCatalogPlan`) to reach that many hours.
///
/// Each real file is decoded once; its audio-level copies are resampled in memory by the fingerprint front end
/// (libsoxr, as for any input rate) and fingerprinted with purpose `.reference`; its peak-level copies are derived
/// from the audio-level copy of the same direction nearest in speed (`PeakLevelCopy`). Decoding and fingerprinting run
/// on `threads` workers; the catalog builders (one per size: `CatalogBuilder` is single-threaded) are fed on the
/// calling thread in a fixed order, so the catalogs are the same from run to run.
struct ScaleCatalogBuild {
  struct BaseTrack: Sendable {
    var path: String
    var metadata: TrackMetadata
  }

  var baseTracks: [BaseTrack]
  var sources: [ScaleSource]
  var sizesHours: [Double]
  /// Distractor hours made from audio; the rest are derived at the peak level.
  var audioLevelHours: Double
  var outputFolder: URL
  var threads = 2
  /// Rate the real music is decoded at before it is resampled: high enough that a copy slowed to the lowest speed
  /// factor still fills the fingerprint band (3750 Hz / 0.55 = 6.8 kHz < 8 kHz).
  var decodeRateHz = 16_000
  var parameters = FingerprintParameters()

  /// The figures of one built catalog. The import and peak-level figures cover the whole run (every size shares the
  /// copies); the build and write figures are this catalog's own.
  struct Report: Codable, Sendable {
    var sizeHours: Double
    var catalogPath: String
    var tracks: Int
    var hours: Double
    var baseTracks: Int
    var distractorTracks: Int
    var audioLevelCopies: Int
    var peakLevelCopies: Int
    var hashCount: Int
    var indexBytes: Int
    var fileBytes: Int
    /// Audio fingerprinted from audio (base tracks and audio-level copies), and the CPU time of that: decoding (the
    /// ffmpeg processes included), resampling and fingerprinting.
    var importAudioSeconds: Double
    var importCPUSeconds: Double
    var peakLevelCPUSeconds: Double
    /// CPU time of `CatalogBuilder.add` (pair hashing) for this catalog's tracks.
    var addCPUSeconds: Double
    var buildWallSeconds: Double
    var writeWallSeconds: Double
    var runWallSeconds: Double
    /// Largest resident memory of the building process so far (every size's builder included).
    var maxResidentMB: Double
    var threads: Int
    var variants: Int
    var audioLevelVariants: Int
    var skippedFiles: [String]
  }

  private struct Fingerprints: Sendable {
    var signatures: [(variant: Int, signature: Signature)] = []
    var key = ""
    var audioSeconds = 0.0
    var audioCPUSeconds = 0.0
    var peakCPUSeconds = 0.0
    var failure: String?
  }

  /// Builds and writes every size's catalog (`scale-<hours>h.bmcat` in `outputFolder`); `progress` gets a line now
  /// and then.
  func run(progress: (String) -> Void) throws -> [Report] {
    let started = Date()
    let children0 = childCPUSeconds()
    let sizes = Array(Set(sizesHours)).sorted()
    let baseMetadata = baseTracks
    let fingerprinter = ReferenceFingerprinter(parameters: parameters)
    // The base tracks' hours come from the files' headers, for the plan only.
    let probe = AudioFileDecoder()
    let baseHours = baseTracks.reduce(0) { $0 + (probe.probeDurationSeconds(path: $1.path) ?? 0) } / 3600
    let plan = try ScaleCatalogPlan(
      sources: sources, baseHours: baseHours, sizesHours: sizes, audioLevelHours: audioLevelHours)
    let largest = plan.entryCounts.values.max() ?? 0
    let bySource = plan.variantsBySource(firstEntries: largest)
    let entryIndex = Dictionary(
      uniqueKeysWithValues: plan.entries.prefix(largest).enumerated().map { ("\($1.source)/\($1.variant)", $0) })
    let jobs = baseTracks.count + sources.count
    let parameters = self.parameters
    let decodeRate = decodeRateHz
    let sources = self.sources
    let work: @Sendable (Int) -> Fingerprints = { job in
      if job < baseMetadata.count {
        return Self.fingerprintBase(baseMetadata[job].path, fingerprinter)
      }
      let s = job - baseMetadata.count
      return Self.fingerprintCopies(
        of: sources[s].path, variants: bySource[s].map { ($0, plan.variants[$0], plan.isAudioLevel(variant: $0)) },
        parameters: parameters, decodeRateHz: decodeRate)
    }

    var builders = sizes.map { _ in CatalogBuilder(parameters: parameters) }
    var addCPU = [Double](repeating: 0, count: sizes.count)
    var added = [(base: Int, audioLevel: Int, peakLevel: Int)](repeating: (0, 0, 0), count: sizes.count)
    var importSeconds = 0.0
    var importCPU = 0.0
    var peakCPU = 0.0
    var skipped: [String] = []
    var distractorHours = 0.0
    var lastReport = Date.distantPast
    let pool = OrderedWorkPool(count: jobs, window: 4 * threads, work: work)
    pool.run(threads: threads) { job, result in
      importSeconds += result.audioSeconds
      importCPU += result.audioCPUSeconds
      peakCPU += result.peakCPUSeconds
      let path = job < baseTracks.count ? baseTracks[job].path : sources[job - baseTracks.count].path
      if let failure = result.failure {
        skipped.append(path)
        progress("skipped \(path): \(failure)")
        return
      }
      for (variant, signature) in result.signatures {
        let key: String
        let metadata: TrackMetadata
        let entry: Int?
        if job < baseTracks.count {
          (key, metadata, entry) = (result.key, baseTracks[job].metadata, nil)
        } else {
          let s = job - baseTracks.count
          let v = plan.variants[variant]
          let file = URL(fileURLWithPath: path)
          key = "scale-\(result.key)-\(v)"
          metadata = TrackMetadata(
            title: "\(file.deletingPathExtension().lastPathComponent) \(v)",
            artist: file.deletingLastPathComponent().lastPathComponent, album: Self.distractorAlbum)
          entry = entryIndex["\(s)/\(variant)"]
          distractorHours += signature.durationSeconds / 3600
        }
        for (i, size) in sizes.enumerated() {
          if let entry, entry >= plan.entryCounts[size] ?? 0 { continue }
          let cpu0 = threadCPUSeconds()
          builders[i].add(signature: signature, key: key, sourcePath: path, metadata: metadata)
          addCPU[i] += threadCPUSeconds() - cpu0
          if entry == nil {
            added[i].base += 1
          } else if plan.isAudioLevel(variant: variant) {
            added[i].audioLevel += 1
          } else {
            added[i].peakLevel += 1
          }
        }
      }
      if Date().timeIntervalSince(lastReport) >= 2 || job == jobs - 1 {
        lastReport = Date()
        progress(
          String(
            format: "build-scale-catalog: file %d/%d, %.1f h of distractors, %.0f s, max RSS %.0f MB", job + 1,
            jobs, distractorHours, Date().timeIntervalSince(started), maxResidentMB()))
      }
    }
    importCPU += childCPUSeconds() - children0

    var reports: [Report] = []
    for (i, size) in sizes.enumerated() {
      let builder = builders[i]
      let name = String(format: "scale-%gh.bmcat", size)
      let url = outputFolder.appendingPathComponent(name)
      progress("build-scale-catalog: building the \(name) index (\(builder.trackCount) tracks)")
      let t0 = Date()
      let catalog = try builder.build()
      let t1 = Date()
      progress("build-scale-catalog: writing \(url.path)")
      try catalog.write(to: url)
      let t2 = Date()
      let fileBytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
      let info = catalog.info(fileBytes: fileBytes)
      reports.append(
        Report(
          sizeHours: size, catalogPath: url.path, tracks: info.trackCount, hours: info.hours,
          baseTracks: added[i].base, distractorTracks: added[i].audioLevel + added[i].peakLevel,
          audioLevelCopies: added[i].audioLevel, peakLevelCopies: added[i].peakLevel, hashCount: info.hashCount,
          indexBytes: info.indexBytes,
          fileBytes: fileBytes, importAudioSeconds: importSeconds, importCPUSeconds: importCPU,
          peakLevelCPUSeconds: peakCPU, addCPUSeconds: addCPU[i], buildWallSeconds: t1.timeIntervalSince(t0),
          writeWallSeconds: t2.timeIntervalSince(t1), runWallSeconds: t2.timeIntervalSince(started),
          maxResidentMB: maxResidentMB(), threads: threads, variants: plan.variants.count,
          audioLevelVariants: plan.audioLevelVariantCount, skippedFiles: skipped))
      builders[i] = CatalogBuilder(parameters: parameters)  // frees this size's hashes before the next build
    }
    return reports
  }

  /// The album of every distractor copy, so that a play of one is easy to tell in a play log.
  static let distractorAlbum = "catalog-scale distractor"

  private static func fingerprintBase(_ path: String, _ fingerprinter: ReferenceFingerprinter) -> Fingerprints {
    var out = Fingerprints()
    let cpu0 = threadCPUSeconds()
    do {
      out.key = try ReferenceFingerprinter.key(ofFileAt: path)
      let signature = try fingerprinter.signature(ofFileAt: path)
      out.signatures = [(0, signature)]
      out.audioSeconds = signature.durationSeconds
    } catch {
      out.failure = "\(error)"
    }
    out.audioCPUSeconds = threadCPUSeconds() - cpu0
    return out
  }

  /// Decodes `path` once and makes the signatures of its `variants` (index, variant, made from audio?).
  private static func fingerprintCopies(
    of path: String, variants: [(index: Int, variant: ScaleVariant, audioLevel: Bool)],
    parameters: FingerprintParameters, decodeRateHz: Int
  ) -> Fingerprints {
    var out = Fingerprints()
    guard !variants.isEmpty else { return out }
    let cpu0 = threadCPUSeconds()
    do {
      out.key = try ReferenceFingerprinter.key(ofFileAt: path)
      let (samples, rate) = try decodeMono(path, rateHz: decodeRateHz)
      var reversedSamples: [Float] = []
      var fromAudio: [(variant: ScaleVariant, signature: Signature)] = []
      for (index, variant, audioLevel) in variants where audioLevel {
        if variant.reversed, reversedSamples.isEmpty { reversedSamples = samples.reversed() }
        let generator = SignatureGenerator(parameters: parameters, purpose: .reference)
        try generator.append(variant.reversed ? reversedSamples : samples, sampleRate: rate * variant.speedFactor)
        let signature = generator.signature()
        guard signature.frameCount > 0 else { throw AudioError.noAudio(path: path) }
        out.signatures.append((index, signature))
        fromAudio.append((variant, signature))
        out.audioSeconds += signature.durationSeconds
      }
      out.audioCPUSeconds = threadCPUSeconds() - cpu0
      let cpu1 = threadCPUSeconds()
      for (index, variant, audioLevel) in variants where !audioLevel {
        // The nearest base in log-speed, preferring one of the same direction.
        let base = fromAudio.min { a, b in
          let da =
            abs(log(variant.speedFactor / a.variant.speedFactor)) + (a.variant.reversed == variant.reversed ? 0 : 10)
          let db =
            abs(log(variant.speedFactor / b.variant.speedFactor)) + (b.variant.reversed == variant.reversed ? 0 : 10)
          return da < db
        }!
        out.signatures.append(
          (
            index,
            PeakLevelCopy.signature(
              of: base.signature, speedFactor: variant.speedFactor / base.variant.speedFactor,
              reversed: variant.reversed != base.variant.reversed)
          ))
      }
      out.peakCPUSeconds = threadCPUSeconds() - cpu1
    } catch {
      out.signatures = []
      out.failure = "\(error)"
      out.audioCPUSeconds = threadCPUSeconds() - cpu0
    }
    return out
  }

  /// The whole file as mono samples, at `rateHz` (ffmpeg) or the WAV file's own rate.
  static func decodeMono(_ path: String, rateHz: Int) throws -> (samples: [Float], rate: Double) {
    var samples: [Float] = []
    var rate = Double(rateHz)
    try AudioFileDecoder(ffmpegSampleRate: rateHz).decode(path: path) { chunk, channels, chunkRate in
      rate = chunkRate
      if channels == 1 {
        samples.append(contentsOf: chunk)
      } else {
        let frames = chunk.count / channels
        let scale = 1 / Float(channels)
        for f in 0..<frames {
          var sum: Float = 0
          for c in 0..<channels { sum += chunk[f * channels + c] }
          samples.append(sum * scale)
        }
      }
    }
    return (samples, rate)
  }
}

/// CPU time of the calling thread.
func threadCPUSeconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
