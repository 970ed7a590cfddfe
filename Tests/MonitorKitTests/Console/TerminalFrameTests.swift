import Testing

@testable import MonitorKit

@Suite("TerminalFrame")
struct TerminalFrameTests {
  typealias Line = ConsoleLayout.Line

  @Test("the first frame clears and draws every line; the next rewrites only what changed")
  func diffs() {
    var frame = TerminalFrame()
    let first = [Line(text: "one  "), Line(text: "two  "), Line(text: "three")]
    let all = frame.update(to: first)
    #expect(all.hasPrefix("\u{1B}[H\u{1B}[2J"))
    #expect(all.contains("\u{1B}[1;1Hone\u{1B}[0m\u{1B}[K") && all.contains("\u{1B}[3;1Hthree\u{1B}[0m"))
    #expect(frame.update(to: first) == "", "nothing changed, nothing written")
    let second = [Line(text: "one  "), Line(text: "TWO  "), Line(text: "three")]
    #expect(frame.update(to: second) == "\u{1B}[2;1HTWO\u{1B}[0m\u{1B}[K")
    frame.invalidate()
    #expect(frame.update(to: second).hasPrefix("\u{1B}[H\u{1B}[2J"), "after a resize: everything again")
  }

  @Test("a line that fills the width is not erased after (wrap is off; the cursor stays on the last column)")
  func fullLine() {
    var frame = TerminalFrame()
    let out = frame.update(to: [Line(text: "abcde")])
    #expect(out.hasSuffix("abcde\u{1B}[0m"))
  }

  @Test("the selected row is written whole in reverse video; NO_COLOR shows warnings in bold")
  func styles() {
    var frame = TerminalFrame(colors: false)
    let out = frame.update(to: [Line(text: "> fm   ", style: .selected), Line(text: "gap", style: .warning)])
    #expect(out.contains("\u{1B}[7m> fm   \u{1B}[0m"))
    #expect(out.contains("\u{1B}[1mgap") && !out.contains("33m"))
  }

  @Test("a coloured cell is written in its colour, and the line's own style comes back after it; none without colour")
  func accents() {
    let line = Line(text: "> fm matching  ", style: .selected, accents: [.init(column: 5, width: 8, colour: .green)])
    var frame = TerminalFrame(colors: true)
    let out = frame.update(to: [line])
    #expect(out.contains("\u{1B}[7m> fm \u{1B}[32mmatching\u{1B}[0m\u{1B}[7m  \u{1B}[0m"), "\(out.debugDescription)")
    var plain = TerminalFrame(colors: false)
    #expect(!plain.update(to: [line]).contains("32m"))
  }
}
