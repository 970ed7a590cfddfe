import Common
import Foundation

/// The catalog file format (`.bmcat`), version 6, little-endian:
///
///     "BMCATLG\1"  UInt32 version  UInt32 headerLength  header (JSON)  zero padding to 16
///     track table  zero padding to 16      pair index      triplet index      UInt64 checksum
///
/// where each index is its directory (`SlotDirectory`) and its postings:
///
///     block starts: UInt32 × blockCount   slot offsets: UInt16 × directoryCount   zero padding to 4
///     postings: UInt32 × postingCount
///
/// with `blockCount` = ((directoryCount − 1) >> directoryBlockBits) + 1. The header holds the fingerprint parameters,
/// the track table's size and the geometry of the pair index and of the triplet index (`TripletIndex`); the track
/// table (`CatalogTrackTable`) holds the tracks with their metadata. The checksum (`CatalogChecksum`: XXH3-64)
/// covers every byte before it. The indexes are used in place from a memory map: loading costs one pass of checksum,
/// one of validation and reading the track table.
///
/// Version 5 is the same with the checksum `Checksum64`. Version 4 is version 5 without each track's `loudEndSeconds`
/// (read as its audible end: no quiet tail known). Version 3 is version 4 without the track table, the tracks in the
/// JSON header (`tracks`). Version 2 is version 3 with each directory a plain list of UInt32 offsets (`directoryCount`
/// of them, 4 bytes a slot), and version 1 is version 2 without the triplet index. All are still read, plain
/// directories made `SlotDirectory`s in memory as they load (and, from version 1, `Catalog.triplets` nil);
/// `catalog upgrade` rewrites them as version 6.
extension Catalog {
  static let magic = Array("BMCATLG\u{1}".utf8)
  public static let formatVersion: UInt32 = 6
  /// The oldest version this build reads.
  static let oldestFormatVersion: UInt32 = 1

  /// Where an index lies in the file after the header, and its shape.
  struct IndexGeometry: Codable {
    var hashBits: Int
    var directoryBits: Int
    var positionBits: Int
    var directoryCount: Int
    var postingCount: Int
    /// `SlotDirectory.blockBits`; absent before version 3 (a plain directory).
    var directoryBlockBits: Int?
  }

  /// The size of the track table (format version 4 on).
  struct TrackTableGeometry: Codable {
    var count: Int
    var bytes: Int
  }

  struct Header: Codable {
    var parameters: FingerprintParameters
    /// The tracks, in the JSON of versions 1 to 3; from version 4, read from the track table (`trackTable`).
    var tracks: [CatalogTrack]?
    /// Absent before version 4.
    var trackTable: TrackTableGeometry?
    var hashBits: Int
    var directoryBits: Int
    var positionBits: Int
    var directoryCount: Int
    var postingCount: Int
    var stopHashCap: Int?
    /// Absent in version 1.
    var triplets: IndexGeometry?
    /// The pair index's `SlotDirectory.blockBits`; absent before version 3.
    var directoryBlockBits: Int?
  }

  /// Loads a catalog file. Damage (a flipped byte, truncation, or insides that do not hold together even under a
  /// valid checksum), another version, or another kind of file is a `FormatError` that says so, with `isCatalog` set.
  /// Everything the matcher relies on is checked here (`Catalog+Validation`), so that no file can crash or hang the
  /// code that uses the catalog: the postings in the checksum's pass over the file, the rest in one pass over each
  /// directory.
  /// - Parameter ownCopy: hold the file's bytes in the process's own memory (`MappedFile`'s `ownCopy`) rather than
  ///   map the file, so that the catalog stays whole whatever is done to the file while it is in use: for the
  ///   monitor, which holds its catalog for days. Commands that load a catalog for minutes map it.
  public static func load(from url: URL, ownCopy: Bool = false) throws(FormatError) -> Catalog {
    do {
      return try decode(path: url.path, ownCopy: ownCopy)
    } catch {
      var marked = error
      marked.isCatalog = true
      throw marked
    }
  }

  private static func decode(path: String, ownCopy: Bool) throws(FormatError) -> Catalog {
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 {
      throw FormatError(
        path: path,
        reason: "empty file (0 bytes), not a catalog; restore a backup or build it with "
          + "`broadcast-monitor catalog add`")
    }
    let file = try MappedFile(path: path, naming: "the catalog file (.bmcat)", hugePages: true, ownCopy: ownCopy)
    let raw = file.bytes
    guard raw.count >= magic.count, raw.prefix(magic.count).elementsEqual(magic) else {
      throw FormatError(path: path, reason: "not a broadcast-monitor catalog (wrong magic bytes)")
    }
    guard raw.count >= 24 else {
      throw FormatError(
        path: path,
        reason: "truncated: \(raw.count) bytes, shorter than a catalog's header; restore a backup or rebuild it with "
          + "`broadcast-monitor catalog add`")
    }
    let version = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
    guard version >= oldestFormatVersion && version <= formatVersion else {
      throw FormatError(
        path: path,
        reason: "catalog format version \(version); this build reads versions \(oldestFormatVersion) to "
          + "\(formatVersion)"
          + (version > formatVersion ? " (the catalog was written by a newer broadcast-monitor: use that one)" : ""))
    }
    let body = UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 8)])
    let stored = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
    let checksumMismatch = FormatError(
      path: path,
      reason: "checksum mismatch: the catalog is damaged or truncated; restore a backup or rebuild it with "
        + "`broadcast-monitor catalog add`")
    // The header, the track table and the indexes' places are read before the checksum is known, which is computed
    // with the postings' frames in one pass (`checksumLastFramesAndFences`). Parts that do not hold together under a
    // checksum that does not match are reported as the mismatch: a file damaged, not one written wrong.
    let parts: (header: Header, index: CatalogIndex, triplets: CatalogIndex?)
    do throws(FormatError) {
      parts = try mapParts(raw: raw, body: body, version: version, file: file, path: path)
    } catch {
      guard CatalogChecksum.of(body, formatVersion: version) == stored else { throw checksumMismatch }
      throw error
    }
    let pairFences = parts.index.residualBits == 0 ? PostingFences(unfilledFor: parts.index.postings) : nil
    let (checksum, lastFrames) = checksumLastFramesAndFences(
      of: body, formatVersion: version, indexes: [parts.index] + (parts.triplets.map { [$0] } ?? []),
      pairFences: pairFences)
    guard checksum == stored else { throw checksumMismatch }
    let axisEnd = parts.header.axisEnd
    try parts.index.validate(path: path, name: "index", axisEnd: axisEnd, lastFrame: lastFrames[0])
    try parts.triplets?.validate(path: path, name: "triplet index", axisEnd: axisEnd, lastFrame: lastFrames[1])
    return Catalog(
      parameters: parts.header.parameters, tracks: parts.header.tracks ?? [], index: parts.index,
      stopHashCap: parts.header.stopHashCap ?? 0, triplets: parts.triplets.map { TripletIndex(index: $0) },
      fileFormatVersion: version, fileIdentity: file.identity, fileChecksum: stored, pairFences: pairFences)
  }

  /// Whether the file at `path` is still the one this catalog was read from, unchanged: the same file in the same
  /// state (`FileIdentity`: device, inode, size and modification time) and the same checksum in its last 8 bytes. The
  /// checksum tells apart another catalog written over this one in place whose size and modification time came out
  /// the same (a writer that sets the time: `cp -p`, `rsync -a --inplace`, `touch -r`), for a read of 8 bytes. False
  /// for a catalog built here, or a file that cannot be read.
  package func isUnchangedFile(at path: String) -> Bool {
    guard let fileIdentity, let fileChecksum, let file = try? ReadOnlyFile(path: path), file.identity == fileIdentity,
      file.byteCount >= 8
    else { return false }
    var stored: UInt64 = 0
    let read = withUnsafeMutableBytes(of: &stored) {
      try? file.read(into: $0.baseAddress!, bytes: 8, at: file.byteCount - 8)
    }
    return read == 8 && UInt64(littleEndian: stored) == fileChecksum
  }

  /// Bytes of the file read a chunk at a time for the checksum, each chunk's postings then read from the cache: 64 KB,
  /// well within the level 2 cache.
  private static let loadChunkBytes = 1 << 16

  /// The checksum of `body` and, in the same pass, the highest frame of each of `indexes`' postings (which lie in
  /// `body`, at offsets that are multiples of 4) and `pairFences`, the fences of the first index's postings, so that
  /// the file is read from memory once: reading the postings again after the checksum cost two thirds as much as the
  /// checksum (1,000 hours: 44 ms against 70 ms).
  private static func checksumLastFramesAndFences(
    of body: UnsafeRawBufferPointer, formatVersion: UInt32, indexes: [CatalogIndex], pairFences: PostingFences?
  ) -> (UInt64, [UInt32]) {
    var checksum = CatalogChecksum(formatVersion: formatVersion)
    var lastFrames = [UInt32](repeating: 0, count: indexes.count)
    let postingBytes = indexes.map { index in
      let start = index.postings.isEmpty ? 0 : UnsafeRawPointer(index.postings.baseAddress!) - body.baseAddress!
      return start..<(start + 4 * index.postings.count)
    }
    var start = 0
    while start < body.count {
      let end = min(body.count, start + loadChunkBytes)
      checksum.add(UnsafeRawBufferPointer(rebasing: body[start..<end]))
      for (i, index) in indexes.enumerated() {
        let bytes = postingBytes[i].clamped(to: start..<end)
        guard !bytes.isEmpty else { continue }
        let first = (bytes.lowerBound - postingBytes[i].lowerBound) / 4
        let past = (bytes.upperBound - postingBytes[i].lowerBound) / 4
        lastFrames[i] = max(
          lastFrames[i],
          CatalogIndex.lastFrame(
            in: UnsafeBufferPointer(rebasing: index.postings[first..<past]), mask: index.positionMask))
        if i == 0 { pairFences?.fill(from: index.postings, range: first..<past) }
      }
      start = end
    }
    return (checksum.value, lastFrames)
  }

  /// The header (with the tracks of the track table), and the indexes in place, their geometry checked against the
  /// header and the file's size; their contents are checked after the checksum (`CatalogIndex.validate`).
  private static func mapParts(
    raw: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer, version: UInt32, file: MappedFile, path: String
  ) throws(FormatError) -> (header: Header, index: CatalogIndex, triplets: CatalogIndex?) {
    let headerLength = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
    guard headerLength <= body.count - 16 else { throw damaged(path, "the header runs past the end of the file") }
    var header: Header
    do {
      // Read in place: a damaged length may name most of the file, which is not checksummed yet.
      let json = Data(
        bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress! + 16), count: headerLength,
        deallocator: .none)
      header = try JSONDecoder().decode(Header.self, from: json)
    } catch {
      throw damaged(path, "unreadable header (\(error))")
    }
    guard (version >= 2) == (header.triplets != nil), (version >= 3) == (header.directoryBlockBits != nil),
      (version >= 3) == (header.triplets?.directoryBlockBits != nil), (version >= 4) == (header.trackTable != nil),
      (version >= 4) == (header.tracks == nil)
    else {
      throw damaged(path, "the header does not match format version \(version)")
    }
    var offset = (16 + headerLength + 15) / 16 * 16
    if let table = header.trackTable {
      let bytesLeft = body.count - offset
      guard table.bytes >= 0, table.bytes <= bytesLeft, table.count >= 0,
        table.count <= table.bytes / CatalogTrackTable.minimumTrackBytes(version: version)
      else {
        throw damaged(
          path,
          "the header's track table (\(table.count) tracks in \(table.bytes) bytes) does not fit the file's "
            + "\(max(0, bytesLeft)) bytes left for it")
      }
      header.tracks = try CatalogTrackTable.decode(
        UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + table.bytes)]), count: table.count,
        version: version, path: path)
      offset += (table.bytes + 15) / 16 * 16
    }
    try header.validate(path: path)
    // Geometries were checked (`validate`): directory counts are at most 2^32 + 1 and block bits 0…32. Counts are
    // checked against the bytes left before they are multiplied, so that no count can overflow. Every index's place
    // is found before any directory is read, so that sizes that do not add up are named as such.
    func mapIndex(_ g: IndexGeometry, _ name: String) throws(FormatError) -> () throws(FormatError) -> CatalogIndex {
      let bytesLeft = body.count - offset
      let blockCount = g.directoryBlockBits.map { SlotDirectory.blockCount(count: g.directoryCount, blockBits: $0) }
      // A plain directory is 4 bytes a slot; a `SlotDirectory` is 2, padded to 4, after its block starts.
      let directoryBytes =
        blockCount.map { SlotDirectory.bytes(count: g.directoryCount, blockCount: $0) } ?? 4 * g.directoryCount
      guard g.postingCount >= 0, g.postingCount <= bytesLeft / 4, g.directoryCount <= bytesLeft / 2,
        blockCount ?? 0 <= bytesLeft / 4, directoryBytes + 4 * g.postingCount <= bytesLeft
      else {
        throw damaged(
          path,
          "the header's \(name) sizes (\(g.directoryCount) directory slots, \(g.postingCount) postings) do not fit "
            + "the file's \(max(0, bytesLeft)) bytes left for it")
      }
      let base = raw.baseAddress! + offset
      offset += directoryBytes + 4 * g.postingCount
      let postings = UnsafeBufferPointer(
        start: (base + directoryBytes).assumingMemoryBound(to: UInt32.self), count: g.postingCount)
      return { () throws(FormatError) in
        let directory: SlotDirectory
        var storage: [AnyObject] = [file]
        if let blockBits = g.directoryBlockBits, let blockCount {
          directory = SlotDirectory(
            blockBits: blockBits,
            blockStarts: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt32.self), count: blockCount),
            offsets: UnsafeBufferPointer(
              start: (base + 4 * blockCount).assumingMemoryBound(to: UInt16.self), count: g.directoryCount))
        } else {
          // A plain directory (version 1 or 2): checked as it is, then made a `SlotDirectory`, which needs offsets
          // that never decrease.
          let flat = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt32.self), count: g.directoryCount)
          try CatalogIndex.validateDirectory(flat, postingCount: g.postingCount, path: path, name: name)
          let slots = SlotDirectoryStorage(copying: flat)
          storage.append(slots)
          directory = slots.directory
        }
        return CatalogIndex(
          hashBits: g.hashBits, directoryBits: g.directoryBits, positionBits: g.positionBits, directory: directory,
          postings: postings, storage: storage)
      }
    }
    let pairs = try mapIndex(header.pairGeometry, "index")
    let triplets = try header.triplets.map { (g) throws(FormatError) in try mapIndex(g, "triplet index") }
    guard offset == body.count else {
      throw damaged(path, "\(body.count - offset) bytes after the indexes, where the header's sizes leave none")
    }
    return (header, try pairs(), try triplets.map { (read) throws(FormatError) in try read() })
  }

  /// The file's bytes: version 6, with a triplet index derived now if this catalog was read from version 1.
  func encoded() throws -> [UInt8] {
    var out = [UInt8]()
    try encode { out.append(contentsOf: $0) }
    return out
  }

  /// Hands the file's bytes (`encoded()`) to `write` in order, a piece at a time: the header and the track table, each
  /// index's arrays as they lie in memory, and the checksum, computed on the way, so that writing a catalog takes no
  /// copy of it (5 GB at 10,000 hours). `fileBytes` gets the file's size before the first piece.
  func encode(fileBytes: (Int) -> Void = { _ in }, into write: (UnsafeRawBufferPointer) throws -> Void) throws {
    let triplets = self.triplets ?? TripletIndex.derive(from: index, tracks: tracks, layout: HashLayout(parameters))
    try Self.encode(
      parameters: parameters, tracks: tracks, stopHashCap: stopHashCap, pairs: EncodedIndex(index),
      triplets: EncodedIndex(triplets.index), fileBytes: fileBytes, into: write)
  }

  /// An index as the file holds it: its geometry and directory, and its postings handed over in runs, in order (from
  /// memory, or made as they are written: `IndexMerge`).
  struct EncodedIndex {
    var hashBits: Int
    var directoryBits: Int
    var positionBits: Int
    var directory: SlotDirectory
    var postingCount: Int
    var forEachRun: ((UnsafeBufferPointer<UInt32>) throws -> Void) throws -> Void

    init(_ index: CatalogIndex) {
      owner = nil
      hashBits = index.hashBits
      directoryBits = index.directoryBits
      positionBits = index.positionBits
      directory = index.directory
      postingCount = index.postings.count
      forEachRun = { try $0(index.postings) }
    }

    /// The merged index, its directory made now.
    init(_ merge: IndexMerge) {
      let storage = merge.directory()
      hashBits = merge.hashBits
      directoryBits = merge.directoryBits
      positionBits = merge.positionBits
      directory = storage.directory
      postingCount = merge.postingCount
      forEachRun = { try merge.forEachRun($0) }
      owner = storage
    }

    /// Keeps the memory of `directory` alive.
    private var owner: AnyObject?

    var geometry: IndexGeometry {
      IndexGeometry(
        hashBits: hashBits, directoryBits: directoryBits, positionBits: positionBits,
        directoryCount: directory.count, postingCount: postingCount, directoryBlockBits: directory.blockBits)
    }

    /// Bytes in the file: the directory, padded to 4, and the postings.
    var bytes: Int { directory.bytes + 4 * postingCount }
  }

  /// The file of a catalog of `tracks` whose indexes are `pairs` and `triplets`, a piece at a time (`encode(into:)`).
  static func encode(
    parameters: FingerprintParameters, tracks: [CatalogTrack], stopHashCap: Int, pairs: EncodedIndex,
    triplets: EncodedIndex, fileBytes: (Int) -> Void, into write: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    var head = BinaryWriter()
    head.append(bytes: magic)
    head.append(formatVersion)
    // Keys sorted, so that the same catalog is always the same bytes (JSONEncoder's order otherwise changes from one
    // process to the next).
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let table = CatalogTrackTable.encoded(tracks)
    let header = try encoder.encode(
      Header(
        parameters: parameters, tracks: nil, trackTable: TrackTableGeometry(count: tracks.count, bytes: table.count),
        hashBits: pairs.hashBits, directoryBits: pairs.directoryBits,
        positionBits: pairs.positionBits, directoryCount: pairs.directory.count, postingCount: pairs.postingCount,
        stopHashCap: stopHashCap, triplets: triplets.geometry, directoryBlockBits: pairs.directory.blockBits))
    head.append(UInt32(header.count))
    head.append(bytes: header)
    head.align(to: 16)
    head.append(bytes: table)
    head.align(to: 16)
    fileBytes(head.bytes.count + pairs.bytes + triplets.bytes + 8)
    var checksum = CatalogChecksum(formatVersion: formatVersion)
    func emit(_ raw: UnsafeRawBufferPointer) throws {
      checksum.add(raw)
      try write(raw)
    }
    // An index's arrays as they lie in memory (little-endian), or each value written little-endian.
    func emit<T: FixedWidthInteger>(_ values: UnsafeBufferPointer<T>) throws {
      #if _endian(little)
        try emit(UnsafeRawBufferPointer(values))
      #else
        var little = BinaryWriter()
        for v in values { little.append(v) }
        try little.bytes.withUnsafeBytes { try emit($0) }
      #endif
    }
    try head.bytes.withUnsafeBytes { try emit($0) }
    let padding = [UInt8](repeating: 0, count: 4)
    for i in [pairs, triplets] {
      try withExtendedLifetime(i) {
        try emit(i.directory.blockStarts)
        try emit(i.directory.offsets)
        try padding.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[0..<(2 * i.directory.count % 4)])) }
        try i.forEachRun { try emit($0) }
      }
    }
    try withUnsafeBytes(of: checksum.value.littleEndian) { try write($0) }
  }

  /// Bytes of each write, at offsets that are multiples of it (`AlignedChunkWriter`): 2 MB, the size of a huge page.
  /// Linux's page cache (ext4 since 6.16, XFS) then holds the new file in folios of that size, and the search's
  /// mapping reaches them through huge-page entries (`MappedFile.hugePages`), so its random reads of the index miss
  /// the TLB far less. Measured on a 1,000-hour catalog (483 MB), the same bytes written in pieces of 64 KB against
  /// 2 MB: an hour's `scan` took 3.91 s against 3.57 s of CPU (medians of five, interleaved). Pieces of 1 MB gave no
  /// huge folio, of 4 MB or 8 MB a half or a quarter of them.
  static let writeChunkBytes = 2 << 20

  /// Writes the catalog atomically: a temporary file in the same folder, flushed to disk, then renamed over `url`
  /// (POSIX `rename` replaces the old file in one step; until then the old catalog is untouched). Through a symbolic
  /// link, the file the link names is replaced, and the link stays. The new file keeps the old one's permissions,
  /// group and (as root) owner (`OutputFile.keepAccess`), so the service still reads it. `progress` gets the bytes written and the file's
  /// size after each write.
  public func write(to given: URL, progress: (_ written: Int, _ total: Int) -> Void = { _, _ in }) throws {
    try Self.writeFile(to: given, progress: progress) { fileBytes, write in
      try encode(fileBytes: fileBytes, into: write)
    }
  }

  /// Writes the file whose bytes `encode` hands over (after their total, to `fileBytes`) atomically, as `write(to:)`
  /// describes, in writes of `writeChunkBytes`.
  static func writeFile(
    to given: URL, progress: (_ written: Int, _ total: Int) -> Void,
    encode: (_ fileBytes: (Int) -> Void, _ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    guard !OutputFile.isSpecial(given.path) else {
      throw FormatError(path: given.path, reason: "not a regular file: a catalog is written to a file of its own")
    }
    let url = URL(fileURLWithPath: OutputFile.replaceablePath(given.path))
    let folder = url.deletingLastPathComponent()
    let temp = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    guard FileManager.default.createFile(atPath: temp.path, contents: nil) else {
      throw FormatError(path: temp.path, reason: "cannot create (check that \(folder.path) exists and is writable)")
    }
    do {
      let handle = try FileHandle(forWritingTo: temp)
      defer { try? handle.close() }
      OutputFile.keepAccess(of: url.path, on: handle.fileDescriptor)
      try withoutActuallyEscaping(progress) { progress in
        var total = 0
        var written = 0
        var writer = AlignedChunkWriter(chunkBytes: writeChunkBytes) { chunk in
          try handle.write(
            contentsOf: Data(
              bytesNoCopy: UnsafeMutableRawPointer(mutating: chunk.baseAddress!), count: chunk.count, deallocator: .none
            ))
          written += chunk.count
          progress(written, total)
        }
        try encode({ total = $0 }) { try writer.append($0) }
        try writer.flush()
      }
      try handle.synchronize()
    } catch {
      try? FileManager.default.removeItem(at: temp)
      throw FormatError(path: url.path, reason: "cannot write the catalog (\(error.localizedDescription))")
    }
    guard rename(temp.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temp)
      throw FormatError(path: url.path, reason: "cannot replace the catalog (\(reason))")
    }
  }
}
