/// Hands a file's bytes to a sink in writes of exactly `chunkBytes`, each at an offset that is a multiple of it (the
/// last write excepted, which is shorter), whatever the sizes of the pieces it is given: small pieces are gathered in
/// a staging buffer, and a large piece goes out in whole chunks from where it lies once the file's end is at a chunk
/// boundary.
///
/// `Catalog.write` writes a catalog this way so that the page cache keeps the new file in folios of 2 MB, which the
/// search's mapping then reaches through huge-page entries (`MappedFile`'s `hugePages`; see
/// `Catalog.writeChunkBytes`). One writer per file, on one thread.
struct AlignedChunkWriter: ~Copyable {
  let chunkBytes: Int
  private let staging: UnsafeMutableRawBufferPointer
  private var staged = 0
  private let sink: (UnsafeRawBufferPointer) throws -> Void

  /// - Parameter sink: called with each write, in order; what it throws stops the writer's caller.
  init(chunkBytes: Int, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
    precondition(chunkBytes > 0)
    self.chunkBytes = chunkBytes
    staging = .allocate(byteCount: chunkBytes, alignment: 4096)
    self.sink = sink
  }

  deinit { staging.deallocate() }

  /// Adds `piece` to the file.
  mutating func append(_ piece: UnsafeRawBufferPointer) throws {
    var rest = piece
    while !rest.isEmpty {
      if staged == 0 && rest.count >= chunkBytes {
        try sink(UnsafeRawBufferPointer(rebasing: rest[..<(rest.startIndex + chunkBytes)]))
        rest = UnsafeRawBufferPointer(rebasing: rest[(rest.startIndex + chunkBytes)...])
        continue
      }
      let n = min(chunkBytes - staged, rest.count)
      UnsafeMutableRawBufferPointer(rebasing: staging[staged..<(staged + n)])
        .copyMemory(from: UnsafeRawBufferPointer(rebasing: rest[..<(rest.startIndex + n)]))
      staged += n
      rest = UnsafeRawBufferPointer(rebasing: rest[(rest.startIndex + n)...])
      if staged == chunkBytes { try flush() }
    }
  }

  /// Writes what is staged: call once, after the last piece.
  mutating func flush() throws {
    guard staged > 0 else { return }
    let n = staged
    staged = 0
    try sink(UnsafeRawBufferPointer(rebasing: staging[..<n]))
  }
}
