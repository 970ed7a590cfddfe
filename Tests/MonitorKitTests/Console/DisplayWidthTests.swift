import Testing

@testable import MonitorKit

@Suite("DisplayWidth")
struct DisplayWidthTests {
  @Test("ASCII, accents and combining marks take one column per character")
  func narrowText() {
    #expect(DisplayWidth.of("Armygeddon") == 10)
    #expect(DisplayWidth.of("Motörhead") == 9)
    #expect(DisplayWidth.of("Mo\u{0308}torhead") == 9, "o + combining diaeresis is one character")
    #expect(DisplayWidth.of("Café – Ré") == 9)
  }

  @Test("CJK ideographs, kana, Hangul and fullwidth forms take two columns")
  func wideText() {
    #expect(DisplayWidth.of("夜に駆ける") == 10)
    #expect(DisplayWidth.of("カタカナ") == 8)
    #expect(DisplayWidth.of("강남스타일") == 10)
    #expect(DisplayWidth.of("ＡＢＣ") == 6)
    #expect(DisplayWidth.of("YOASOBI 夜") == 10)
  }

  @Test("emoji take two columns, with modifiers, joiners, flags and VS16 as one character")
  func emoji() {
    #expect(DisplayWidth.of("🎵") == 2)
    #expect(DisplayWidth.of("👍🏽") == 2, "skin tone modifier")
    #expect(DisplayWidth.of("👩‍👩‍👧") == 2, "ZWJ family")
    #expect(DisplayWidth.of("🇩🇪") == 2, "flag")
    #expect(DisplayWidth.of("❤️") == 2, "text heart with VS16")
    #expect(DisplayWidth.of("a🎵b") == 4)
  }

  @Test("truncation ends in an ellipsis at the width and never splits a character")
  func truncation() {
    #expect(DisplayWidth.truncate("Armygeddon", to: 10) == "Armygeddon")
    #expect(DisplayWidth.truncate("Armygeddon", to: 6) == "Armyg…")
    #expect(DisplayWidth.truncate("夜に駆ける", to: 6) == "夜に…", "5 columns: a wide character would straddle")
    #expect(DisplayWidth.truncate("夜に駆ける", to: 7) == "夜に駆…")
    #expect(DisplayWidth.truncate("👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧", to: 5) == "👩‍👩‍👧👩‍👩‍👧…")
    #expect(DisplayWidth.truncate("Mo\u{0308}torhead", to: 3) == "Mo\u{0308}…", "the accent stays on its letter")
    #expect(DisplayWidth.truncate("abc", to: 0) == "")
    #expect(DisplayWidth.truncate("abc", to: 1) == "…")
    for width in 0...12 {
      #expect(DisplayWidth.of(DisplayWidth.truncate("夜に駆ける 🎵 Racing", to: width)) <= width)
      #expect(DisplayWidth.of(DisplayWidth.fit("夜に駆ける 🎵 Racing", to: width)) == width)
      #expect(DisplayWidth.of(DisplayWidth.fitRight("夜に駆ける", to: width)) == width)
    }
  }

  @Test("control characters in titles cannot reach the terminal")
  func printable() {
    #expect(DisplayWidth.printable("evil\u{1B}[2Jtitle") == "evil\u{FFFD}[2Jtitle")
    #expect(DisplayWidth.printable("two\nlines\tand tab") == "two lines and tab")
    #expect(DisplayWidth.printable("c1\u{9B}31m") == "c1\u{FFFD}31m")
    #expect(DisplayWidth.printable("plain – fine") == "plain – fine")
    #expect(DisplayWidth.printable("line\u{2028}para\u{2029}nel\u{85}end") == "line para nel end")
    #expect(DisplayWidth.printable("\u{202E}rtl\u{2066}iso\u{2069}") == "\u{FFFD}rtl\u{FFFD}iso\u{FFFD}")
    #expect(DisplayWidth.printable("עברית العربية") == "עברית العربية", "right-to-left text itself is kept")
  }
}
