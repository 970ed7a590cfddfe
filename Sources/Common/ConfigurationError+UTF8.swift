import Foundation

extension ConfigurationError {
  /// Refuses a configuration file that is not UTF-8 text, naming the first byte that is not and where it is. The
  /// bytes are checked before they reach `JSONDecoder`: its JSON5 reader traps on some invalid sequences (an
  /// unquoted key of bytes 0xFE 0xFF, found by `scripts/fuzz.sh config`) instead of throwing.
  package static func checkUTF8(_ data: Data, file: String) throws(ConfigurationError) {
    var bytes = data.makeIterator()
    var decoder = UTF8()
    var offset = 0
    var line = 1
    var column = 1
    while true {
      switch decoder.decode(&bytes) {
      case .scalarValue(let scalar):
        offset += UTF8.width(scalar)
        if scalar == "\n" {
          line += 1
          column = 1
        } else {
          column += 1
        }
      case .emptyInput:
        return
      case .error:
        let byte = data[data.startIndex + offset]
        throw ConfigurationError(
          keyPath: file,
          reason: "not UTF-8 text: byte 0x\(String(byte, radix: 16, uppercase: true)) at line \(line), column "
            + "\(column) (offset \(offset)); save the file as UTF-8")
      }
    }
  }
}
