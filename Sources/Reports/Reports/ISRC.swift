/// International Standard Recording Codes as SoundExchange expects them: 12 characters, no hyphens
/// (ISO 3901: a 2-letter country code, a 3-character registrant code of letters or digits, 2 digits of year and 5
/// of designation, such as `USRC17607839`).
package enum ISRC {
  /// `text` written as SoundExchange expects it (hyphens and spaces removed, upper case); nil when it is not an
  /// ISRC even so.
  package static func normalized(_ text: String) -> String? {
    let code = text.uppercased().filter { $0 != "-" && $0 != " " }
    let characters = Array(code.unicodeScalars)
    guard characters.count == 12, characters.allSatisfy(\.isASCII) else { return nil }
    func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("A"..."Z").contains(scalar) }
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    guard characters[0..<2].allSatisfy(isLetter), characters[2..<5].allSatisfy({ isLetter($0) || isDigit($0) }),
      characters[5..<12].allSatisfy(isDigit)
    else { return nil }
    return code
  }
}
