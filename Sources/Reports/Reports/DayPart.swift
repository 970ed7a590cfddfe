/// A part of the broadcast week that a quota is checked over: some weekdays, from one local wall-clock time to
/// another (`Monday to Friday, 06:00 to 18:00`). A play belongs to it when its start does.
///
/// A value type: safe to pass between threads.
package struct DayPart: Sendable, Equatable {
  /// Its name in the report (`broadcast week`, `weekdays 6-18`).
  package var name: String
  /// The weekdays it covers: 0 for Monday … 6 for Sunday.
  package var weekdays: Set<Int>
  /// Where it starts, in minutes after local midnight (0…1439).
  package var startMinute: Int
  /// Where it ends (exclusive), in minutes after local midnight (1…1440; 1440 is midnight at the day's end).
  package var endMinute: Int

  package init(name: String, weekdays: Set<Int> = Set(0...6), startMinute: Int = 0, endMinute: Int = 1440) {
    self.name = name
    self.weekdays = weekdays
    self.startMinute = startMinute
    self.endMinute = endMinute
  }

  /// True when a play that starts on local `weekday` (0 = Monday) at `timeOfDayMilliseconds` after local midnight
  /// belongs to this day part.
  package func contains(weekday: Int, timeOfDayMilliseconds: Int64) -> Bool {
    weekdays.contains(weekday) && timeOfDayMilliseconds >= Int64(startMinute) * 60_000
      && timeOfDayMilliseconds < Int64(endMinute) * 60_000
  }
}
