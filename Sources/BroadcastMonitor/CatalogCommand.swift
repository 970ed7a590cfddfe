import Foundation
import Matcher

/// `broadcast-monitor catalog add|list|info|remove --catalog FILE …`
enum CatalogCommand {
  static let usage = """
    usage: broadcast-monitor catalog add --catalog FILE [--metadata tracks.csv] [PATH...]
           broadcast-monitor catalog list --catalog FILE
           broadcast-monitor catalog info --catalog FILE
           broadcast-monitor catalog remove --catalog FILE KEY|ISRC|PATH...
    """

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    guard let sub = args.first else { throw UsageError(usage) }
    let rest = args.dropFirst()
    switch sub {
    case "add": return try add(CommandLineArguments(rest, valueOptions: ["catalog", "metadata"]))
    case "list": return try list(CommandLineArguments(rest, valueOptions: ["catalog"]))
    case "info": return try info(CommandLineArguments(rest, valueOptions: ["catalog"]))
    case "remove": return try remove(CommandLineArguments(rest, valueOptions: ["catalog"]))
    default: throw UsageError("unknown catalog command `\(sub)`\n\(usage)")
    }
  }

  static let audioExtensions: Set<String> = [
    "wav", "wave", "flac", "mp3", "ogg", "oga", "opus", "m4a", "aac", "mp4", "wma", "aif", "aiff", "mka", "webm",
  ]

  /// Files under the given paths (folders recursively, audio extensions only), sorted.
  static func audioFiles(in paths: [String]) throws -> [URL] {
    var files: [URL] = []
    let fm = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { throw UsageError("\(path): no such file") }
      let url = URL(fileURLWithPath: path).standardizedFileURL
      if isDirectory.boolValue {
        let walker = fm.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
        while let f = walker?.nextObject() as? URL {
          if audioExtensions.contains(f.pathExtension.lowercased()) { files.append(f.standardizedFileURL) }
        }
      } else {
        files.append(url)
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  static func openOrCreate(_ url: URL) throws -> CatalogBuilder {
    if FileManager.default.fileExists(atPath: url.path) {
      return CatalogBuilder(editing: try Catalog.load(from: url))
    }
    return CatalogBuilder()
  }

  static func add(_ a: CommandLineArguments) throws -> Int32 {
    let catalogURL = URL(fileURLWithPath: try a.required("catalog"))
    let sheet = try a.value("metadata").map { try MetadataSheet(contentsOf: URL(fileURLWithPath: $0)) }
    var files = try audioFiles(in: a.positionals)
    if a.positionals.isEmpty, let sheet { files = sheet.paths }
    guard !files.isEmpty else {
      throw UsageError("nothing to add: give audio files or folders, or --metadata with a path column")
    }
    let builder = try openOrCreate(catalogURL)
    let fingerprinter = ReferenceFingerprinter(parameters: builder.parameters)
    let progress = ProgressReporter()
    let started = Date()
    var audioSeconds = 0.0
    var added = 0
    var unchanged = 0
    var failed: [(String, String)] = []
    for (i, file) in files.enumerated() {
      progress.update("catalog add: \(i + 1)/\(files.count) \(file.lastPathComponent)")
      do {
        let key = try ReferenceFingerprinter.key(ofFileAt: file.path)
        let metadata = sheet?.metadata(for: file) ?? AudioTags.metadata(path: file.path)
        if builder.contains(key: key) {
          builder.updateMetadata(key: key, metadata: metadata)
          unchanged += 1
          continue
        }
        let signature = try fingerprinter.signature(ofFileAt: file.path)
        builder.add(signature: signature, key: key, sourcePath: file.path, metadata: metadata)
        audioSeconds += signature.durationSeconds
        added += 1
      } catch {
        failed.append((file.path, "\(error)"))
        progress.finish()
        printError("skipped: \(error)")
      }
    }
    progress.finish()
    let catalog = try builder.build()
    try catalog.write(to: catalogURL)
    let elapsed = Date().timeIntervalSince(started)
    let speed = elapsed > 0 ? audioSeconds / elapsed : 0
    print(
      "catalog \(catalogURL.path): added \(added), already present \(unchanged), failed \(failed.count); "
        + "now \(catalog.tracks.count) tracks"
        + String(format: " (%.1f min of audio in %.1f s, %.0f× real time)", audioSeconds / 60, elapsed, speed))
    return failed.isEmpty ? 0 : 2
  }

  static func list(_ a: CommandLineArguments) throws -> Int32 {
    let catalog = try Catalog.load(from: URL(fileURLWithPath: try a.required("catalog")))
    print("key\tkind\tduration_s\tisrc\tartist\ttitle")
    for t in catalog.tracks {
      let m = t.metadata
      print(
        "\(t.key)\t\(m.kind.rawValue)\t\(String(format: "%.1f", t.durationSeconds))\t\(m.isrc)\t\(m.artist)\t\(m.title)"
      )
    }
    return 0
  }

  static func info(_ a: CommandLineArguments) throws -> Int32 {
    let url = URL(fileURLWithPath: try a.required("catalog"))
    let started = Date()
    let catalog = try Catalog.load(from: url)
    let loadSeconds = Date().timeIntervalSince(started)
    let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    let info = catalog.info(fileBytes: bytes)
    let perHour = info.hours > 0 ? Double(info.indexBytes) / info.hours / 1_000_000 : 0
    print("catalog:      \(url.path)")
    print("tracks:       \(info.trackCount)")
    print(String(format: "hours:        %.2f", info.hours))
    print("hashes:       \(info.hashCount)")
    print(String(format: "index bytes:  %d (%.2f MB per hour of audio)", info.indexBytes, perHour))
    if let b = info.fileBytes { print("file bytes:   \(b)") }
    print(String(format: "loaded in:    %.3f s", loadSeconds))
    let kinds = Dictionary(grouping: catalog.tracks, by: \.metadata.kind).mapValues(\.count)
    print(
      "kinds:        "
        + kinds.keys.sorted { $0.rawValue < $1.rawValue }.map { "\($0.rawValue) \(kinds[$0]!)" }.joined(separator: ", ")
    )
    return 0
  }

  static func remove(_ a: CommandLineArguments) throws -> Int32 {
    let url = URL(fileURLWithPath: try a.required("catalog"))
    guard !a.positionals.isEmpty else { throw UsageError("catalog remove: name the tracks (key, ISRC or path)") }
    let catalog = try Catalog.load(from: url)
    let builder = CatalogBuilder(editing: catalog)
    var missing: [String] = []
    for word in a.positionals {
      let absolute = URL(fileURLWithPath: word).standardizedFileURL.path
      let hits = catalog.tracks.filter {
        $0.key == word || (!word.isEmpty && $0.metadata.isrc == word.uppercased()) || $0.sourcePath == absolute
      }
      if hits.isEmpty { missing.append(word) }
      for t in hits {
        builder.remove(key: t.key)
        print("removed \(t.key) \(t.metadata.artist) – \(t.metadata.title)")
      }
    }
    try builder.build().write(to: url)
    for m in missing { printError("not in the catalog: \(m)") }
    return missing.isEmpty ? 0 : 1
  }
}
