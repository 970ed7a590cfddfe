/// Turns screens of lines into the bytes that draw them without flicker: the first frame (and the first after a
/// resize) clears the screen and draws every line; later frames rewrite only the lines that changed, each by moving
/// the cursor to its row and overwriting it, in one string that the console writes at once.
///
/// Threads: the console's thread only.
struct TerminalFrame {
  private var previous: [ConsoleLayout.Line]?
  /// Colours off: warnings in bold instead of yellow, alerts bold and underlined instead of red, states without their
  /// colours (the `NO_COLOR` convention).
  let colors: Bool

  init(colors: Bool = true) {
    self.colors = colors
  }

  /// Forgets what is on the screen: the next frame redraws everything (after a resize).
  mutating func invalidate() { previous = nil }

  /// The bytes that turn the screen from the previous frame into `lines`; empty when nothing changed.
  mutating func update(to lines: [ConsoleLayout.Line]) -> String {
    var out = ""
    let full = previous?.count != lines.count
    if full { out += "\u{1B}[H\u{1B}[2J" }
    for (row, line) in lines.enumerated() where full || previous?[row] != line {
      out += "\u{1B}[\(row + 1);1H" + sgr(line.style)
      if line.style == .selected || line.style == .title {
        // the whole width, so that the highlight spans the row
        out += painted(Substring(line.text), line) + "\u{1B}[0m"
      } else {
        // Trailing spaces become an erase to the end of the line. A line that fills the width is written whole
        // and not erased after: with wrap off the cursor stays on the last column, which the erase would clear.
        var text = Substring(line.text)
        while text.last == " " { text.removeLast() }
        out += painted(text, line) + "\u{1B}[0m" + (text.count < line.text.count ? "\u{1B}[K" : "")
      }
    }
    previous = lines
    return out
  }

  /// `text` (the start of `line`'s text) with `line`'s accents in their colours; after each, the line's own style
  /// again. Without colours, `text` as it is.
  private func painted(_ text: Substring, _ line: ConsoleLayout.Line) -> String {
    guard colors, !line.accents.isEmpty else { return String(text) }
    var out = ""
    var column = 0
    var open: ConsoleLayout.Line.Accent?
    for character in text {
      if let accent = open, column >= accent.column + accent.width {
        out += "\u{1B}[0m" + sgr(line.style)
        open = nil
      }
      if open == nil, let accent = line.accents.first(where: { $0.column == column }) {
        out += sgr(accent.colour)
        open = accent
      }
      out.append(character)
      column += DisplayWidth.of(character)
    }
    if open != nil { out += "\u{1B}[0m" + sgr(line.style) }
    return out
  }

  private func sgr(_ colour: ConsoleLayout.Line.Colour) -> String {
    switch colour {
    case .green: "\u{1B}[32m"
    case .yellow: "\u{1B}[33m"
    case .red: "\u{1B}[31m"
    }
  }

  private func sgr(_ style: ConsoleLayout.Line.Style) -> String {
    switch style {
    case .plain: ""
    case .title: "\u{1B}[1;7m"
    case .heading: "\u{1B}[1m"
    case .selected: "\u{1B}[7m"
    case .warning: colors ? "\u{1B}[1;33m" : "\u{1B}[1m"
    case .alert: colors ? "\u{1B}[1;31m" : "\u{1B}[1;4m"
    case .dim: "\u{1B}[2m"
    }
  }
}
