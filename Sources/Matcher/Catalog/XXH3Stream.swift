import CXXHash

/// XXH3-64 (xxHash, seed 0) of bytes given in pieces: libxxhash's streaming state. The same bytes give the same value
/// however they are cut into pieces, and the value of `XXH3_64bits` (or Python's `xxhash.xxh3_64`) over all of them.
final class XXH3Stream {
  private let state: OpaquePointer

  init() {
    guard let state = XXH3_createState() else {
      fatalError("XXH3_createState: out of memory for 576 bytes")
    }
    self.state = state
    XXH3_64bits_reset(state)
  }

  deinit { XXH3_freeState(state) }

  func add(_ raw: UnsafeRawBufferPointer) {
    guard let base = raw.baseAddress, !raw.isEmpty else { return }
    _ = bm_xxh3_64_update(state, base, raw.count)
  }

  /// The checksum of every byte added so far (more may be added after).
  var value: UInt64 { XXH3_64bits_digest(state) }

  static func of(_ raw: UnsafeRawBufferPointer) -> UInt64 {
    let stream = XXH3Stream()
    stream.add(raw)
    return stream.value
  }
}
