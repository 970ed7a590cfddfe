import Foundation

/// An index's directory: for each slot, the offset of its first posting (and, past the last slot, the number of
/// postings), in two levels, about 2 bytes a slot where a plain list of UInt32 offsets takes 4.
///
/// Slots are grouped in blocks of `2^blockBits`: `blockStarts` holds the offset of each block's first slot (UInt32),
/// `offsets` each slot's offset from its block's start (UInt16). A lookup reads the slot's offset and its neighbour's,
/// side by side (in one cache line but for one slot in 32), and their block starts from a list small enough to stay in
/// the processor's cache (128 KB for the 2^27 slots of the 10,000-hour catalog's triplet index, where this saves
/// 268 MB).
///
/// `blockBits` is the largest, up to `maxBlockBits`, that keeps every block's postings within a UInt16 offset; an index
/// whose slots are too full for blocks of two slots has blocks of one, and its offsets are all 0.
///
/// Immutable once built: any thread may read it.
struct SlotDirectory: RandomAccessCollection, @unchecked Sendable {
  let blockBits: Int
  let blockStarts: UnsafeBufferPointer<UInt32>
  let offsets: UnsafeBufferPointer<UInt16>

  /// Blocks of 4,096 slots: a triplet index holds about 4 postings a slot (8 at most, `CatalogIndex.directoryBits`),
  /// so a block of random keys holds 16,000 (32,000) postings, within a UInt16; and its block starts take 1/1,024 of
  /// the directory's slots' bytes.
  static let maxBlockBits = 12

  var startIndex: Int { 0 }
  var endIndex: Int { offsets.count }

  /// The offset of `slot`'s first posting; of slot `count - 1`, the number of postings.
  @inline(__always)
  subscript(slot: Int) -> UInt32 { blockStarts[slot &>> blockBits] &+ UInt32(offsets[slot]) }

  /// Where the slot offsets start: `baseAddress + slot` is the memory a lookup of `slot` reads first, to ask for it
  /// ahead (prefetch) as a plain directory's `baseAddress + slot` was; the block starts are few enough to stay cached.
  var baseAddress: UnsafePointer<UInt16>? { offsets.baseAddress }

  /// Bytes in the file: the block starts, and the offsets padded to 4 bytes.
  var bytes: Int { Self.bytes(count: offsets.count, blockCount: blockStarts.count) }

  /// The bytes in the file of a directory of `count` offsets and `blockCount` block starts.
  static func bytes(count: Int, blockCount: Int) -> Int { 4 * blockCount + (2 * count + 3) / 4 * 4 }

  /// Whether the offsets surely never decrease, found a block at a time over the 2-byte offsets (a third of the time of
  /// reading every slot's offset as a sum, at 10,000 hours): in each block, its offsets never decrease and no sum of
  /// its start and an offset passes `UInt32.max`, and each block's first slot is not below the last slot of the block
  /// before.
  /// False for any directory that decreases, and for a damaged one whose sums wrap around, which
  /// `CatalogIndex.validateDirectory` then checks slot by slot.
  func surelyNeverDecreases() -> Bool {
    let blockSlots = 1 << blockBits
    guard blockStarts.count == SlotDirectory.blockCount(count: offsets.count, blockBits: blockBits) else {
      return false
    }
    var previousLast: UInt64 = 0
    for b in 0..<blockStarts.count {
      let first = b << blockBits
      let block = UnsafeBufferPointer(rebasing: offsets[first..<Swift.min(first + blockSlots, offsets.count)])
      // The smallest step between neighbours, negative where one decreases: a reduction the compiler vectorizes.
      var smallestStep: Int32 = 0
      for i in 1..<block.count { smallestStep = Swift.min(smallestStep, Int32(block[i]) &- Int32(block[i &- 1])) }
      let start = UInt64(blockStarts[b])
      guard smallestStep >= 0, start + UInt64(block[0]) >= previousLast else { return false }
      previousLast = start + UInt64(block[block.count - 1])
      guard previousLast <= UInt64(UInt32.max) else { return false }
    }
    return true
  }

  /// The number of block starts of a directory of `count` offsets in blocks of `2^blockBits`.
  static func blockCount(count: Int, blockBits: Int) -> Int { count == 0 ? 0 : ((count - 1) >> blockBits) + 1 }

  /// The largest block size, up to `maxBlockBits`, at which the offsets `flat` (never decreasing) fit.
  static func blockBits(for flat: UnsafeBufferPointer<UInt32>) -> Int {
    var bits = maxBlockBits
    while bits > 0 {
      let blockSlots = 1 << bits
      var fits = true
      var first = 0
      while first < flat.count && fits {
        let last = Swift.min(first + blockSlots, flat.count) - 1
        fits = flat[last] &- flat[first] <= UInt32(UInt16.max)
        first += blockSlots
      }
      if fits { return bits }
      bits -= 1
    }
    return 0
  }
}

/// Owns the memory of a `SlotDirectory` made in memory.
final class SlotDirectoryStorage {
  let blockStarts: UnsafeMutableBufferPointer<UInt32>
  /// Points into `offsetsMemory`.
  let offsets: UnsafeMutableBufferPointer<UInt16>
  private let offsetsMemory: UnsafeMutableRawPointer
  let directory: SlotDirectory

  /// The directory of `flat`, a plain list of offsets (never decreasing) in memory from `malloc` of
  /// `4 * count` bytes, which this takes over: the slot offsets are written over it in place, and the memory then
  /// shrunk to them (`realloc`), so that making the directory takes no more memory than the plain list did.
  init(takingOver flat: UnsafeMutablePointer<UInt32>, count: Int) {
    let bits = SlotDirectory.blockBits(for: UnsafeBufferPointer(start: flat, count: count))
    let blocks = SlotDirectory.blockCount(count: count, blockBits: bits)
    blockStarts = .allocate(capacity: max(1, blocks))
    for b in 0..<blocks { blockStarts[b] = flat[b << bits] }
    // Offset `i` (2 bytes at byte 2i) lands on the plain list's entry i/2, which was read before: in order, each entry
    // is read before any offset is written over it.
    let raw = UnsafeMutableRawPointer(flat)
    for i in 0..<count {
      let value = raw.load(fromByteOffset: 4 * i, as: UInt32.self)
      raw.storeBytes(
        of: UInt16(truncatingIfNeeded: value &- blockStarts[i >> bits]), toByteOffset: 2 * i, as: UInt16.self)
    }
    offsetsMemory = realloc(raw, max(2, 2 * count)) ?? raw
    offsets = UnsafeMutableBufferPointer(
      start: offsetsMemory.bindMemory(to: UInt16.self, capacity: count), count: count)
    directory = SlotDirectory(
      blockBits: bits, blockStarts: UnsafeBufferPointer(rebasing: blockStarts[0..<blocks]),
      offsets: UnsafeBufferPointer(offsets))
  }

  /// The directory of the offsets `flat` (never decreasing), copied.
  convenience init<C: Collection>(copying flat: C) where C.Element == UInt32 {
    let memory = malloc(max(4, 4 * flat.count))!.bindMemory(to: UInt32.self, capacity: flat.count)
    _ = UnsafeMutableBufferPointer(start: memory, count: flat.count).initialize(from: flat)
    self.init(takingOver: memory, count: flat.count)
  }

  deinit {
    blockStarts.deallocate()
    free(offsetsMemory)
  }
}
