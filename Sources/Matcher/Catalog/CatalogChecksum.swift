/// The checksum in a catalog file's last 8 bytes, of every byte before it: XXH3-64 (`XXH3Stream`) from format version
/// 6 on, `Checksum64` before. Loading a catalog reads the whole file for it (4.7 GB at 10,000 hours), which made the
/// checksum most of a large catalog's load: libxxhash's vector code reads about 19 GB/s on the benchmark machine,
/// Checksum64 8 GB/s.
enum CatalogChecksum {
  case checksum64(Checksum64.Stream)
  case xxh3(XXH3Stream)

  /// The first format version whose checksum is XXH3-64.
  static let firstXXH3FormatVersion: UInt32 = 6

  init(formatVersion: UInt32) {
    self = formatVersion >= Self.firstXXH3FormatVersion ? .xxh3(XXH3Stream()) : .checksum64(Checksum64.Stream())
  }

  static func of(_ body: UnsafeRawBufferPointer, formatVersion: UInt32) -> UInt64 {
    var checksum = CatalogChecksum(formatVersion: formatVersion)
    checksum.add(body)
    return checksum.value
  }

  mutating func add(_ raw: UnsafeRawBufferPointer) {
    switch self {
    case .checksum64(var stream):
      stream.add(raw)
      self = .checksum64(stream)
    case .xxh3(let stream):
      stream.add(raw)
    }
  }

  var value: UInt64 {
    switch self {
    case .checksum64(let stream): stream.value
    case .xxh3(let stream): stream.value
    }
  }
}
