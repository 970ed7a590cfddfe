import Foundation
import Testing

@testable import Common

@Suite("JSON5Scanner")
struct JSON5ScannerTests {
  func problem(_ text: String) -> ConfigurationError? {
    JSON5Scanner.problem(in: Data(text.utf8), file: "m.json5")
  }

  @Test(
    "A key written twice in one object is named by its key path and line, however each was quoted or escaped",
    arguments: [
      ("{a: 1, a: 2}", "m.json5: a", "line 1: the key `a` is written twice"),
      ("{\n  workerThreads: 2,\n  \"workerThreads\": 3,\n}", "m.json5: workerThreads", "line 3"),
      ("{'k': 1, \"k\": 2}", "m.json5: k", "written twice"),
      ("{\"\\u0061\": 1, a: 2}", "m.json5: a", "written twice"),
      ("{x: [{}, {m: {v: 1, // v: 0\n v: 2}}]}", "m.json5: x[1].m.v", "line 2: the key `v` is written twice"),
    ])
  func duplicateKeys(text: String, keyPath: String, reason: String) {
    let found = problem(text)
    #expect(found?.keyPath == keyPath, "\(text)")
    #expect(found?.reason.contains(reason) == true, "\(found?.reason ?? "nothing found")")
  }

  @Test(
    "A number that is not finite is named by its key path and line, wherever it is",
    arguments: [
      ("{jack: {ringSeconds: Infinity}}", "m.json5: jack.ringSeconds", "`Infinity` is not a finite number"),
      ("{m: -Infinity}", "m.json5: m", "`-Infinity`"),
      ("{m: +Infinity}", "m.json5: m", "`+Infinity`"),
      ("{\n\n m: NaN}", "m.json5: m", "line 3: `NaN`"),
      ("{list: [1, 2, 1e999]}", "m.json5: list[2]", "`1e999`"),
      ("[NaN]", "m.json5: [0]", "`NaN`"),
    ])
  func nonFinite(text: String, keyPath: String, reason: String) {
    let found = problem(text)
    #expect(found?.keyPath == keyPath, "\(text)")
    #expect(found?.reason.contains(reason) == true, "\(found?.reason ?? "nothing found")")
  }

  @Test(
    "Text that only looks like a problem passes: the same key in other objects, words in strings and comments",
    arguments: [
      "{a: 1, b: {a: 2}, c: [{a: 3}, {a: 4}]}",
      "{title: \"Infinity\", other: 'NaN', note: \"a: 1, a: 2\"}",
      "// {a: 1, a: 2}\n{a: 1, /* a: 2, NaN */ b: 2,}",
      "{Infinity: 1, NaN: 2, n: -0.5e3, h: 0x1F, d: .5, e: 5., s: 'it\\'s', t: \"line\\\ncontinued\"}",
      "\u{FEFF}{a:\u{00A0}1}",
      "{aa: 1, a: 2, 'a\\u00e8': 3, aé: 4}",
    ])
  func clean(text: String) {
    #expect(problem(text) == nil, "\(text): \(problem(text)?.description ?? "")")
  }

  @Test("Nesting deeper than the decoder reads is left to it, without running out of stack")
  func deepNesting() {
    let deep = String(repeating: "[", count: 100_000) + "NaN" + String(repeating: "]", count: 100_000)
    #expect(problem(deep) == nil)
    let readable = String(repeating: "[", count: 100) + "NaN" + String(repeating: "]", count: 100)
    #expect(problem(readable)?.reason.contains("`NaN` is not a finite number") == true)
  }

  @Test("Text that is not JSON5 is left to the decoder, which says what is wrong")
  func unreadable() {
    for text in ["", "{a: 1, a: ", "{a: 1, a: 2} x", "{a 1}", "{\"a\": 'open}", "[1, 2", "{a: 1,, a: 2}", "{/* open"] {
      #expect(problem(text) == nil, "\(text)")
    }
  }

  @Test(
    "A syntax error is placed at its line and column, an unclosed quote or comment where it opens",
    arguments: [
      ("{\n  a: 1\n  b: 2\n}", 3, 3, "b: 2", false),
      ("{\n  a: 1,\n  b: \"two,\n  c: 3\n}", 3, 6, "\"two,", false),
      ("{a: 1, /* note\n b: 2}", 1, 8, "/* note", false),
      ("{a: 1}\n}", 2, 1, "}", false),
      ("{\n  a 1\n}", 2, 5, "1", false),
      ("{a: [1, 2", 1, 10, "", true),
    ])
  func syntaxBreak(text: String, line: Int, column: Int, at: String, atEnd: Bool) throws {
    let place = try #require(JSON5Scanner.syntaxBreak(in: Data(text.utf8)), "\(text)")
    #expect(place.line == line && place.column == column, "\(text): \(place)")
    #expect(place.text == at && place.atEnd == atEnd, "\(text): \(place)")
  }

  @Test("Text the grammar reads has no syntax break, even where the decoder refuses a word in it")
  func noSyntaxBreak() {
    for text in ["{a: 1, b: [1, 2,], // c\n}", "{a: tru}", "'x'"] {
      #expect(JSON5Scanner.syntaxBreak(in: Data(text.utf8)) == nil, "\(text)")
    }
  }
}
