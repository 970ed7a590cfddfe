import Testing

@testable import MonitorKit

@Suite("KeyReader")
struct KeyReaderTests {
  func keys(_ chunks: [String]) -> [ConsoleKey] {
    var reader = KeyReader()
    return chunks.flatMap { reader.keys(from: Array($0.utf8)) }
  }

  @Test("arrow, paging and home/end sequences in both CSI and SS3 form")
  func sequences() {
    #expect(keys(["\u{1B}[A\u{1B}[B\u{1B}OA\u{1B}OB"]) == [.up, .down, .up, .down])
    #expect(
      keys(["\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~"]) == [.pageUp, .pageDown, .home, .end, .home, .end])
    #expect(keys(["\u{1B}[1;5A"]) == [.up], "with a modifier")
  }

  @Test("q quits, Ctrl-C interrupts, Enter and a lone Escape")
  func plainKeys() {
    #expect(keys(["q", "Q", "\u{03}", "\r", "\u{1B}", "x"]) == [.quit, .quit, .interrupt, .enter, .escape, .other])
  }

  @Test("a sequence split across reads is put together")
  func split() {
    #expect(keys(["\u{1B}[", "A"]) == [.up])
    #expect(keys(["\u{1B}[6", "~q"]) == [.pageDown, .quit])
  }

  @Test("the selection moves within the channels, Enter opens and Esc closes the detail view")
  func selection() {
    var selection = ConsoleSelection()
    selection.apply(.up, channelCount: 3)
    #expect(selection.channel == 0)
    for _ in 0..<5 { selection.apply(.down, channelCount: 3) }
    #expect(selection.channel == 2)
    selection.apply(.enter, channelCount: 3)
    #expect(selection.showsDetail)
    selection.apply(.escape, channelCount: 3)
    #expect(!selection.showsDetail)
    selection.apply(.enter, channelCount: 0)
    #expect(!selection.showsDetail, "no detail view without channels")
  }
}
