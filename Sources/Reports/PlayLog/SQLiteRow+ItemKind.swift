import CSQLite
import Common

extension SQLiteRow {
  /// A `kind` column of `catalog_items`, which holds an ``ItemKind``'s raw value (the play log stores the word).
  /// - Throws: ``SQLiteError`` (`SQLITE_MISMATCH`) naming the word when it is no item kind, as for a value of
  ///   another type.
  func itemKind(_ column: Int) throws -> ItemKind {
    let text = try string(column)
    guard let kind = ItemKind(rawValue: text) else {
      let name = column < columnNames.count ? columnNames[column] : "#\(column)"
      throw SQLiteError(
        .read, code: SQLITE_MISMATCH,
        message: "column \(name) holds \"\(text)\", expected an item kind ("
          + ItemKind.allCases.map(\.rawValue).joined(separator: ", ") + ")",
        sql: sql, path: path, databaseName: databaseName,
        advice: "The file was changed by another program or is damaged: restore it from a backup.")
    }
    return kind
  }
}
