import Common
import Foundation
import Matcher

/// A reference signature of `seconds` of random peaks, at the density real music gives (12 a second).
func syntheticSignature(
  seconds: Double, parameters: FingerprintParameters, using rng: inout some RandomNumberGenerator
) -> Signature {
  let frames = Int(seconds * parameters.framesPerSecond)
  let peaksPerFrame = 12 / parameters.framesPerSecond
  var peaks: [Peak] = []
  peaks.reserveCapacity(Int(Double(frames) * peaksPerFrame) + 8)
  var carry = 0.0
  for f in 0..<frames {
    carry += peaksPerFrame
    while carry >= 1 {
      carry -= 1
      peaks.append(Peak(frame: Int32(f), bin: Float.random(in: 33...479, using: &rng), strength: 10))
    }
  }
  return Signature(
    parameters: parameters, sampleCount: Int(seconds) * parameters.sampleRateHz, peaks: peaks,
    audibleStartSeconds: 0, audibleEndSeconds: seconds)
}

/// Adding `added` tracks of 4 minutes to an empty catalog and to one of `hours` hours (synthetic tracks of random
/// peaks, as `catalog-load`): load, add, build, write, as `catalog add` does after fingerprinting. The time should
/// follow the tracks added, not the catalog. `keep` keeps the big catalog's file there (for timing `catalog add`
/// itself on it).
func benchCatalogEdit(hours: Double, added: Int, keep: String?) throws {
  let parameters = FingerprintParameters()
  var rng = SystemRandomNumberGenerator()
  let trackSeconds = 240.0
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bm-bench-edit-\(getpid())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let bigURL = keep.map { URL(fileURLWithPath: $0) } ?? folder.appendingPathComponent("big.bmcat")
  let t0 = Date()
  let big = CatalogBuilder(parameters: parameters)
  for t in 0..<Int((hours * 3600 / trackSeconds).rounded(.up)) {
    big.add(
      signature: syntheticSignature(seconds: trackSeconds, parameters: parameters, using: &rng),
      key: String(format: "synthetic-%06d", t), sourcePath: "/synthetic/\(t).wav",
      metadata: TrackMetadata(title: "Synthetic \(t)", artist: "Benchmark"))
  }
  let bigCatalog = try big.build()
  try bigCatalog.write(to: bigURL)
  let info = bigCatalog.info()
  print(
    String(
      format: "catalog-edit: big catalog of %d tracks, %.0f hours, %d hashes, index %.0f MB, made in %.0f s",
      info.trackCount, info.hours, info.hashCount, Double(info.indexBytes) / 1e6, Date().timeIntervalSince(t0)))
  let signatures = (0..<added).map { _ in
    syntheticSignature(seconds: trackSeconds, parameters: parameters, using: &rng)
  }
  for (name, source) in [("empty", nil), ("big", bigURL)] as [(String, URL?)] {
    let url = folder.appendingPathComponent("\(name)-edited.bmcat")
    if let source { try FileManager.default.copyItem(at: source, to: url) }
    let start = Date()
    let builder =
      FileManager.default.fileExists(atPath: url.path)
      ? CatalogBuilder(editing: try Catalog.load(from: url)) : CatalogBuilder(parameters: parameters)
    let loaded = Date()
    for (i, signature) in signatures.enumerated() {
      builder.add(
        signature: signature, key: String(format: "added-%06d", i), sourcePath: "/added/\(i).wav",
        metadata: TrackMetadata(title: "Added \(i)", artist: "Benchmark"))
    }
    let addedAt = Date()
    let catalog = try builder.build()
    let built = Date()
    try catalog.write(to: url)
    let written = Date()
    print(
      String(
        format:
          "catalog-edit: %d tracks (%.1f h) added to the %@ catalog in %.2f s: load %.2f s, add %.2f s, build %.2f s, write %.2f s; now %d tracks",
        added, Double(added) * trackSeconds / 3600, name, written.timeIntervalSince(start),
        loaded.timeIntervalSince(start), addedAt.timeIntervalSince(loaded), built.timeIntervalSince(addedAt),
        written.timeIntervalSince(built), catalog.tracks.count))
  }
  print(String(format: "catalog-edit: max RSS %.0f MB", maxResidentMB()))
}
