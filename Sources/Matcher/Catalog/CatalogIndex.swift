import Common
import Foundation

/// The inverted index of a catalog: for each hash, the global frames of the anchors that carry it.
///
/// Layout (also the on-disk layout, so a catalog file is used in place, memory-mapped):
/// - a directory of `2^directoryBits + 1` offsets into the postings, indexed by the hash's top `directoryBits` bits,
///   2 bytes a slot (`SlotDirectory`);
/// - postings, one UInt32 each: the hash's remaining low bits above `positionBits` bits of global frame.
/// Tracks are laid end to end on one global frame axis (with a gap between them), so a posting is 4 bytes and a
/// match's diagonal (reference frame minus query frame) names the track and the offset at once.
///
/// Immutable once built: any thread may read it.
struct CatalogIndex: @unchecked Sendable {
  let hashBits: Int
  let directoryBits: Int
  let positionBits: Int
  let directory: SlotDirectory
  let postings: UnsafeBufferPointer<UInt32>
  /// Keeps the memory the buffers point into alive (a mapped file, owned arrays).
  let storage: [AnyObject]

  var residualBits: Int { hashBits - directoryBits }
  var positionMask: UInt32 { positionBits >= 32 ? .max : (1 << UInt32(positionBits)) - 1 }
  var bytes: Int { directory.bytes + postings.count * 4 }

  /// Directory size for a number of postings: about 4 postings per slot, at least 2^12 slots, at most the hash.
  static func directoryBits(hashBits: Int, postingCount: Int) -> Int {
    let wanted = Int.bitWidth - max(1, postingCount / 4).leadingZeroBitCount
    return min(hashBits, max(12, wanted))
  }

  /// The global frames of `hash`'s postings in place, when each directory slot holds one whole hash (an index of more
  /// than about two million postings); nil when postings carry residual hash bits to check (`forEachPosting`).
  @inline(__always)
  func contiguousPostings(of hash: UInt32) -> UnsafeBufferPointer<UInt32>? {
    guard residualBits == 0 else { return nil }
    let slot = Int(hash)
    return UnsafeBufferPointer(rebasing: postings[Int(directory[slot])..<Int(directory[slot + 1])])
  }

  /// Calls `body` with the global frame of every posting of `hash`.
  @inline(__always)
  func forEachPosting(of hash: UInt32, _ body: (UInt32) -> Void) {
    let slot = Int(hash >> UInt32(residualBits))
    let residual = hash & ((1 << UInt32(residualBits)) - 1)
    let lo = Int(directory[slot])
    let hi = Int(directory[slot + 1])
    if lo == hi { return }
    let shift = UInt32(positionBits)
    let mask = positionMask
    if residualBits == 0 {
      for i in lo..<hi { body(postings[i] & mask) }
    } else {
      for i in lo..<hi {
        let p = postings[i]
        if p >> shift == residual { body(p & mask) }
      }
    }
  }

  /// Calls `body` with the global frame of each posting of `hash` in `range`. A hash's postings are in frame order
  /// (tracks are laid end to end and hashed in frame order, and an edit appends): when a directory slot holds one
  /// hash, the range is found by binary search.
  @inline(__always)
  func forEachPosting(of hash: UInt32, in range: ClosedRange<UInt32>, _ body: (UInt32) -> Void) {
    guard let list = contiguousPostings(of: hash) else {
      forEachPosting(of: hash) { if range.contains($0) { body($0) } }
      return
    }
    var lo = BinarySearch.partitionPoint(in: list.indices) { list[$0] < range.lowerBound }
    while lo < list.count && list[lo] <= range.upperBound {
      body(list[lo])
      lo += 1
    }
  }
}

/// Owns the memory of an index built in memory: its postings, and its directory, filled as a plain list of UInt32
/// offsets (`flatDirectory`) and then made a `SlotDirectory` in the same memory (`finished`).
final class IndexArrays {
  let postings: UnsafeMutableBufferPointer<UInt32>
  /// The plain directory, to fill in place until `finished` takes it over.
  let flatDirectory: UnsafeMutableBufferPointer<UInt32>
  private var slots: SlotDirectoryStorage?
  /// Zeroed arrays of the given sizes, to fill in place.
  init(directoryCount: Int, postingCount: Int) {
    let flat = calloc(max(1, directoryCount), 4)!.bindMemory(to: UInt32.self, capacity: directoryCount)
    flatDirectory = UnsafeMutableBufferPointer(start: flat, count: directoryCount)
    postings = .allocate(capacity: postingCount)
    postings.initialize(repeating: 0)
  }
  /// The index of the filled arrays; `flatDirectory` is no longer to be used.
  func finished(hashBits: Int, directoryBits: Int, positionBits: Int) -> CatalogIndex {
    let slots = SlotDirectoryStorage(takingOver: flatDirectory.baseAddress!, count: flatDirectory.count)
    self.slots = slots
    return CatalogIndex(
      hashBits: hashBits, directoryBits: directoryBits, positionBits: positionBits, directory: slots.directory,
      postings: UnsafeBufferPointer(postings), storage: [self])
  }
  deinit {
    if slots == nil { free(flatDirectory.baseAddress) }
    postings.deallocate()
  }
}

extension CatalogIndex {
  /// Builds an index from (hash, global frame) entries. Counting sort by directory slot: linear time.
  static func build(hashBits: Int, entries: [(hash: UInt32, position: UInt32)]) -> CatalogIndex {
    build(hashBits: hashBits, postingCount: entries.count) { emit in
      for e in entries { emit(e.hash, e.position) }
    }
  }

  /// Builds an index of `postingCount` (hash, global frame) entries that `forEachEntry` hands to its argument: the
  /// same entries in the same order each time it is called, twice (once to count each directory slot's postings,
  /// once to place them). Counting sort by directory slot, in place: linear time, and no memory but the index's own,
  /// so that a catalog's entries never need to be held as a list (8 bytes each, and a copy to filter them).
  static func build(
    hashBits: Int, postingCount: Int, entries forEachEntry: ((UInt32, UInt32) -> Void) -> Void
  ) -> CatalogIndex {
    let dirBits = directoryBits(hashBits: hashBits, postingCount: postingCount)
    let residualBits = hashBits - dirBits
    let positionBits = 32 - residualBits
    let owner = IndexArrays(directoryCount: (1 << dirBits) + 1, postingCount: postingCount)
    let directory = owner.flatDirectory
    let postings = owner.postings
    let slotShift = UInt32(residualBits)
    var counted = 0
    forEachEntry { hash, _ in
      directory[Int(hash >> slotShift) + 1] += 1
      counted += 1
    }
    precondition(counted == postingCount, "\(counted) entries where \(postingCount) were announced")
    // `directory[slot + 1]` becomes the slot's start; placing a posting moves it on, so that once every posting is
    // placed it holds the slot's end, which is the next slot's start.
    var start: UInt32 = 0
    for i in 1..<directory.count {
      let n = directory[i]
      directory[i] = start
      start += n
    }
    let residualMask: UInt32 = residualBits == 0 ? 0 : (1 << UInt32(residualBits)) - 1
    let positionShift = UInt32(positionBits)
    var placed = 0
    forEachEntry { hash, position in
      let i = Int(hash >> slotShift) + 1
      let at = Int(directory[i])
      precondition(at < postingCount, "the entries changed between the two passes")
      postings[at] = residualBits == 0 ? position : ((hash & residualMask) << positionShift) | position
      directory[i] += 1
      placed += 1
    }
    precondition(placed == postingCount, "the entries changed between the two passes")
    return owner.finished(hashBits: hashBits, directoryBits: dirBits, positionBits: positionBits)
  }

  /// Every (hash, global frame) entry: the inverse of `build`, used to edit a catalog.
  func entries() -> [(hash: UInt32, position: UInt32)] {
    var out = [(hash: UInt32, position: UInt32)]()
    out.reserveCapacity(postings.count)
    forEachEntry { out.append(($0, $1)) }
    return out
  }
}
