/// A play log's traffic schedule, written by `schedule import` whichever engine the play log is: ``PlayLogStore``
/// (SQLite) and ``PostgreSQLPlayLogStore`` both.
package protocol ScheduleStorage: AnyObject {
  /// Adds `spots` in one transaction, after removing the spots in `spans`; returns how many rows were written.
  func importSchedule(_ spots: [ScheduledSpot], replacing spans: [ScheduleSpan]) throws -> Int
}

extension PlayLogStore: ScheduleStorage {}
extension PostgreSQLPlayLogStore: ScheduleStorage {}
