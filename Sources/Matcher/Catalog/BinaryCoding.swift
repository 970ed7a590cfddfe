import Foundation

/// Little-endian writer for our binary file formats.
struct BinaryWriter {
  var bytes: [UInt8] = []

  mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func append(bytes more: some Sequence<UInt8>) { bytes.append(contentsOf: more) }

  mutating func align(to alignment: Int) {
    while bytes.count % alignment != 0 { bytes.append(0) }
  }
}

/// Little-endian reader for our binary file formats; every failure is a `FormatError` that names the file.
struct BinaryReader {
  let data: Data
  let path: String
  var offset = 0

  init(data: Data, path: String) {
    self.data = data
    self.path = path
  }

  mutating func read<T: FixedWidthInteger>() throws(FormatError) -> T {
    let size = MemoryLayout<T>.size
    guard offset + size <= data.count else { throw FormatError(path: path, reason: "truncated file") }
    let value = data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    offset += size
    return T(littleEndian: value)
  }

  mutating func readBytes(_ count: Int) throws(FormatError) -> [UInt8] {
    guard count >= 0, offset + count <= data.count else { throw FormatError(path: path, reason: "truncated file") }
    let slice = data.withUnsafeBytes { Array($0[offset..<(offset + count)]) }
    offset += count
    return slice
  }

  mutating func expectMagic(_ magic: [UInt8], what: String) throws(FormatError) {
    guard data.count >= magic.count, data.prefix(magic.count).elementsEqual(magic) else {
      throw FormatError(path: path, reason: "not \(what) file (wrong magic bytes)")
    }
    offset = magic.count
  }

  /// Checks the trailing 8-byte checksum against everything before it.
  func verifyTrailingChecksum() throws(FormatError) {
    guard data.count >= 8 else { throw FormatError(path: path, reason: "truncated file") }
    let ok = data.withUnsafeBytes { raw -> Bool in
      let body = UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 8)])
      let stored = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
      return Checksum64.of(body) == stored
    }
    guard ok else {
      throw FormatError(
        path: path, reason: "checksum mismatch: the file is damaged or truncated; rebuild it or restore a backup")
    }
  }
}
