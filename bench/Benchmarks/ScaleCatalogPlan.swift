import Foundation

/// A real recording that distractor copies are made from.
struct ScaleSource: Sendable, Equatable {
  var path: String
  var durationSeconds: Double
}

/// Which copies go into which catalog of the catalog-scale benchmark.
///
/// Copies are taken variant by variant (every source as the original, then every source reversed, then every source
/// at the next speed factor …), so that each catalog is a prefix of the next larger one and the sources weigh evenly.
/// The first variants are made from audio, up to `audioLevelHours` of distractors (whole variants, and at least the
/// originals); the rest are derived from those at the peak level (`PeakLevelCopy`).
struct ScaleCatalogPlan: Sendable {
  struct Entry: Sendable, Equatable {
    var source: Int
    var variant: Int
    /// Distractor hours up to and including this entry.
    var cumulativeHours: Double
  }

  let sources: [ScaleSource]
  let variants: [ScaleVariant]
  /// Variants `0..<audioLevelVariantCount` are made from audio.
  let audioLevelVariantCount: Int
  /// In the order they are taken.
  let entries: [Entry]
  /// For each requested size in hours, how many leading entries it takes.
  let entryCounts: [Double: Int]

  struct PlanError: Error, CustomStringConvertible {
    let description: String
  }

  /// Most variants of one source: 10,000 h from 15 h of music needs about 700.
  static let maximumVariants = 20_000

  /// - Parameters:
  ///   - sizesHours: total catalog sizes wanted; each gets `size − baseHours` hours of distractors (none when the base
  ///     alone is that large).
  ///   - baseHours: hours of the catalog that every size holds unchanged (the dev catalog).
  init(sources: [ScaleSource], baseHours: Double, sizesHours: [Double], audioLevelHours: Double) throws {
    let needed = sizesHours.map { max(0, $0 - baseHours) }
    let most = needed.max() ?? 0
    let roundHours = sources.reduce(0) { $0 + $1.durationSeconds } / 3600
    guard most == 0 || roundHours > 0 else {
      throw PlanError(description: "no distractor music: give --music a folder of audio files (fetch-scale-music.sh)")
    }
    // Variant v's round of copies lasts roundHours / speedFactor.
    let candidates = ScaleVariant.sequence(count: Self.maximumVariants)
    var variants: [ScaleVariant] = []
    var hours = 0.0
    while hours < most {
      guard variants.count < candidates.count else {
        throw PlanError(description: "\(most) h of distractors would need more than \(Self.maximumVariants) copies")
      }
      let v = candidates[variants.count]
      variants.append(v)
      hours += roundHours / v.speedFactor
    }
    var audioCount = 0
    var audioHours = 0.0
    for v in variants {
      let round = roundHours / v.speedFactor
      if audioCount > 0, audioHours + round > audioLevelHours { break }
      audioCount += 1
      audioHours += round
    }
    var entries: [Entry] = []
    hours = 0
    outer: for (vi, v) in variants.enumerated() {
      for (si, s) in sources.enumerated() {
        if hours >= most { break outer }
        hours += s.durationSeconds / v.speedFactor / 3600
        entries.append(Entry(source: si, variant: vi, cumulativeHours: hours))
      }
    }
    var counts: [Double: Int] = [:]
    for (size, want) in zip(sizesHours, needed) {
      counts[size] = want == 0 ? 0 : (entries.firstIndex { $0.cumulativeHours >= want } ?? entries.count - 1) + 1
    }
    self.sources = sources
    self.variants = variants
    audioLevelVariantCount = min(audioCount, variants.count)
    self.entries = entries
    entryCounts = counts
  }

  func isAudioLevel(variant: Int) -> Bool { variant < audioLevelVariantCount }

  /// Entries `0..<count` as (variant indices in ascending order) for each source.
  func variantsBySource(firstEntries count: Int) -> [[Int]] {
    var out = [[Int]](repeating: [], count: sources.count)
    for e in entries.prefix(count) { out[e.source].append(e.variant) }
    return out
  }
}
