/// How many terminal columns text takes, and how to cut it to a width without splitting a character.
///
/// Widths follow what terminals do (wcwidth and Unicode's East Asian Width): East Asian wide and fullwidth
/// characters (CJK ideographs, kana, Hangul syllables, fullwidth forms) and emoji shown as emoji take 2 columns;
/// combining marks, zero-width joiners and variation selectors take none on their own; everything else takes 1. A
/// grapheme cluster (a Swift `Character`: a letter with its accents, an emoji with its modifiers, a flag) is measured
/// as a whole and never split.
///
/// Threads: pure functions; any thread.
enum DisplayWidth {
  /// The columns `text` takes.
  static func of(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + of($1) }
  }

  /// The columns one grapheme cluster takes: 0, 1 or 2.
  static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.contains(where: { $0.properties.isEmojiPresentation }) { return 2 }
    // A text-style emoji turned into an emoji by VS16 (U+FE0F), such as ❤️ or ☀️.
    if scalars.contains("\u{FE0F}") && first.properties.isEmoji && first.value > 0xFF { return 2 }
    if isWide(first) { return 2 }
    return scalars.contains(where: { columns(of: $0) > 0 }) ? 1 : 0
  }

  /// `text` cut to at most `width` columns: when it is longer, it ends in "…" at `width` columns (or one column
  /// less, when a wide character would straddle the edge).
  static func truncate(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    guard of(text) > width else { return text }
    var out = ""
    var used = 0
    for character in text {
      let w = of(character)
      if used + w > width - 1 { break }
      out.append(character)
      used += w
    }
    return out + "…"
  }

  /// `text` cut to `width` columns with `truncate` and padded with spaces to exactly `width` columns.
  static func fit(_ text: String, to width: Int) -> String {
    let cut = truncate(text, to: width)
    return cut + String(repeating: " ", count: max(0, width - of(cut)))
  }

  /// `text` padded on the left to `width` columns (or cut, when longer).
  static func fitRight(_ text: String, to width: Int) -> String {
    let cut = truncate(text, to: width)
    return String(repeating: " ", count: max(0, width - of(cut))) + cut
  }

  /// Text that is safe to print on one line of a terminal, a log or the journal: tabs and line breaks (CR, LF, NEL,
  /// U+2028, U+2029) become spaces, and the other characters `needsEscaping` names become U+FFFD. Text from outside
  /// the program (a title, a file name, an error) then can neither command the terminal (an escape sequence) nor
  /// forge a log line (a line break) nor reorder the rest of the line (a bidirectional override).
  static func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscaping) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D, 0x85, 0x2028, 0x2029: out.append(" ")
      case _ where needsEscaping(scalar): out.append("\u{FFFD}")
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// True for a character that must not reach a terminal or a log line as it is: C0 controls, DEL, C1 controls, the
  /// line and paragraph separators, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
  /// U+2066–U+2069). `printable` replaces them; a JSON line escapes them (`MonitorEvent.jsonLine`).
  static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// The columns of a scalar on its own: 0 for marks, format characters and controls.
  private static func columns(of scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default:
      if (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value) { return 0 }
      return isWide(scalar) ? 2 : 1
    }
  }

  /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15, outside the emoji (handled by
  /// `isEmojiPresentation`).
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F,  // Hangul Jamo initial consonants
    0x2329...0x232A,  // angle brackets
    0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
    0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed
    0x3400...0x4DBF,  // CJK extension A
    0x4E00...0x9FFF,  // CJK unified ideographs
    0xA000...0xA4CF,  // Yi
    0xA960...0xA97F,  // Hangul Jamo extended A
    0xAC00...0xD7A3,  // Hangul syllables
    0xF900...0xFAFF,  // CJK compatibility ideographs
    0xFE10...0xFE19,  // vertical forms
    0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
    0xFF00...0xFF60,  // fullwidth forms
    0xFFE0...0xFFE6,  // fullwidth signs
    0x16FE0...0x18CFF,  // Tangut, Khitan
    0x1AFF0...0x1B2FF,  // Kana supplement and extended
    0x1F200...0x1F2FF,  // enclosed ideographic supplement
    0x20000...0x2FFFD,  // CJK extensions B–F
    0x30000...0x3FFFD,  // CJK extension G and later
  ]

  private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    guard value >= 0x1100 else { return false }
    return wideRanges.contains { $0.contains(value) }
  }
}
