/// A set of keys of two words for the bookkeeping of one call (the cells a batch verified, the matches a gathering
/// holds), kept from call to call: `removeAll` empties it at once by starting a new generation, where a `Set` made
/// anew in each call allocated, grew and hashed with a seeded `Hasher` each time (about a twentieth of a scan's CPU
/// with the dev catalog, in verification).
///
/// Open addressing with linear probing in a table of a power of two slots, at most half full (it doubles beyond); a
/// slot holds a key of the set when it carries the current generation, so keys are never removed one by one.
/// One thread: the matcher's.
final class ScratchKeySet {
  private struct Slot {
    var generation: UInt32
    var first: UInt64
    var second: UInt64
  }

  private var slots: UnsafeMutablePointer<Slot>
  private var slotCount: Int
  /// Bits of a key's mixed hash that pick its first slot: log2 of `slotCount`.
  private var slotBits: Int
  private var generation: UInt32
  /// Keys in the set.
  private(set) var count = 0

  /// - Parameters:
  ///   - capacity: keys held before the table first doubles.
  ///   - firstGeneration: the generation of the empty set (not 0, which marks a slot never used); a test starts it
  ///     near the wrap-around.
  init(capacity: Int = 512, firstGeneration: UInt32 = 1) {
    precondition(firstGeneration != 0)
    slotBits = 1
    while 1 << slotBits < 2 * capacity { slotBits += 1 }
    slotCount = 1 << slotBits
    slots = .allocate(capacity: slotCount)
    slots.initialize(repeating: Slot(generation: 0, first: 0, second: 0), count: slotCount)
    generation = firstGeneration
  }

  deinit { slots.deallocate() }

  /// Empties the set: a new generation, and after 2^32 − 1 of them, every slot marked unused again.
  func removeAll() {
    count = 0
    generation &+= 1
    if generation == 0 {
      for i in 0..<slotCount { slots[i].generation = 0 }
      generation = 1
    }
  }

  /// Adds the key (`first`, `second`); true when it was not in the set.
  @inline(__always)
  @discardableResult
  func insert(_ first: UInt64, _ second: UInt64 = 0) -> Bool {
    var i = home(first, second)
    while slots[i].generation == generation {
      if slots[i].first == first && slots[i].second == second { return false }
      i = (i + 1) & (slotCount - 1)
    }
    slots[i] = Slot(generation: generation, first: first, second: second)
    count += 1
    if 2 * count > slotCount { grow() }
    return true
  }

  @inline(__always)
  func contains(_ first: UInt64, _ second: UInt64 = 0) -> Bool {
    var i = home(first, second)
    while slots[i].generation == generation {
      if slots[i].first == first && slots[i].second == second { return true }
      i = (i + 1) & (slotCount - 1)
    }
    return false
  }

  /// The key's first slot: the top bits of a multiplicative mix of both words, which spreads keys that differ in any
  /// bit (nearby frames, cells and hypotheses).
  @inline(__always)
  private func home(_ first: UInt64, _ second: UInt64) -> Int {
    let mixed = ((first &* 0x9E37_79B9_7F4A_7C15) ^ second) &* 0xD6E8_FEB8_6659_FD93
    return Int(truncatingIfNeeded: mixed >> UInt64(64 - slotBits))
  }

  /// Twice the slots, with the keys of the current generation moved over.
  private func grow() {
    let old = slots
    let oldCount = slotCount
    slotBits += 1
    slotCount <<= 1
    slots = .allocate(capacity: slotCount)
    slots.initialize(repeating: Slot(generation: 0, first: 0, second: 0), count: slotCount)
    for j in 0..<oldCount where old[j].generation == generation {
      var i = home(old[j].first, old[j].second)
      while slots[i].generation == generation { i = (i + 1) & (slotCount - 1) }
      slots[i] = old[j]
    }
    old.deallocate()
  }
}
