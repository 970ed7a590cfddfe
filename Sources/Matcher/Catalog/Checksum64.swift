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
    var a: UInt64 = k1
    var b: UInt64 = k2
    var c: UInt64 = k3
    var d: UInt64 = k1 ^ k2
    let n = raw.count
    var i = 0
    @inline(__always) func lane(_ h: inout UInt64, _ w: UInt64) {
      h = (h ^ w) &* k1
      h ^= h >> 29
    }
    while i + 32 <= n {
      lane(&a, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      lane(&b, raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
      lane(&c, raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
      lane(&d, raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
      i += 32
    }
    var h = a ^ (b &* k2) ^ (c &* k3) ^ (d &* k1) ^ UInt64(n)
    while i < n {
      h = (h ^ UInt64(raw[i])) &* k2
      h ^= h >> 31
      i += 1
    }
    h ^= h >> 33
    h = h &* k3
    h ^= h >> 29
    return h
  }
}
