/// A set of speed hypotheses (indices into the matcher's grid, below 256, as a triplet match key holds them): the
/// hypotheses under which one broadcast pair gives the same hash.
struct HypothesisSet: Equatable, Sequence {
  /// Bit h % 64 of word h / 64 is hypothesis h.
  private var w0: UInt64 = 0
  private var w1: UInt64 = 0
  private var w2: UInt64 = 0
  private var w3: UInt64 = 0

  init() {}

  init(_ h: Int) { insert(h) }

  @inline(__always)
  mutating func insert(_ h: Int) {
    let bit = UInt64(1) << UInt64(h & 63)
    switch h >> 6 {
    case 0: w0 |= bit
    case 1: w1 |= bit
    case 2: w2 |= bit
    default: w3 |= bit
    }
  }

  @inline(__always)
  var isEmpty: Bool { w0 | w1 | w2 | w3 == 0 }

  /// The smallest hypothesis in the set; 256 when it is empty.
  @inline(__always)
  var first: Int {
    if w0 != 0 { return w0.trailingZeroBitCount }
    if w1 != 0 { return 64 + w1.trailingZeroBitCount }
    if w2 != 0 { return 128 + w2.trailingZeroBitCount }
    return 192 + w3.trailingZeroBitCount
  }

  @inline(__always)
  func intersection(_ other: HypothesisSet) -> HypothesisSet {
    var s = HypothesisSet()
    s.w0 = w0 & other.w0
    s.w1 = w1 & other.w1
    s.w2 = w2 & other.w2
    s.w3 = w3 & other.w3
    return s
  }

  /// The hypotheses in increasing order.
  struct Iterator: IteratorProtocol {
    fileprivate var words: (UInt64, UInt64, UInt64, UInt64)
    fileprivate var base = 0

    @inline(__always)
    mutating func next() -> Int? {
      while words.0 == 0 {
        guard base < 192 else { return nil }
        words = (words.1, words.2, words.3, 0)
        base += 64
      }
      let h = base + words.0.trailingZeroBitCount
      words.0 &= words.0 - 1
      return h
    }
  }

  @inline(__always)
  func makeIterator() -> Iterator { Iterator(words: (w0, w1, w2, w3)) }
}
