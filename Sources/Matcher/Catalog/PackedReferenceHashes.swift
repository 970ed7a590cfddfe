/// One track's reference hashes as `CatalogBuilder` holds them until it builds the index: 4 bytes a hash where an
/// array of `ReferenceHash` takes 8. The builder holds every track's hashes at once (about 900 million at 10,000
/// hours), so their size decides whether a large catalog can be built at all.
///
/// Each hash is one word: the hash in the low `hashBits` bits and, above them, how many frames its anchor lies after
/// the previous hash's (the hasher makes hashes in anchor order, so the step is small). A step that does not fit (a
/// long silence, or hashes out of frame order, as recovered from an index) is the all-ones step, followed by a second
/// word holding the frame itself. The hashes come back in the order they were given.
struct PackedReferenceHashes: Sendable {
  private(set) var words: [UInt32] = []
  /// Hashes held (words less escapes).
  private(set) var count = 0
  let hashBits: Int
  private var lastFrame: UInt32 = 0

  init(hashBits: Int) {
    precondition(hashBits > 0 && hashBits <= 32, "hash bits out of range")
    self.hashBits = hashBits
  }

  /// `hashes` packed, in their order, in an array of exactly the words they need.
  init(_ hashes: [ReferenceHash], hashBits: Int) {
    self.init(hashBits: hashBits)
    var frame: UInt32 = 0
    var escapes = 0
    for h in hashes {
      if !fitsStep(from: frame, to: h.frame) { escapes += 1 }
      frame = h.frame
    }
    words.reserveCapacity(hashes.count + escapes)
    for h in hashes { append(hash: h.hash, frame: h.frame) }
  }

  private var stepShift: UInt32 { UInt32(hashBits) }
  /// The step that marks an escape: all ones in the bits above the hash (0 when the hash fills the word: then every
  /// hash is escaped).
  private var escapeStep: UInt32 { hashBits >= 32 ? 0 : UInt32.max >> stepShift }
  private var hashMask: UInt32 { hashBits >= 32 ? .max : (1 << stepShift) - 1 }

  @inline(__always)
  private func fitsStep(from previous: UInt32, to frame: UInt32) -> Bool {
    frame >= previous && frame - previous < escapeStep
  }

  mutating func append(hash: UInt32, frame: UInt32) {
    if fitsStep(from: lastFrame, to: frame) {
      words.append(hash | (frame - lastFrame) << stepShift)
    } else {
      words.append(hash | escapeStep << stepShift)
      words.append(frame)
    }
    lastFrame = frame
    count += 1
  }

  /// Calls `body(hash, frame)` for each hash, in the order given.
  @inline(__always)
  func forEachHash(_ body: (_ hash: UInt32, _ frame: UInt32) -> Void) {
    let shift = stepShift
    let mask = hashMask
    let escape = escapeStep
    words.withUnsafeBufferPointer { w in
      var frame: UInt32 = 0
      var i = 0
      while i < w.count {
        let word = w[i]
        let step = shift >= 32 ? 0 : word >> shift
        if step == escape {
          frame = w[i + 1]
          i += 2
        } else {
          frame += step
          i += 1
        }
        body(word & mask, frame)
      }
    }
  }

  /// The hashes, unpacked.
  var hashes: [ReferenceHash] {
    var out = [ReferenceHash]()
    out.reserveCapacity(count)
    forEachHash { out.append(ReferenceHash(hash: $0, frame: $1)) }
    return out
  }
}
