/// The columns of a console table, fitted to the terminal's width: columns of low priority are dropped until the
/// rest fit at their minimum widths, then the spare columns go to the flexible ones up to their preferred widths,
/// the most important first, and whatever is left to the last flexible column.
///
/// Threads: a value; any thread.
struct ConsoleColumns {
  struct Column {
    var heading: String
    var minWidth: Int
    /// The width a flexible column would like; a fixed column has `minWidth`.
    var preferredWidth: Int
    var rightAligned = false
    /// Columns with lower numbers are dropped first when the width is short.
    var priority: Int
    /// Takes what is left after every column got its preferred width.
    var takesRest = false

    static func fixed(_ heading: String, _ width: Int, right: Bool = false, priority: Int) -> Column {
      Column(heading: heading, minWidth: width, preferredWidth: width, rightAligned: right, priority: priority)
    }

    static func flexible(_ heading: String, min: Int, preferred: Int, priority: Int, takesRest: Bool = false)
      -> Column
    {
      Column(heading: heading, minWidth: min, preferredWidth: preferred, priority: priority, takesRest: takesRest)
    }
  }

  /// The columns kept, in their order, and the width each got.
  let kept: [(column: Column, index: Int, width: Int)]
  private let headings: [String]

  /// Fits `columns`, separated by one space, into `width` columns.
  init(_ columns: [Column], width: Int) {
    var keep = Array(columns.indices)
    func total(_ widths: (Column) -> Int) -> Int {
      keep.reduce(0) { $0 + widths(columns[$1]) } + max(0, keep.count - 1)
    }
    while keep.count > 1 && total(\.minWidth) > width {
      let drop = keep.min { columns[$0].priority < columns[$1].priority }!
      keep.removeAll { $0 == drop }
    }
    var widths = Dictionary(uniqueKeysWithValues: keep.map { ($0, columns[$0].minWidth) })
    var spare = width - total(\.minWidth)
    for index in keep.sorted(by: { columns[$0].priority > columns[$1].priority }) where spare > 0 {
      let grow = min(spare, columns[index].preferredWidth - columns[index].minWidth)
      widths[index, default: 0] += grow
      spare -= grow
    }
    if spare > 0, let rest = keep.last(where: { columns[$0].takesRest }) { widths[rest, default: 0] += spare }
    if spare < 0, let only = keep.first { widths[only] = max(0, (widths[only] ?? 0) + spare) }
    kept = keep.map { (columns[$0], $0, widths[$0] ?? 0) }
    headings = columns.map(\.heading)
  }

  /// One row: `cells[i]` goes in column `i` of the columns given to `init` (dropped columns' cells are left out).
  func row(_ cells: [String]) -> String {
    kept.map { column, index, width in
      let cell = index < cells.count ? DisplayWidth.printable(cells[index]) : ""
      return column.rightAligned ? DisplayWidth.fitRight(cell, to: width) : DisplayWidth.fit(cell, to: width)
    }.joined(separator: " ")
  }

  /// Where column `index` (of the columns given to `init`) starts in a row, and its width; nil when it was dropped.
  func span(ofColumn index: Int) -> (column: Int, width: Int)? {
    var column = 0
    for kept in kept {
      if kept.index == index { return (column, kept.width) }
      column += kept.width + 1
    }
    return nil
  }

  /// The headings as a row.
  var headingRow: String { row(headings) }
}
