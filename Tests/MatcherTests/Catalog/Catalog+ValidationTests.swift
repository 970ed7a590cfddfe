import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

/// Catalog files whose checksum is right but whose insides are not: each must be refused on load with an error that
/// names the file, what is wrong and the fix, and never crash or hang what uses it.
@Suite("Catalog validation on load")
struct CatalogValidationTests {
  static let songs = (31...33).map { SyntheticSong(seed: UInt64($0), seconds: 10) }

  /// Parameters with hashes of 12 bits: the directory then holds one whole hash per slot, so that lookups take the
  /// postings in place (`contiguousPostings`), as in a catalog of more than about two million postings.
  static let coarse: FingerprintParameters = {
    var p = FingerprintParameters()
    p.anchorStepSemitones = 4
    p.intervalStepSemitones = 4
    p.maxPairSemitones = 6
    return p
  }()

  /// A catalog whose postings carry residual hash bits (default parameters), and one whose do not (`coarse`).
  static let catalogs: [Catalog] = {
    do {
      return [
        try MatcherHarness.catalog(of: songs),
        try MatcherHarness.catalog(of: songs, parameters: coarse),
      ]
    } catch {
      fatalError("cannot build the test catalogs: \(error)")
    }
  }()

  /// Four seconds of the second song: the broadcast of the scan run on every catalog that loads.
  static let broadcast = Array(songs[1].render()[8000..<40000])

  /// A catalog file taken apart into its header (as JSON objects) and its index words, to change and put together
  /// again with a checksum that matches, as format version 2 writes it: the tracks in the header, each directory a plain
  /// list of UInt32 offsets, so that any value can be put in any slot (version 2 is still read, and its directories
  /// checked as they are before they are made `SlotDirectory`s). Unchecked Sendable: the JSON objects are values, never shared mutably.
  struct Parts: @unchecked Sendable {
    var header: [String: Any]
    var directory: [UInt32]
    var postings: [UInt32]
    /// The triplet index's directory and postings, as they are.
    var triplets: [UInt32]

    init(_ catalog: Catalog) throws {
      header = try CatalogTests.headerWithTracks(catalog)
      header["directoryBlockBits"] = nil
      var tripletGeometry = try #require(header["triplets"] as? [String: Any])
      tripletGeometry["directoryBlockBits"] = nil
      header["triplets"] = tripletGeometry
      directory = Array(catalog.index.directory)
      postings = Array(catalog.index.postings)
      let tripletIndex = try #require(catalog.triplets).index
      triplets = Array(tripletIndex.directory) + Array(tripletIndex.postings)
    }

    /// The file's bytes, checksum included.
    func bytes() throws -> [UInt8] {
      var out = BinaryWriter()
      out.append(bytes: Catalog.magic)
      out.append(UInt32(2))
      let json = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
      out.append(UInt32(json.count))
      out.append(bytes: json)
      out.align(to: 16)
      for word in directory + postings + triplets { out.append(word) }
      out.append(Checksum64.of(out.bytes))
      return out.bytes
    }

    /// Sets the header value at `path` (object keys, and array indices as numbers in text).
    mutating func set(_ path: [String], to value: Any) {
      header = Self.setting(header, path[...], to: value) as! [String: Any]
    }

    static func setting(_ node: Any, _ path: ArraySlice<String>, to value: Any) -> Any {
      guard let key = path.first else { return value }
      if var array = node as? [Any], let i = Int(key) {
        array[i] = setting(array[i], path.dropFirst(), to: value)
        return array
      }
      var object = node as! [String: Any]
      object[key] = setting(object[key] as Any, path.dropFirst(), to: value)
      return object
    }

    /// The path of every number in the header.
    var numberPaths: [[String]] {
      var out: [[String]] = []
      func walk(_ node: Any, _ path: [String]) {
        if let object = node as? [String: Any] {
          for key in object.keys.sorted() { walk(object[key]!, path + [key]) }
        } else if let array = node as? [Any] {
          for (i, element) in array.enumerated() { walk(element, path + [String(i)]) }
        } else if node is NSNumber, !(node is Bool) {
          out.append(path)
        }
      }
      walk(header, [])
      return out
    }
  }

  /// Loads `bytes` written to a file: the catalog, or the format error.
  static func load(_ bytes: [UInt8], in folder: TemporaryDirectory, name: String = "changed.bmcat") throws -> Result<
    Catalog, FormatError
  > {
    let url = folder.file(name)
    try Data(bytes).write(to: url)
    do { return .success(try Catalog.load(from: url)) } catch { return .failure(error) }
  }

  /// Expects `parts` to be refused as a damaged catalog, the reason naming `what`.
  static func expectRefused(_ parts: Parts, _ what: String, _ comment: Comment) throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("damaged.bmcat")
    try Data(try parts.bytes()).write(to: url)
    let error = #expect(throws: FormatError.self, comment) { try Catalog.load(from: url) }
    #expect(error?.isCatalog == true, comment)
    #expect(error?.path == url.path, comment)
    #expect(error?.reason.contains("damaged catalog") == true, "\(comment): \(String(describing: error))")
    #expect(error?.reason.contains(what) == true, "\(comment): \(String(describing: error))")
    #expect(error?.reason.contains("catalog add --catalog \(url.path)") == true, comment)
  }

  @Test("A file taken apart and put together again unchanged loads, with the same index")
  func unchangedLoads() throws {
    let folder = try TemporaryDirectory()
    for catalog in Self.catalogs {
      let loaded = try Self.load(try Parts(catalog).bytes(), in: folder).get()
      #expect(loaded.tracks == catalog.tracks)
      #expect(Array(loaded.index.postings) == Array(catalog.index.postings))
      #expect(Array(loaded.index.directory) == Array(catalog.index.directory))
    }
    #expect(Self.catalogs[0].index.residualBits > 0)
    #expect(Self.catalogs[1].index.residualBits == 0)
  }

  @Test(
    "Fingerprint parameters that cannot work are refused, naming the parameter",
    arguments: [
      ("fftSizeSamples", 0), ("fftSizeSamples", 63), ("fftSizeSamples", -1024), ("fftSizeSamples", 1 << 40),
      ("sampleRateHz", 0), ("hopSizeSamples", 0), ("hopSizeSamples", -256), ("queryFanOut", 100_000),
      ("peakNeighborhoodFrames", 1 << 40), ("peakNeighborhoodBins", 1 << 30), ("peakBlockFrames", 0),
      ("queryPeaksPerBlock", 1 << 40), ("maxPairFrames", 0),
    ] as [(String, Int)])
  func badIntegerParameter(key: String, value: Int) throws {
    var parts = try Parts(Self.catalogs[0])
    parts.set(["parameters", key], to: value)
    try Self.expectRefused(parts, "fingerprint.\(key)", "\(key) \(value)")
  }

  @Test(
    "Fingerprint parameters out of range that would overflow the hash layout or the spectrum are refused",
    arguments: [
      ("anchorStepSemitones", 1e-300), ("intervalStepSemitones", 0), ("maxPairSemitones", 1e300),
      ("minFrequencyHz", 1e-300), ("maxFrequencyHz", 1e9), ("whiteningSeconds", -1), ("silenceFloorDB", 1e300),
    ] as [(String, Double)])
  func badRealParameter(key: String, value: Double) throws {
    var parts = try Parts(Self.catalogs[0])
    parts.set(["parameters", key], to: value)
    try Self.expectRefused(parts, "fingerprint.\(key)", "\(key) \(value)")
  }

  @Test("An index geometry that does not agree with the parameters or the file size is refused")
  func badGeometry() throws {
    let catalog = Self.catalogs[0]
    let cases: [(String, Any, String)] = [
      ("hashBits", 30, "30-bit hashes"),
      ("hashBits", 8, "8-bit hashes"),
      ("directoryBits", 62, "a directory of 62 bits"),
      ("directoryBits", -3, "a directory of -3 bits"),
      ("positionBits", 31, "postings of 31 frame bits"),
      ("directoryCount", 1 << 61, "directory slots"),
      ("directoryCount", catalog.index.directory.count - 1, "directory slots"),
      ("postingCount", 1 << 61, "index sizes"),
      ("postingCount", -1, "index sizes"),
      ("postingCount", catalog.index.postings.count + 1, "index sizes"),
      ("stopHashCap", -1, "stop-hash cap"),
      ("stopHashCap", 1 << 40, "stop-hash cap"),
    ]
    for (key, value, what) in cases {
      var parts = try Parts(catalog)
      parts.set([key], to: value)
      try Self.expectRefused(parts, what, "\(key) \(value)")
    }
    let triplets: [([String: Int], String)] = [
      (["hashBits": 40], "40-bit keys"), (["hashBits": 0], "0-bit keys"),
      (["directoryBits": 33], "a directory of 33 bits"),
      (["hashBits": 32, "directoryBits": 0, "positionBits": 0, "directoryCount": 2], "0 frame bits"),
      (["directoryCount": 1 << 40], "directory slots"), (["postingCount": Int.max], "triplet index sizes"),
    ]
    for (values, what) in triplets {
      var parts = try Parts(catalog)
      for (key, value) in values { parts.set(["triplets", key], to: value) }
      try Self.expectRefused(parts, what, "triplets \(values)")
    }
    var versionOne = try Parts(catalog)
    versionOne.header["triplets"] = nil
    try Self.expectRefused(versionOne, "does not match format version 2", "no triplet index")
    var versionTwoWithBlocks = try Parts(catalog)
    versionTwoWithBlocks.header["directoryBlockBits"] = 12
    try Self.expectRefused(versionTwoWithBlocks, "does not match format version 2", "block bits in version 2")
  }

  @Test(
    "Tracks that overlap, repeat a key, disagree with their length, are loud outside their sound or leave the frame axis are refused"
  )
  func badTracks() throws {
    let catalog = Self.catalogs[0]
    let first = catalog.tracks[0]
    let second = catalog.tracks[1]
    let positionBits = catalog.index.positionBits
    let cases: [([String], Any, String)] = [
      (["tracks", "1", "globalStartFrame"], 0, "before the end of the previous track"),
      (["tracks", "1", "globalStartFrame"], Int(second.globalStartFrame) - 1, "before the end of the previous track"),
      (["tracks", "2", "globalStartFrame"], Int(UInt32.max) - 100, "beyond the \(positionBits)-bit frame axis"),
      (["tracks", "2", "frameCount"], Int(UInt32.max), "frames, where"),
      (["tracks", "1", "key"], catalog.tracks[0].key, "repeats an earlier key"),
      (["tracks", "0", "durationSeconds"], -1, "lasts -1.0 s"),
      (["tracks", "0", "durationSeconds"], 1e300, "lasts"),
      (["tracks", "0", "audibleEndSeconds"], 1e9, "is audible from"),
      (["tracks", "0", "audibleStartSeconds"], -2, "is audible from"),
      (["tracks", "0", "audibleStartSeconds"], first.audibleEndSeconds + 0.5, "is audible from"),
      (["tracks", "0", "loudEndSeconds"], first.audibleEndSeconds + 0.5, "outside its audible span"),
      (["tracks", "0", "loudEndSeconds"], first.audibleStartSeconds - 0.5, "outside its audible span"),
      (["tracks", "0", "hashCount"], -5, "has -5 hashes"),
      (["tracks"], [Any](), "beyond the tracks' frame axis"),
    ]
    for (path, value, what) in cases {
      var parts = try Parts(catalog)
      parts.set(path, to: value)
      try Self.expectRefused(parts, what, "\(path) \(value)")
    }
  }

  @Test("A directory entry past the postings, a directory going back, or a posting past the tracks is refused")
  func badIndex() throws {
    for catalog in Self.catalogs {
      let base = try Parts(catalog)
      let count = UInt32(catalog.index.postings.count)
      let middle = base.directory.count / 2
      var pastEnd = base
      pastEnd.directory[middle] = count + 1000
      try Self.expectRefused(pastEnd, "goes back from posting \(count + 1000)", "entry past the postings")
      var lastPastEnd = base
      lastPastEnd.directory[base.directory.count - 1] = count + 1
      try Self.expectRefused(lastPastEnd, "ends at posting \(count + 1)", "last entry past the postings")
      var allPastEnd = base
      for i in middle..<base.directory.count { allPastEnd.directory[i] = max(count + 7, allPastEnd.directory[i]) }
      try Self.expectRefused(allPastEnd, "ends at posting \(count + 7)", "entries past the postings to the end")
      var notFromZero = base
      notFromZero.directory[0] = 1
      try Self.expectRefused(notFromZero, "starts at posting 1", "first entry")
      var farPosting = base
      farPosting.postings[farPosting.postings.count / 2] |= catalog.index.positionMask
      try Self.expectRefused(farPosting, "beyond the tracks' frame axis", "posting past the tracks")
      let triplets = try #require(catalog.triplets).index
      var tripletPastEnd = base
      tripletPastEnd.triplets[triplets.directory.count / 2] = .max
      try Self.expectRefused(
        tripletPastEnd, "the triplet index directory goes back from posting \(UInt32.max)", "triplet entry")
      var farTarget = base
      farTarget.triplets[triplets.directory.count] |= triplets.positionMask
      try Self.expectRefused(farTarget, "a posting of the triplet index at frame", "triplet posting")
    }
  }

  @Test("A posting past the tracks is found wherever it lies in a file that the checksum reads in many pieces")
  func farPostingInAnyPiece() throws {
    let songs = (41...62).map { SyntheticSong(seed: UInt64($0), seconds: 40) }
    let catalog = try MatcherHarness.catalog(of: songs)
    let bytes = try catalog.encoded()
    let layout = CatalogTests.Layout(bytes, catalog: catalog)
    let triplets = try #require(catalog.triplets).index
    let tripletPostings = (layout.triplets.upperBound - 4 * triplets.postings.count)..<layout.triplets.upperBound
    #expect(bytes.count > 3 * (1 << 16), "the file spans several of the checksum's pieces")
    for (postings, name, mask) in [
      (layout.postings, "index", catalog.index.positionMask), (tripletPostings, "triplet index", triplets.positionMask),
    ] {
      let count = postings.count / 4
      for i in [0, count / 3, count / 2, count - 1] {
        var damaged = bytes
        let at = postings.lowerBound + 4 * i
        let posting = damaged[at..<(at + 4)].enumerated().reduce(UInt32(0)) {
          $0 | UInt32($1.element) << (8 * $1.offset)
        }
        withUnsafeBytes(of: (posting | mask).littleEndian) { damaged.replaceSubrange(at..<(at + 4), with: $0) }
        try Self.expectRefused(
          CatalogTests.resealed(damaged), "a posting of the \(name) at frame \(mask)", "\(name) posting \(i)")
      }
    }
  }

  /// The file of `catalog` as this build writes it (a track table, `SlotDirectory`s), with its header changed by
  /// `header` and its bytes after the header by `body` (given the offset where the pair index starts), sealed again.
  static func current(
    _ catalog: Catalog, header change: (inout [String: Any]) -> Void = { _ in },
    body: (inout [UInt8], Int) -> Void = { _, _ in }
  ) throws -> [UInt8] {
    let bytes = try catalog.encoded()
    let headerLength = bytes[12..<16].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    var header = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes[16..<(16 + headerLength)])) as? [String: Any])
    change(&header)
    let json = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    var out = BinaryWriter()
    out.append(bytes: bytes[0..<12])
    out.append(UInt32(json.count))
    out.append(bytes: json)
    out.align(to: 16)
    let layout = CatalogTests.Layout(bytes, catalog: catalog)
    let indexStart = out.bytes.count + layout.directory.lowerBound - layout.trackTable.lowerBound
    out.append(bytes: bytes[layout.trackTable.lowerBound..<layout.trailer.lowerBound])
    var rest = out.bytes
    body(&rest, indexStart)
    rest += [UInt8](repeating: 0, count: 8)
    return CatalogTests.resealed(rest)
  }

  /// Expects the file `bytes` to be refused as a damaged catalog, the reason naming `what`.
  static func expectRefused(_ bytes: [UInt8], _ what: String, _ comment: Comment) throws {
    let folder = try TemporaryDirectory()
    switch try Self.load(bytes, in: folder, name: "damaged.bmcat") {
    case .success: Issue.record("\(comment): loaded")
    case .failure(let error):
      #expect(error.isCatalog, comment)
      #expect(error.reason.contains("damaged catalog"), "\(comment): \(error)")
      #expect(error.reason.contains(what), "\(comment): \(error)")
    }
  }

  @Test("A two-level directory whose block size, block starts or slot offsets do not hold together is refused")
  func badSlotDirectory() throws {
    for catalog in Self.catalogs {
      let folder = try TemporaryDirectory()
      _ = try Self.load(try Self.current(catalog), in: folder).get()
      let blockBits = catalog.index.directory.blockBits
      let blockCount = catalog.index.directory.blockStarts.count
      let count = UInt32(catalog.index.postings.count)
      for bits in [-1, 33, 1 << 40] {
        try Self.expectRefused(
          try Self.current(catalog) { $0["directoryBlockBits"] = bits }, "blocks of \(bits) bits", "block bits \(bits)")
        try Self.expectRefused(
          try Self.current(catalog) { h in
            var t = h["triplets"] as! [String: Any]
            t["directoryBlockBits"] = bits
            h["triplets"] = t
          }, "triplet index directory has blocks of \(bits) bits", "triplet block bits \(bits)")
      }
      // Another block size moves everything after the block starts: the sizes no longer add up to the file's.
      try Self.expectRefused(
        try Self.current(catalog) { $0["directoryBlockBits"] = blockBits == 0 ? 1 : 0 }, "bytes", "other block bits")
      try Self.expectRefused(
        try Self.current(catalog) { $0["directoryBlockBits"] = nil },
        "does not match format version \(Catalog.formatVersion)", "no bits")
      // A block start past the postings.
      try Self.expectRefused(
        try Self.current(catalog) { _ in
        } body: { bytes, start in
          let at = start + 4 * (blockCount / 2)
          withUnsafeBytes(of: (count + 5).littleEndian) { bytes.replaceSubrange(at..<(at + 4), with: $0) }
        }, "directory", "block start past the postings")
      // A slot offset that goes back inside its block.
      let slot = catalog.index.directory.count / 2 + 1
      try #require(slot & ((1 << blockBits) - 1) != 0 || blockBits == 0)
      try Self.expectRefused(
        try Self.current(catalog) { _ in
        } body: { bytes, start in
          let at = start + 4 * blockCount + 2 * slot
          bytes[at] = 0xFF
          bytes[at + 1] = 0xFF
          bytes[at + 2] = 0
          bytes[at + 3] = 0
        }, "directory goes back", "slot offset going back")
    }
  }

  @Test("A folder named as the catalog is refused as a folder, not as a device that cannot be mapped")
  func folder() throws {
    let folder = try TemporaryDirectory()
    let error = #expect(throws: FormatError.self) { try Catalog.load(from: folder.url) }
    #expect(error?.isCatalog == true)
    #expect(
      error?.reason.contains("is a folder; name the catalog file (.bmcat) in it") == true,
      "\(String(describing: error))")
  }

  @Test("A FIFO named as the catalog is refused at once, without waiting for a writer")
  func fifo() throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("pipe.bmcat").path
    try #require(mkfifo(path, 0o644) == 0)
    let error = #expect(throws: FormatError.self) { try Catalog.load(from: URL(fileURLWithPath: path)) }
    #expect(error?.reason.contains("not a regular file") == true, "\(String(describing: error))")
  }

  /// Numbers that break assumptions: zero, signs, powers of two and their neighbours, the ends of the integer types.
  static let interestingIntegers = [
    0, 1, -1, 2, 3, 63, 64, 127, 255, 256, 1023, 4096, 65535, 1 << 20, Int(Int32.max), 1 << 31, Int(UInt32.max),
    1 << 32, 1 << 40, Int.max, Int.min,
  ]
  static let interestingReals = [0.5, -0.5, 1e-300, 1e300]

  /// The files of `catalogs`, and their parts.
  static let files: [(bytes: [UInt8], parts: Parts)] = catalogs.map { catalog in
    do { return (try catalog.encoded(), try Parts(catalog)) } catch { fatalError("cannot encode a catalog: \(error)") }
  }

  /// Changes a valid catalog file (`files[which]`) by one of three kinds of damage chosen by `rng`, and seals it
  /// again.
  static func mutated(_ which: Int, using rng: inout SeededGenerator) throws -> [UInt8] {
    var parts = files[which].parts
    switch Int.random(in: 0..<3, using: &rng) {
    case 0:
      // A few random bytes anywhere after the magic and version: header text, padding, directory or postings.
      var bytes = files[which].bytes
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        bytes[Int.random(in: 12..<(bytes.count - 8), using: &rng)] = UInt8.random(in: 0...255, using: &rng)
      }
      return CatalogTests.resealed(bytes)
    case 1:
      // One number of the header.
      let paths = parts.numberPaths
      let path = paths[Int.random(in: 0..<paths.count, using: &rng)]
      switch Int.random(in: 0..<8, using: &rng) {
      case 0: parts.set(path, to: interestingReals[Int.random(in: 0..<interestingReals.count, using: &rng)])
      case 1...4: parts.set(path, to: interestingIntegers[Int.random(in: 0..<interestingIntegers.count, using: &rng)])
      default: parts.set(path, to: Int.random(in: -300...100_000, using: &rng))
      }
      return try parts.bytes()
    default:
      // One word of the directory or the postings.
      let word: UInt32 =
        Bool.random(using: &rng)
        ? [0, 1, UInt32(parts.postings.count), UInt32(parts.postings.count + 1), .max, 1 << 31][
          Int.random(in: 0..<6, using: &rng)]
        : UInt32.random(in: 0...UInt32.max, using: &rng)
      let total = parts.directory.count + parts.postings.count + parts.triplets.count
      let i = Int.random(in: 0..<total, using: &rng)
      if i < parts.directory.count {
        parts.directory[i] = word
      } else if i < parts.directory.count + parts.postings.count {
        parts.postings[i - parts.directory.count] = word
      } else {
        parts.triplets[i - parts.directory.count - parts.postings.count] = word
      }
      return try parts.bytes()
    }
  }

  @Test("Resealed catalogs with random damage either load and scan, or are refused as damaged: never a crash")
  func randomDamage() throws {
    let folder = try TemporaryDirectory()
    let additions = try Self.catalogs.map {
      try MatcherHarness.referenceSignature(of: SyntheticSong(seed: 34, seconds: 5).render(), parameters: $0.parameters)
    }
    var refused = 0
    var loaded = 0
    let seeds: Range<UInt64> = 0..<400
    for seed in seeds {
      var rng = SeededGenerator(seed: seed)
      let catalog = Self.catalogs[Int(seed % 2)]
      let bytes = try Self.mutated(Int(seed % 2), using: &rng)
      switch try Self.load(bytes, in: folder) {
      case .failure(let error):
        refused += 1
        #expect(error.isCatalog, "seed \(seed)")
        #expect(error.path.hasSuffix("changed.bmcat"), "seed \(seed)")
      case .success(let damaged):
        loaded += 1
        _ = damaged.info()
        _ = try MatcherHarness.run(Self.broadcast, catalog: damaged, bufferFrames: 8000)
        // Editing goes through the index too: adding (merging into it) and removing (recovering every hash). `catalog
        // add` fingerprints with the catalog's own parameters, as the addition here was made with the original ones.
        if damaged.parameters == catalog.parameters {
          let adding = CatalogBuilder(editing: damaged)
          adding.add(
            signature: additions[Int(seed % 2)], key: "added", sourcePath: "added",
            metadata: TrackMetadata(title: "added"))
          do { _ = try adding.build() } catch {
            // A damaged catalog may end where the frame axis does: no room for another track.
            #expect(error.reason.contains("too large"), "seed \(seed): \(error)")
          }
          let removing = CatalogBuilder(editing: damaged)
          if let first = damaged.tracks.first { removing.remove(key: first.key) }
          _ = try removing.build()
        }
      }
    }
    // Both outcomes occur: the damage is not all caught by one check, nor all harmless.
    #expect(refused > seeds.count / 4, "refused \(refused) of \(seeds.count)")
    #expect(loaded > 0, "loaded \(loaded) of \(seeds.count)")
  }
}
