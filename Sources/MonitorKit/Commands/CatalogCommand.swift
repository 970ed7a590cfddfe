import Common
import Foundation
import Matcher

/// `broadcast-monitor catalog add|list|info|remove|duplicates|upgrade --catalog FILE …`
enum CatalogCommand {
  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let spec = CommandTable.catalog
    guard let sub = args.first else { throw UsageError(CommandHelp.help(spec)) }
    guard let subSpec = spec.subcommand(sub) else { throw UsageError(CommandHelp.unknownSubcommand(sub, of: spec)) }
    let a = try CommandLineArguments(args.dropFirst(), for: subSpec)
    switch sub {
    case "add": return try add(a)
    case "list": return try list(a)
    case "info": return try info(a)
    case "remove": return try remove(a)
    case "duplicates": return try duplicates(a)
    default: return try upgrade(a)
    }
  }

  static let audioExtensions: Set<String> = [
    "wav", "wave", "flac", "mp3", "ogg", "oga", "opus", "m4a", "aac", "mp4", "wma", "aif", "aiff", "mka", "webm",
  ]

  /// Files under the given paths (folders recursively, audio extensions only), sorted, and how many were skipped. A
  /// FIFO, socket or device is never read (reading a FIFO would wait for a writer forever): named directly it is
  /// refused, found in a folder it is skipped with a line on stderr. A folder inside that cannot be read, and a file
  /// whose name is not UTF-8 (which Foundation cannot name again to open it), are skipped the same way, so that the
  /// files missing from the catalog are known; each counts as a failed file (exit 2).
  static func audioFiles(in paths: [String]) throws -> (files: [URL], skipped: Int) {
    var files: [URL] = []
    var skipped = 0
    func skip(_ path: String, _ why: String) {
      printError(DisplayWidth.printable("skipped: \(path): \(why)"))
      skipped += 1
    }
    let fm = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { throw UsageError("\(path): no such file") }
      let url = URL(fileURLWithPath: path).standardizedFileURL
      if isDirectory.boolValue {
        let walker = fm.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey]) { folder, error in
          let reason = error.localizedDescription.trimmingCharacters(in: CharacterSet(charactersIn: "."))
          skip(
            folder.path,
            "cannot read this folder (\(reason)), so no file in it is added; let the user running broadcast-monitor "
              + "read it, or add its files another way")
          return true
        }
        while let f = walker?.nextObject() as? URL {
          guard audioExtensions.contains(f.pathExtension.lowercased()) else { continue }
          if isRegularFile(f.path) {
            files.append(f.standardizedFileURL)
          } else if f.path.unicodeScalars.contains("\u{FFFD}") {
            skip(
              f.path,
              "its name is not UTF-8 (shown with \u{FFFD}), so it cannot be opened; rename it in UTF-8 (`convmv -f "
                + "latin1 -t utf8 -r --notest FOLDER` renames a folder of Latin-1 names)")
          } else {
            skip(f.path, "not a regular file (a device, a pipe or a socket), so not read")
          }
        }
      } else if isRegularFile(path) {
        files.append(url)
      } else {
        throw UsageError("\(path): not a regular file (a device, a pipe or a socket); give audio files or folders")
      }
    }
    return (files.sorted { $0.path < $1.path }, skipped)
  }

  /// Whether `path` is a regular file, through symbolic links.
  static func isRegularFile(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
  }

  /// Refuses a folder, FIFO, socket or device named as a recording (`match`, `scan`): reading a FIFO waits for a
  /// writer forever, and the recording is read more than once. A path that does not exist or cannot be read is left
  /// to the reader's message.
  static func requireRegularFileIfPresent(_ path: String, for command: String) throws(UsageError) {
    guard let problem = FileReadProblem.of(path), problem.isNotAFile else { return }
    throw UsageError(
      "\(command): \(path) \(problem): give an audio file"
        + (problem == .folder ? "" : "; for a live source, use run"))
  }

  static func openOrCreate(_ url: URL) throws -> CatalogBuilder {
    if FileManager.default.fileExists(atPath: url.path) {
      return CatalogBuilder(editing: try Catalog.load(from: url))
    }
    return CatalogBuilder()
  }

  /// Most `--jobs`: each job is a thread and an ffmpeg process.
  static let maxJobs = 256

  /// `--jobs N`: files read at once; every core by default.
  static func jobs(_ a: CommandLineArguments) throws -> Int {
    guard let text = a.value("jobs") else { return ProcessInfo.processInfo.activeProcessorCount }
    guard let n = Int(text), (1...maxJobs).contains(n) else {
      throw UsageError(
        "--jobs \(text): give the number of files to read at once, a whole number from 1 to \(maxJobs) "
          + "(this machine has \(ProcessInfo.processInfo.activeProcessorCount) cores; the default is one job per core)")
    }
    return n
  }

  static func add(_ a: CommandLineArguments) throws -> Int32 {
    if let cluster = a.value("from-unknown") { return try addFromUnknown(a, clusterText: cluster) }
    if let option = fromUnknownOptions.first(where: { a.value($0) != nil }) {
      throw UsageError(
        "--\(option) describes the recording of --from-unknown CLUSTER; a file's metadata comes from its tags or "
          + "--metadata")
    }
    let catalogURL = URL(fileURLWithPath: try a.required("catalog"))
    let lock = try CatalogEditLock.take(catalogURL, command: "catalog add")
    defer { lock.release() }
    let jobs = try jobs(a)
    let sheet = try a.value("metadata").map { try MetadataSheet(contentsOf: URL(fileURLWithPath: $0)) }
    var (files, skippedInFolders) = try audioFiles(in: a.positionals)
    if a.positionals.isEmpty, let sheet { files = sheet.paths }
    guard !files.isEmpty else {
      throw UsageError("nothing to add: give audio files or folders, or --metadata with a path column")
    }
    let existed = FileManager.default.fileExists(atPath: catalogURL.path)
    let builder = try openOrCreate(catalogURL)
    let started = Date()
    let cpuBefore = cpuSecondsWithChildren()
    let progress = ImportProgress()
    var audioSeconds = 0.0
    var addedKeys: [String] = []
    var unchanged = 0
    var failed = skippedInFolders
    let reading = CatalogImport(
      files: files, jobs: jobs, parameters: builder.parameters, presentKeys: builder.keys, sheet: sheet)
    reading.run(
      take: { index, outcome in
        switch outcome {
        case .fingerprinted(let signature, let key, let metadata) where !builder.contains(key: key):
          builder.add(signature: signature, key: key, sourcePath: files[index].path, metadata: metadata)
          audioSeconds += signature.durationSeconds
          addedKeys.append(key)
        case .fingerprinted(_, let key, let metadata):
          // A copy of a file met earlier in this run is present by now too.
          builder.updateMetadata(key: key, metadata: metadata)
          unchanged += 1
        case .present(let key, let metadata):
          if let metadata { builder.updateMetadata(key: key, metadata: metadata) }
          unchanged += 1
        case .failed(let reason):
          failed += 1
          progress.message(DisplayWidth.printable("skipped: \(reason)"))
        }
      }, progress: progress.show)
    progress.finish()
    // A new catalog is laid out and indexed before the check: a minute or more at 1,000 hours.
    try showingSteps(of: builder, "catalog add") { try builder.prepare() }
    // The check takes milliseconds a track: shown only when it runs longer than a second (a first import of
    // thousands of tracks).
    let checking = ProgressReporter(quietSeconds: 1)
    let shared = try builder.sharedRecordings(ofKeys: addedKeys) { done in
      checking.update(
        "catalog add: checking \(done)/\(addedKeys.count) new tracks for recordings already present",
        force: done == addedKeys.count)
    }
    checking.finish()
    let allowDuplicates = a.has("allow-duplicates")
    let tracks = builder.orderedTracks
    for s in shared { progress.message(sharedRecordingLine(s, in: tracks, skipped: !allowDuplicates)) }
    if !shared.isEmpty && !allowDuplicates {
      builder.remove(keys: shared.map { tracks[$0.trackIndex].key })
      try showingSteps(of: builder, "catalog add") { try builder.prepare() }
    }
    let duplicates = allowDuplicates ? 0 : shared.count
    let added = addedKeys.count - duplicates
    // A catalog that did not exist and would hold nothing is not created: an empty file under the name would be
    // loaded by the monitor, which then refuses it as empty, instead of saying that the import failed.
    let creatingEmpty = !existed && builder.trackCount == 0
    if !creatingEmpty {
      try writing("catalog add", to: catalogURL) { try builder.write(to: catalogURL, progress: $0) }
    }
    let elapsed = Date().timeIntervalSince(started)
    let cpu = cpuSecondsWithChildren() - cpuBefore
    let jobsRun = max(1, min(jobs, files.count))  // as CatalogImport runs them: no more threads than files
    print(
      "catalog \(catalogURL.path): added \(added), already present \(unchanged), "
        + (duplicates > 0 ? "recordings already present \(duplicates), " : "") + "failed \(failed); "
        + (creatingEmpty ? "not created, as nothing was added" : "now \(builder.trackCount) tracks")
        + String(
          format:
            " (%.1f min of audio read in %.1f s with %d job%@: %.0f× real time; %.1f s of CPU with ffmpeg's, %.0f× real time per core)",
          audioSeconds / 60, elapsed, jobsRun, jobsRun == 1 ? "" : "s", elapsed > 0 ? audioSeconds / elapsed : 0,
          cpu, cpu > 0 ? audioSeconds / cpu : 0))
    return failed == 0 ? 0 : 2
  }

  /// Runs `body` with `builder`'s long steps (`CatalogBuilder.Step`) on a progress line, once they have taken a second.
  static func showingSteps(of builder: CatalogBuilder, _ command: String, _ body: () throws -> Void) rethrows {
    let reporter = ProgressReporter(quietSeconds: 1)
    builder.progress = { step, done in
      let what =
        switch step {
        case .readingIndex: "reading the postings the catalog keeps"
        case .pairIndex: "building the index"
        case .tripletIndex: "building the triplet index"
        }
      reporter.update(String(format: "%@: %@: %.0f %%", command, what, 100 * done), force: done >= 1)
    }
    defer {
      builder.progress = nil
      reporter.finish()
    }
    try body()
  }

  /// Runs `write`, which writes a catalog to `url` and reports the bytes written of the file's size, with a progress
  /// line once it has taken a second (a catalog of thousands of hours is gigabytes).
  static func writing(
    _ command: String, to url: URL, _ write: (_ progress: (_ written: Int, _ total: Int) -> Void) throws -> Void
  ) throws {
    let reporter = ProgressReporter(quietSeconds: 1)
    try write { written, total in
      reporter.update(
        String(
          format: "%@: writing %@: %.0f %% of %.1f GB", command, url.path,
          100 * Double(written) / Double(max(1, total)),
          Double(total) / 1e9),
        force: written == total)
    }
    reporter.finish()
  }

  /// One line for a track that repeats the recording of an earlier one: skipped (`skipped`), or added anyway
  /// (`--allow-duplicates`).
  static func sharedRecordingLine(_ s: SharedRecording, in tracks: [CatalogTrack], skipped: Bool) -> String {
    let path = tracks[s.trackIndex].sourcePath
    return DisplayWidth.printable(
      skipped
        ? "skipped: \(path): the catalog holds this recording already: \(sharedAudio(s, in: tracks)); each airing "
          + "would be logged under whichever copy is matched first. Add it anyway with --allow-duplicates, or remove "
          + "the other with catalog remove"
        : "warning: \(path) repeats a recording of the catalog: \(sharedAudio(s, in: tracks)); each airing is "
          + "logged once, under whichever copy is matched first")
  }

  /// What a track shares with the earlier track: how long, which track, and how far apart.
  static func sharedAudio(_ s: SharedRecording, in tracks: [CatalogTrack]) -> String {
    let earlier = tracks[s.earlierTrackIndex]
    let name =
      earlier.metadata.artist.isEmpty
      ? "\"\(earlier.metadata.title)\"" : "\"\(earlier.metadata.title)\" by \(earlier.metadata.artist)"
    // Rounded as printed, and + 0 turns a negative zero into 0, so that no copy is "shifted by -0.0 s".
    return String(
      format: "%.0f s of it are in %@ (key %@, %@), shifted by %+.1f s (%d of its %d indexed pairs agree)",
      s.sharedSeconds, name, earlier.key, earlier.sourcePath, (s.offsetSeconds * 10).rounded() / 10 + 0,
      s.sharedPairs, s.indexedPairs)
  }

  /// The options that only `--from-unknown` takes.
  static let fromUnknownOptions = ["title", "artist", "isrc", "kind", "db"]

  /// CPU seconds of this process and of its finished children (the ffmpeg processes), user and system.
  static func cpuSecondsWithChildren() -> Double {
    var total = 0.0
    for who in [RUSAGE_SELF, RUSAGE_CHILDREN] {
      var usage = rusage()
      getrusage(who.rawValue, &usage)
      total += Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      total += Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
    return total
  }

  static func list(_ a: CommandLineArguments) throws -> Int32 {
    let catalog = try Catalog.load(from: URL(fileURLWithPath: try a.required("catalog")))
    print("key\tkind\tduration_s\tisrc\tartist\ttitle")
    for t in catalog.tracks {
      let m = t.metadata
      // Text from the files' tags passes through `printable`: a tab or a line break in it would shift the columns or
      // forge a row.
      let fields = [t.key, m.kind.rawValue, String(format: "%.1f", t.durationSeconds), m.isrc, m.artist, m.title]
      print(fields.map(DisplayWidth.printable).joined(separator: "\t"))
    }
    return 0
  }

  /// `catalog info`'s format line: the file's version, and for an older one what upgrading it gains.
  static func formatLine(_ info: Catalog.Info) -> String {
    let upgrade = "; run `catalog upgrade`"
    let version = "version \(info.formatVersion)"
    let detail =
      switch info.formatVersion {
      case _ where !info.hasTripletIndex:
        "version 1, without the triplet index: searching a large catalog is slow" + upgrade
      case ..<3: "\(version), with index directories twice the size" + upgrade
      case 3: "\(version), with the tracks in JSON: twice as slow to load" + upgrade
      case 4:
        "\(version), without the recordings' quiet tails: songs whose tails are masked on the air are logged ending "
          + "early; `catalog add` the same files to a new catalog to measure them"
      case ..<Catalog.formatVersion: "\(version), with a checksum that is slower to check on every load" + upgrade
      default: version
      }
    return "format:       " + detail
  }

  /// `catalog info`'s index line: the bytes in full (a 10,000-hour catalog's exceed 32 bits) and per hour.
  static func indexBytesLine(_ info: Catalog.Info) -> String {
    let perHour = info.hours > 0 ? Double(info.indexBytes) / info.hours / 1_000_000 : 0
    return "index bytes:  \(info.indexBytes) (" + String(format: "%.2f", perHour) + " MB per hour of audio)"
  }

  static func info(_ a: CommandLineArguments) throws -> Int32 {
    let url = URL(fileURLWithPath: try a.required("catalog"))
    let started = Date()
    let catalog = try Catalog.load(from: url)
    let loadSeconds = Date().timeIntervalSince(started)
    let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    let info = catalog.info(fileBytes: bytes)
    print("catalog:      \(url.path)")
    print("tracks:       \(info.trackCount)")
    print(String(format: "hours:        %.2f", info.hours))
    print("hashes:       \(info.hashCount)")
    print(indexBytesLine(info))
    if let b = info.fileBytes { print("file bytes:   \(b)") }
    print(formatLine(info))
    print(String(format: "loaded in:    %.3f s", loadSeconds))
    // Counted in place, without a copy of the tracks (180,939 at 10,000 hours).
    var kinds: [ItemKind: Int] = [:]
    for track in catalog.tracks { kinds[track.metadata.kind, default: 0] += 1 }
    print(
      "kinds:        "
        + kinds.keys.sorted { $0.rawValue < $1.rawValue }.map { "\($0.rawValue) \(kinds[$0]!)" }.joined(separator: ", ")
    )
    return 0
  }

  static func remove(_ a: CommandLineArguments) throws -> Int32 {
    let url = URL(fileURLWithPath: try a.required("catalog"))
    guard !a.positionals.isEmpty else { throw UsageError("catalog remove: name the tracks (key, ISRC or path)") }
    let lock = try CatalogEditLock.take(url, command: "catalog remove")
    defer { lock.release() }
    let catalog = try Catalog.load(from: url)
    let builder = CatalogBuilder(editing: catalog)
    // Each name is looked up as a key, an ISRC and a path in indexes made once: a thousand names, each compared with
    // every track of a catalog of 180,000, took longer than the removal itself.
    var byName: [String: [Int]] = [:]
    for (i, t) in catalog.tracks.enumerated() {
      for name in Set([t.key, t.metadata.isrc, t.sourcePath]) where !name.isEmpty {
        byName[name, default: []].append(i)
      }
    }
    /// The tracks whose `field` is `name`, in the catalog's order.
    func tracks(_ field: KeyPath<CatalogTrack, String>, is name: String) -> [Int] {
      (byName[name] ?? []).filter { catalog.tracks[$0][keyPath: field] == name }
    }
    var missing: [String] = []
    var removing: [Int] = []
    var seen = Set<Int>()
    for word in a.positionals {
      let absolute = URL(fileURLWithPath: word).standardizedFileURL.path
      let isrc = word.isEmpty ? [] : tracks(\.metadata.isrc, is: word.uppercased())
      let hits = Set(tracks(\.key, is: word) + isrc + tracks(\.sourcePath, is: absolute)).sorted()
      if hits.isEmpty { missing.append(word) }
      for i in hits where seen.insert(i).inserted { removing.append(i) }
    }
    guard !removing.isEmpty else {
      // Nothing to remove: the file is left as it is (not rewritten, so copies of it are not sent again).
      for m in missing { printError("not in the catalog: \(m)") }
      printError("catalog \(url.path): unchanged, nothing removed; `catalog list` shows the keys, ISRCs and paths")
      return 1
    }
    builder.remove(keys: removing.map { catalog.tracks[$0].key })
    for i in removing {
      let t = catalog.tracks[i]
      print(DisplayWidth.printable("removed \(t.key) \(t.metadata.artist) – \(t.metadata.title)"))
    }
    try showingSteps(of: builder, "catalog remove") { try builder.prepare() }
    try writing("catalog remove", to: url) { try builder.write(to: url, progress: $0) }
    for m in missing { printError("not in the catalog: \(m)") }
    return missing.isEmpty ? 0 : 1
  }

  /// Lists the tracks whose recording an earlier track holds (`SharedRecording`); exit 1 when there are any.
  static func duplicates(_ a: CommandLineArguments) throws -> Int32 {
    let url = URL(fileURLWithPath: try a.required("catalog"))
    guard a.positionals.isEmpty else { throw UsageError("catalog duplicates: takes no paths, only --catalog FILE") }
    let catalog = try Catalog.load(from: url)
    let reporter = ProgressReporter()
    let total = catalog.tracks.count
    let shared = CatalogBuilder.sharedRecordings(in: catalog) { done in
      reporter.update("catalog duplicates: \(done)/\(total) tracks checked", force: done == total)
    }
    reporter.finish()
    for s in shared {
      let track = catalog.tracks[s.trackIndex]
      print(DisplayWidth.printable("\(track.key) \(track.sourcePath): \(sharedAudio(s, in: catalog.tracks))"))
    }
    print(
      shared.isEmpty
        ? "\(url.path): no item repeats the recording of another (\(total) items)"
        : "\(url.path): \(shared.count) of \(total) items repeat the recording of an earlier one; each airing of "
          + "them is logged under whichever copy is matched first: remove them with catalog remove KEY")
    return shared.isEmpty ? 0 : 1
  }

  /// Rewrites a catalog of an older format version in the current one, from its own index (no audio needed).
  static func upgrade(_ a: CommandLineArguments) throws -> Int32 {
    let url = URL(fileURLWithPath: try a.required("catalog"))
    guard a.positionals.isEmpty else { throw UsageError("catalog upgrade: takes no paths, only --catalog FILE") }
    let lock = try CatalogEditLock.take(url, command: "catalog upgrade")
    defer { lock.release() }
    let catalog = try Catalog.load(from: url)
    if catalog.info().formatVersion == Catalog.formatVersion {
      print("\(url.path): already format version \(Catalog.formatVersion)")
      return 0
    }
    let started = Date()
    try writing("catalog upgrade", to: url) { try catalog.write(to: url, progress: $0) }
    print(
      String(
        format: "%@: upgraded to format version %d in %.1f s", url.path, Int(Catalog.formatVersion),
        Date().timeIntervalSince(started)))
    return 0
  }
}
