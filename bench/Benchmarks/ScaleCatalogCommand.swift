import Common
import Foundation
import Matcher

/// `Benchmarks build-scale-catalog`: the catalogs of bench/catalog_scale.py. Prints one JSON object per catalog on
/// stdout (`ScaleCatalogBuild.Report`), progress on stderr.
///
///     Benchmarks build-scale-catalog --out FOLDER --sizes 100,1000 [--base tracks.csv] [--music FOLDER]
///                                    [--audio-hours 100] [--threads 2] [--min-seconds 30]
///
/// `--base`: a metadata CSV (`track_id,title,artist,album,isrc,duration_s,path`, paths relative to the CSV) whose
/// tracks every catalog holds unchanged; `--music`: a folder of real music (searched recursively) that the
/// distractor copies are made from (files shorter than `--min-seconds` are left out).
enum ScaleCatalogCommand {
  static let usage =
    "usage: Benchmarks build-scale-catalog --out FOLDER --sizes H[,H...] [--base tracks.csv] [--music FOLDER]"
    + " [--audio-hours H] [--threads N] [--min-seconds S]"

  struct UsageError: Error, CustomStringConvertible {
    let description: String
  }

  static func run(_ args: [String]) throws {
    var options: [String: String] = [:]
    var i = 0
    while i < args.count {
      let name = args[i]
      guard name.hasPrefix("--"), i + 1 < args.count else { throw UsageError(description: usage) }
      options[String(name.dropFirst(2))] = args[i + 1]
      i += 2
    }
    let known: Set = ["out", "sizes", "base", "music", "audio-hours", "threads", "min-seconds"]
    if let unknown = options.keys.first(where: { !known.contains($0) }) {
      throw UsageError(description: "unknown option --\(unknown)\n\(usage)")
    }
    guard let out = options["out"], let sizeList = options["sizes"] else { throw UsageError(description: usage) }
    let sizes = try sizeList.split(separator: ",").map { text in
      guard let h = Double(text), h >= 0 else {
        throw UsageError(description: "--sizes \(sizeList): give hours as numbers, such as 100,1000")
      }
      return h
    }
    func number(_ key: String, _ fallback: Double) throws -> Double {
      guard let text = options[key] else { return fallback }
      guard let v = Double(text), v >= 0 else { throw UsageError(description: "--\(key) \(text): not a number ≥ 0") }
      return v
    }
    let folder = URL(fileURLWithPath: out, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let base = try options["base"].map { try baseTracks(csv: URL(fileURLWithPath: $0)) } ?? []
    let minSeconds = try number("min-seconds", 30)
    let music = try options["music"].map { try musicSources(in: $0, minSeconds: minSeconds) } ?? []
    let build = ScaleCatalogBuild(
      baseTracks: base, sources: music, sizesHours: sizes, audioLevelHours: try number("audio-hours", 100),
      outputFolder: folder, threads: max(1, Int(try number("threads", 2))))
    printError(
      String(
        format: "build-scale-catalog: %d base tracks, %d music files (%.1f h) for sizes %@ h", base.count, music.count,
        music.reduce(0) { $0 + $1.durationSeconds } / 3600, sizeList))
    let reports = try build.run(progress: printError)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for r in reports { print(String(decoding: try encoder.encode(r), as: UTF8.self)) }
  }

  /// The tracks of a metadata CSV, with the columns `catalog add --metadata` reads.
  static func baseTracks(csv url: URL) throws -> [ScaleCatalogBuild.BaseTrack] {
    let rows = try CSVTable(contentsOf: url)
    let folder = url.deletingLastPathComponent()
    return try rows.records.map { r in
      guard let path = r["path"], !path.isEmpty else {
        throw UsageError(description: "\(url.path): a row has no path")
      }
      let file = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
      return ScaleCatalogBuild.BaseTrack(
        path: file.standardizedFileURL.path,
        metadata: TrackMetadata(
          title: r["title"] ?? file.lastPathComponent, artist: r["artist"] ?? "", album: r["album"] ?? "",
          isrc: (r["isrc"] ?? "").uppercased()))
    }
  }

  static let audioExtensions: Set = ["wav", "flac", "mp3", "ogg", "oga", "opus", "m4a", "xm", "mod", "it", "s3m"]

  /// Audio files under `folder`, sorted by path, with their durations (files ffprobe cannot read are left out).
  static func musicSources(in folder: String, minSeconds: Double) throws -> [ScaleSource] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw UsageError(description: "--music \(folder): no such folder (bash scripts/fetch-scale-music.sh makes it)")
    }
    var paths: [String] = []
    let walker = FileManager.default.enumerator(at: URL(fileURLWithPath: folder), includingPropertiesForKeys: nil)
    while let f = walker?.nextObject() as? URL {
      if audioExtensions.contains(f.pathExtension.lowercased()) { paths.append(f.standardizedFileURL.path) }
    }
    let sorted = paths.sorted()
    let durations = ProbedDurations(count: sorted.count)
    DispatchQueue.concurrentPerform(iterations: sorted.count) { i in
      durations.set(i, AudioFileDecoder().probeDurationSeconds(path: sorted[i]))
    }
    return sorted.indices.compactMap { i in
      guard let d = durations.values[i], d >= minSeconds else { return nil }
      return ScaleSource(path: sorted[i], durationSeconds: d)
    }
  }
}

func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
