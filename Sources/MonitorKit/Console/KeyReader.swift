import Foundation

/// Turns the bytes a terminal sends in raw mode into keys: plain bytes, and the escape sequences of the arrow and
/// paging keys (`ESC [ A`, `ESC O A`, `ESC [ 5 ~` …). A lone ESC is the Escape key when nothing follows it in the
/// same read (terminals send a sequence in one write).
///
/// Threads: the console's thread only.
struct KeyReader {
  private var pending: [UInt8] = []

  /// The keys in `bytes` (one read from the terminal). An escape sequence cut at the end of a read is kept for the
  /// next one, except a lone ESC, which is the Escape key.
  mutating func keys(from bytes: some Sequence<UInt8>) -> [ConsoleKey] {
    pending.append(contentsOf: bytes)
    var keys: [ConsoleKey] = []
    var i = 0
    while i < pending.count {
      let byte = pending[i]
      if byte == 0x1B {
        guard i + 1 < pending.count else {
          keys.append(.escape)
          i += 1
          continue
        }
        let next = pending[i + 1]
        guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
          keys.append(.escape)  // ESC followed by an ordinary key (Alt+key): Escape, then the key
          i += 1
          continue
        }
        // CSI or SS3: parameters (digits, ';') then one final byte in 0x40...0x7E.
        var end = i + 2
        while end < pending.count, (0x30...0x3F).contains(pending[end]) { end += 1 }
        guard end < pending.count else { break }  // incomplete: wait for the rest
        keys.append(Self.key(final: pending[end], parameters: Array(pending[(i + 2)..<end])))
        i = end + 1
        continue
      }
      switch byte {
      case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
      case 0x03: keys.append(.interrupt)
      case 0x0D, 0x0A: keys.append(.enter)
      case UInt8(ascii: "k"): keys.append(.up)
      case UInt8(ascii: "j"): keys.append(.down)
      default: keys.append(.other)
      }
      i += 1
    }
    pending.removeFirst(i)
    return keys
  }

  private static func key(final: UInt8, parameters: [UInt8]) -> ConsoleKey {
    switch (final, String(decoding: parameters, as: UTF8.self)) {
    case (UInt8(ascii: "A"), _): return .up
    case (UInt8(ascii: "B"), _): return .down
    case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .home
    case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .end
    case (UInt8(ascii: "~"), "5"): return .pageUp
    case (UInt8(ascii: "~"), "6"): return .pageDown
    case (UInt8(ascii: "M"), _): return .enter  // keypad Enter in application mode (ESC O M)
    default: return .other
    }
  }
}
