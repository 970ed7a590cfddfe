/// A fast 64-bit checksum for our file formats: four independent multiply-xorshift lanes over 8-byte words, then a
/// tail and a final mix. Detects any flipped byte; fast enough (several GB/s) to verify a large catalog on every load.
/// Not cryptographic.
enum Checksum64 {
  private static let k1: UInt64 = 0x9E37_79B9_7F4A_7C15
  private static let k2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let k3: UInt64 = 0x1656_67B1_9E37_79F9

  static func of(_ bytes: some Collection<UInt8>) -> UInt64 {
    if let result = bytes.withContiguousStorageIfAvailable({ of(UnsafeRawBufferPointer($0)) }) { return result }
    return Array(bytes).withUnsafeBytes { of($0) }
  }

  static func of(_ raw: UnsafeRawBufferPointer) -> UInt64 {
    var stream = Stream()
    stream.add(raw)
    return stream.value
  }

  /// The checksum of bytes given in pieces (a catalog written a buffer at a time): `of` their concatenation.
  struct Stream {
    private var a: UInt64 = k1
    private var b: UInt64 = k2
    private var c: UInt64 = k3
    private var d: UInt64 = k1 ^ k2
    private var count = 0
    /// The bytes after the last whole 32-byte block, fewer than 32.
    private var pending: [UInt8] = []

    @inline(__always)
    private static func lane(_ h: inout UInt64, _ w: UInt64) {
      h = (h ^ w) &* k1
      h ^= h >> 29
    }

    mutating func add(_ raw: UnsafeRawBufferPointer) {
      count += raw.count
      var i = 0
      if !pending.isEmpty {
        let taken = min(32 - pending.count, raw.count)
        pending.append(contentsOf: raw[0..<taken])
        i = taken
        guard pending.count == 32 else { return }
        pending.withUnsafeBytes { addBlocks($0, upTo: 32) }
        pending.removeAll(keepingCapacity: true)
      }
      let blocksEnd = i + (raw.count - i) / 32 * 32
      addBlocks(UnsafeRawBufferPointer(rebasing: raw[i..<blocksEnd]), upTo: blocksEnd - i)
      pending.append(contentsOf: raw[blocksEnd...])
    }

    private mutating func addBlocks(_ raw: UnsafeRawBufferPointer, upTo n: Int) {
      var (a, b, c, d) = (self.a, self.b, self.c, self.d)
      var i = 0
      while i + 32 <= n {
        Self.lane(&a, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        Self.lane(&b, raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
        Self.lane(&c, raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
        Self.lane(&d, raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
        i += 32
      }
      (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// The checksum of every byte added.
    var value: UInt64 {
      var h = a ^ (b &* k2) ^ (c &* k3) ^ (d &* k1) ^ UInt64(count)
      for byte in pending {
        h = (h ^ UInt64(byte)) &* k2
        h ^= h >> 31
      }
      h ^= h >> 33
      h = h &* k3
      h ^= h >> 29
      return h
    }
  }
}
