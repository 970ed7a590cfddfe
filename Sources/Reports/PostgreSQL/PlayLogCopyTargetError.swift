/// `db copy` found rows in the target that are not the source's, before copying anything: the target holds another
/// play log (a node writes it, or another file was copied into it), or the source changed since an earlier copy into
/// it (a play still open then, a schedule imported again). Copying would have kept the target's rows under ids that
/// the source's rows refer to: the source's plays would have been filed under the target's channels and items.
package struct PlayLogCopyTargetError: Error, CustomStringConvertible, Sendable {
  /// The first table whose rows differ.
  package let table: String
  /// The rows of `table` in the target, and the source's rows with ids up to the target's last.
  package let targetRows: Int
  package let sourceRows: Int
  package let targetLastID: Int64
  package let source: String
  /// The target, as its URL without a password.
  package let target: String

  package var description: String {
    "db copy: \(table): the \(targetRows) rows in \(target) (ids up to \(targetLastID)) are not the \(sourceRows) "
      + "rows of \(source) with those ids (checksum DIFFERENT), so nothing was copied. Either the database holds "
      + "another play log (a node writes it, or another file was copied into it): copy into a new, empty database "
      + "(`createdb`); or \(source) changed since an earlier copy into it (a play still open then, a schedule "
      + "imported again): stop the monitor, drop and create the database, and copy again"
  }
}
