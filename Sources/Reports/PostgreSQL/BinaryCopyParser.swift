/// Reads the rows of `COPY … TO STDOUT (FORMAT binary)` as libpq hands them over (``PostgreSQLConnection/copyOut``,
/// one row a message): each field's bytes as the server holds the value (big-endian 8-byte integers and doubles,
/// text as its bytes, no escapes), in place, without a copy. The stream opens with a header (in the first row's
/// message) and ends with a trailer (a field count of -1), as PostgreSQL's documentation of COPY's binary format
/// describes them.
///
/// Thread: one stream, on the thread that reads it.
struct BinaryCopyParser {
  /// The header's fixed start: "PGCOPY\n\u{FF}\r\n\0".
  static let signature: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]

  /// The number of fields in every row.
  let fieldCount: Int
  /// What is read, for error messages: the table.
  let source: String
  /// The server, for error messages.
  let url: String
  private var hasReadHeader = false
  private var hasReadTrailer = false

  init(fieldCount: Int, source: String, url: String) {
    self.fieldCount = fieldCount
    self.source = source
    self.url = url
  }

  /// Hands `body` each field of the row in `message` in order, with its index and its bytes (nil for NULL); reads
  /// the header first in the stream's first message. Returns false, calling `body` for nothing, for the trailer.
  /// - Throws: ``PostgreSQLError`` for a message that is not a row of `fieldCount` fields (a truncated or foreign
  ///   stream).
  mutating func row(
    _ message: UnsafeBufferPointer<UInt8>, _ body: (Int, UnsafeBufferPointer<UInt8>?) throws -> Void
  ) throws -> Bool {
    guard !hasReadTrailer, let base = message.baseAddress else { throw malformed("data after its end") }
    let raw = UnsafeRawPointer(base)
    var offset = 0
    func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
      guard offset + MemoryLayout<T>.size <= message.count else { throw malformed("a row cut short") }
      let value = T(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
      offset += MemoryLayout<T>.size
      return value
    }
    if !hasReadHeader {
      guard message.starts(with: Self.signature) else { throw malformed("no PGCOPY header") }
      offset = Self.signature.count
      _ = try integer(UInt32.self)  // flags: bit 16 (OIDs) is never set for a query's COPY
      let extensionLength = Int(try integer(UInt32.self))
      guard offset + extensionLength <= message.count else { throw malformed("a header cut short") }
      offset += extensionLength
      hasReadHeader = true
    }
    let count = Int(try integer(Int16.self))
    if count == -1 {
      hasReadTrailer = true
      return false
    }
    guard count == fieldCount else { throw malformed("a row of \(count) fields where \(fieldCount) were asked for") }
    for index in 0..<count {
      let length = Int(try integer(Int32.self))
      if length == -1 {
        try body(index, nil)
        continue
      }
      guard length >= 0, offset + length <= message.count else { throw malformed("a field cut short") }
      try body(index, UnsafeBufferPointer(start: base + offset, count: length))
      offset += length
    }
    guard offset == message.count else { throw malformed("\(message.count - offset) bytes after a row") }
    return true
  }

  private func malformed(_ problem: String) -> PostgreSQLError {
    PostgreSQLError(message: "unreadable COPY data of \(source): \(problem)", url: url)
  }
}
