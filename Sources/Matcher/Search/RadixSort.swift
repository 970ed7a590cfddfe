/// A least-significant-digit radix sort of 64-bit keys by a 32-bit field, for the search's large sorts (a broadcast
/// peak's matches in `TargetAgreement`, a catalog's pairs in `TripletIndex`): three sequential passes of 11 bits,
/// each skipped when every key has the same digit there, stable, so keys equal in the field keep their order.
enum RadixSort {
  static let digitBits = 11
  static let digitCount = 1 << digitBits
  /// Counters `sort` needs: three histograms.
  static let histogramCount = 3 * digitCount

  /// Sorts `keys[0..<count]` by bits `fieldShift ..< fieldShift + 32`, using `scratch` (as many keys) and
  /// `histograms` (`histogramCount` counters).
  static func sort(
    _ keys: UnsafeMutablePointer<UInt64>, count n: Int, byFieldAt fieldShift: Int,
    scratch: UnsafeMutablePointer<UInt64>, histograms: UnsafeMutablePointer<Int>
  ) {
    guard n > 1 else { return }
    if n <= 32 {
      // Insertion sort: the field's order; equal fields keep their order.
      for i in 1..<n {
        let k = keys[i]
        let field = (k >> UInt64(fieldShift)) & 0xFFFF_FFFF
        var j = i
        while j > 0 && (keys[j - 1] >> UInt64(fieldShift)) & 0xFFFF_FFFF > field {
          keys[j] = keys[j - 1]
          j -= 1
        }
        keys[j] = k
      }
      return
    }
    let digitMask = UInt64(digitCount - 1)
    histograms.update(repeating: 0, count: histogramCount)
    for i in 0..<n {
      let field = keys[i] >> UInt64(fieldShift)
      histograms[Int(field & digitMask)] += 1
      histograms[digitCount + Int((field >> UInt64(digitBits)) & digitMask)] += 1
      histograms[2 * digitCount + Int((field >> UInt64(2 * digitBits)) & digitMask & 0x3FF)] += 1
    }
    var source = keys
    var destination = scratch
    for pass in 0..<3 {
      let histogram = histograms + pass * digitCount
      let shift = UInt64(fieldShift + pass * digitBits)
      let passMask = pass == 2 ? UInt64(0x3FF) : digitMask
      if histogram[Int((source[0] >> shift) & passMask)] == n { continue }
      scatter(
        source, to: destination, count: n, histogram: histogram, digitCount: digitCount, shift: shift, mask: passMask)
      swap(&source, &destination)
    }
    if source != keys { keys.update(from: source, count: n) }
  }

  /// One pass: the keys of `source[0..<n]` into `destination` in the order of their digit `(key >> shift) & mask`,
  /// keeping the order of keys with the same digit; `histogram` holds how many keys have each of the `digitCount`
  /// digits, and is used up.
  @inline(__always)
  private static func scatter(
    _ source: UnsafeMutablePointer<UInt64>, to destination: UnsafeMutablePointer<UInt64>, count n: Int,
    histogram: UnsafeMutablePointer<Int>, digitCount: Int, shift: UInt64, mask: UInt64
  ) {
    var offset = 0
    for d in 0..<digitCount {
      let c = histogram[d]
      histogram[d] = offset
      offset += c
    }
    for i in 0..<n {
      let k = source[i]
      let d = Int((k >> shift) & mask)
      destination[histogram[d]] = k
      histogram[d] += 1
    }
  }
}
