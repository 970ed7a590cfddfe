/// The lines of a data file (traffic log, access log, audience CSV), whatever its line ends: `\n`, or `\r\n` as
/// Windows programs write them. Swift reads `\r\n` as one character, so splitting on `"\n"` alone leaves a CRLF file
/// one long line.
enum DataFileLines {
  /// The lines of `text`, without their line ends, numbered from 1; the empty one after a final line end included.
  static func numbered(_ text: String) -> [(number: Int, text: Substring)] {
    text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated().map {
      (number: $0.offset + 1, text: $0.element.hasSuffix("\r") ? $0.element.dropLast() : $0.element)
    }
  }
}
