import Common
import Foundation

/// Reads a traffic system's log of scheduled spots (`schedule import`): a delimited text file with a header row
/// naming the columns `channel,scheduled_at,cart,advertiser,title,length_s`, in any order.
///
/// Traffic systems export the same data in different shapes, so the reader accepts the common variants:
/// - the delimiter is a comma, a semicolon or a tab (whichever the header uses); fields may be quoted (`""` is a
///   quote inside one);
/// - header names are compared without case, spaces or underscores, and have aliases (``columnAliases``): `station`
///   for `channel`, `air_time` or `date_time` for `scheduled_at`, `isci` or `spot_id` for `cart`, `client` for
///   `advertiser`, `copy` for `title`, `length` or `duration` for `length_s`;
/// - `scheduled_at` is ISO 8601 with a zone (`2026-03-02T06:10:00-05:00`), or a local time in the channel's zone as
///   `2026-03-02 06:10[:00]` or `03/02/2026 6:10[:00] [AM|PM]` (month first);
/// - the date may be a column of its own (`date`, `air_date`, `log_date`, …: `2026-03-02` or `03/02/2026`) beside a
///   `scheduled_at` column holding the time of day alone (`06:10:00`, `6:10 AM`), as many traffic systems export it;
/// - `length_s` is seconds (`30`, `29.5`) or `m:ss` / `h:mm:ss` (`0:30`, `:30`); it may be empty.
///
/// `advertiser`, `title` and `length_s` may be missing from the header; `channel`, `scheduled_at` and `cart` may not.
///
/// Local times at a clock change: a time the clocks skip (02:30 on the night they go forward) is refused, naming the
/// line; a time that occurs twice (the hour repeated when they go back) is its first occurrence, and a second row of
/// the same channel, cart and time is the second. The file must be UTF-8 (a BOM is allowed); other text is refused
/// naming the line and the byte, instead of being read with replacement characters. A row repeated in the file (the
/// same channel, time and cart, the cart in any case) is one spot; a repeated row that differs in the rest is
/// refused, naming both lines.
package enum TrafficLogFile {
  /// Each column's accepted names, normalised (lower case, no spaces or underscores), the documented one first.
  package static let columnAliases: [(column: String, names: [String])] = [
    ("channel", ["channel", "station", "service", "callletters"]),
    ("scheduled_at", ["scheduledat", "scheduled", "airtime", "datetime", "scheduledtime", "time"]),
    ("cart", ["cart", "cartnumber", "cartno", "isci", "iscicode", "spotid", "mediaid"]),
    ("advertiser", ["advertiser", "client", "customer", "sponsor", "account"]),
    ("title", ["title", "copy", "copytitle", "description", "spottitle"]),
    ("length_s", ["lengths", "length", "duration", "durations", "len", "spotlength"]),
    ("date", ["date", "airdate", "scheduleddate", "logdate", "broadcastdate"]),
  ]

  /// The spots of the file at `path`; `timeZone` gives a channel's zone for local times.
  /// - Throws: ``DataFileError`` naming the line and the column.
  package static func read(path: String, timeZone: (String) -> TimeZone) throws -> [ScheduledSpot] {
    if let problem = FileReadProblem.of(path) {
      throw DataFileError(path: path, line: 0, reason: "\(problem); name the traffic system's log export")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DataFileError(path: path, line: 0, reason: "cannot be read; name the traffic system's log export")
    }
    return try parse(text(of: data, path: path), path: path, timeZone: timeZone)
  }

  /// `data` as UTF-8 text; UTF-16 or bytes that are not UTF-8 are an error naming the line and the byte, with the fix.
  static func text(of data: Data, path: String) throws -> String {
    if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
      throw DataFileError(
        path: path, line: 0,
        reason: "is UTF-16 text; export the log as CSV in UTF-8 (in a spreadsheet: CSV UTF-8)")
    }
    guard let invalid = InvalidUTF8.first(in: data) else { return String(decoding: data, as: UTF8.self) }
    throw DataFileError(
      path: path, line: invalid.line,
      reason: "byte \(invalid.hexByte)"
        + " (byte offset \(invalid.offset)) is not UTF-8 text; export the log in UTF-8 (a Latin-1 file: "
        + "`iconv -f latin1 -t utf-8`)")
  }

  /// The spots of `text`, the file's contents; `path` names it in errors.
  package static func parse(_ text: String, path: String, timeZone: (String) -> TimeZone) throws -> [ScheduledSpot] {
    var lines = DataFileLines.numbered(text).filter { !$0.text.allSatisfy(\.isWhitespace) }
    guard !lines.isEmpty else {
      throw DataFileError(path: path, line: 0, reason: "is empty; give a header row and one row per spot")
    }
    let header = lines.removeFirst()
    var headerText = header.text
    if headerText.hasPrefix("\u{FEFF}") { headerText = headerText.dropFirst() }
    let delimiter: Character = [",", ";", "\t"].max { a, b in
      headerText.filter { $0 == a }.count < headerText.filter { $0 == b }.count
    }!
    let names = split(headerText, delimiter: delimiter).map(normalised)
    var index: [String: Int] = [:]
    for (column, aliases) in columnAliases {
      if let position = names.firstIndex(where: { aliases.contains($0) }) { index[column] = position }
    }
    for required in ["channel", "scheduled_at", "cart"] where index[required] == nil {
      throw DataFileError(
        path: path, line: header.number,
        reason: "the header has no \(required) column; name the columns channel,scheduled_at,cart,advertiser,"
          + "title,length_s")
    }
    var spots: [ScheduledSpot] = []
    // Each spot's line and index in `spots`, by channel, time and cart (in upper case, as reconcile compares carts).
    var spotAt: [String: (line: Int, index: Int)] = [:]
    // Rows in a repeated hour already given its first occurrence, by channel, cart and that first instant.
    var repeatedHourRows: Set<String> = []
    for line in lines {
      let fields = split(line.text, delimiter: delimiter)
      func field(_ column: String) -> String {
        guard let position = index[column], position < fields.count else { return "" }
        return fields[position].trimmingCharacters(in: .whitespaces)
      }
      func fail(_ column: String, _ reason: String) -> DataFileError {
        DataFileError(path: path, line: line.number, reason: "\(column): \(reason)")
      }
      let channel = field("channel")
      guard !channel.isEmpty else { throw fail("channel", "is empty; name the channel as the configuration does") }
      let cart = field("cart")
      guard !cart.isEmpty else { throw fail("cart", "is empty; give the spot's cart number or ISCI code") }
      let dateText = field("date")
      let timeText = field("scheduled_at")
      // A time of day alone goes with the date column, when there is one.
      let dated =
        dateText.isEmpty || timeText.contains(where: { $0 == "-" || $0 == "/" }) ? timeText : "\(dateText) \(timeText)"
      let zone = timeZone(channel)
      guard let instants = self.instants(dated, zone: zone) else {
        throw fail(
          "scheduled_at",
          index["date"] == nil
            ? "`\(timeText)` is not a time; use ISO 8601 (2026-03-02T06:10:00-05:00), 2026-03-02 06:10:00 or "
              + "03/02/2026 6:10 AM"
            : "`\(dated)` (the date column and the time) is not a time; give dates as 2026-03-02 or 03/02/2026 and "
              + "times as 06:10:00 or 6:10 AM")
      }
      guard var time = instants.first else {
        throw fail(
          "scheduled_at",
          "`\(dated)` does not exist in \(zone.identifier): the clocks skip that time when they go forward; correct "
            + "the row, or give the time with its offset (ISO 8601)")
      }
      if instants.count == 2 {
        let key = "\(channel)\u{0}\(ScheduledSpot.cartKey(cart))\u{0}\(time)"
        if repeatedHourRows.contains(key) { time = instants[1] } else { repeatedHourRows.insert(key) }
      }
      let lengthText = field("length_s")
      var length: Int64?
      if !lengthText.isEmpty {
        // No spot is longer than a day; the bound keeps the length an exact number of milliseconds.
        guard let seconds = self.seconds(lengthText), seconds <= 86_400 else {
          throw fail("length_s", "`\(lengthText)` is not a length up to a day; use seconds (30) or m:ss (0:30)")
        }
        length = Int64((seconds * 1000).rounded())
      }
      let spot = ScheduledSpot(
        channel: channel, scheduledAtMilliseconds: time, cart: cart, advertiser: field("advertiser"),
        title: field("title"), lengthMilliseconds: length)
      let key = "\(channel)\u{0}\(time)\u{0}\(ScheduledSpot.cartKey(cart))"
      if let earlier = spotAt[key] {
        let first = spots[earlier.index]
        guard first.advertiser == spot.advertiser && first.title == spot.title && first.lengthMilliseconds == length
        else {
          throw DataFileError(
            path: path, line: line.number,
            reason: "repeats the spot of line \(earlier.line) (channel \(channel), the same time, cart \(cart)) with "
              + "another advertiser, title or length; keep the row that is right")
        }
        continue
      }
      spotAt[key] = (line.number, spots.count)
      spots.append(spot)
    }
    guard !spots.isEmpty else {
      throw DataFileError(
        path: path, line: header.number, reason: "has a header and no spots; export the log with its rows")
    }
    return spots
  }

  private static func normalised(_ name: String) -> String {
    name.lowercased().filter { !$0.isWhitespace && $0 != "_" && $0 != "-" }
  }

  /// The fields of one line; quoted fields may hold the delimiter and `""` for a quote.
  static func split(_ line: Substring, delimiter: Character) -> [String] {
    var fields: [String] = []
    var current = ""
    var quoted = false
    var index = line.startIndex
    while index < line.endIndex {
      let character = line[index]
      if quoted {
        if character == "\"" {
          let next = line.index(after: index)
          if next < line.endIndex && line[next] == "\"" {
            current.append("\"")
            index = next
          } else {
            quoted = false
          }
        } else {
          current.append(character)
        }
      } else if character == "\"" && current.allSatisfy(\.isWhitespace) {
        current = ""
        quoted = true
      } else if character == delimiter {
        fields.append(current)
        current = ""
      } else {
        current.append(character)
      }
      index = line.index(after: index)
    }
    fields.append(current)
    return fields
  }

  /// A length in seconds: `30`, `29.5`, `0:30`, `:30`, `0:00:30`.
  static func seconds(_ text: String) -> Double? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    var total = 0.0
    for (position, part) in parts.enumerated() {
      let isLast = position == parts.count - 1
      if part.isEmpty && position == 0 && parts.count > 1 { continue }
      guard let value = isLast ? Double(part) : Double(Int(part) ?? -1), value >= 0, value.isFinite else {
        return nil
      }
      total = total * 60 + value
    }
    return total
  }

  /// The instants (milliseconds since 1970, in order) that `text` names: ISO 8601 with a zone names one; a local
  /// time in `zone` names one, none when the clocks skip it, or two in the hour they repeat. Nil when `text` is not
  /// a time.
  static func instants(_ text: String, zone: TimeZone) -> [Int64]? {
    if let instant = ISO8601Millis.parseMillisecondsSince1970(text) { return [instant] }
    guard let local = localMilliseconds(text) else { return nil }
    // Each offset in force within a day of that time (a zone changes its offset at most once a day) gives an instant;
    // the instant is the local time's when the zone has that offset then.
    let day: Int64 = 86_400_000
    let offsets = Set(
      [local - day, local, local + day].map { zone.secondsFromGMT(for: Date(millisecondsSince1970: $0)) })
    return offsets.map { local - Int64($0) * 1000 }.filter { instant in
      Int64(zone.secondsFromGMT(for: Date(millisecondsSince1970: instant))) * 1000 == local - instant
    }.sorted()
  }

  /// A local time without zone as milliseconds since 1970-01-01T00:00 local: `2026-03-02 06:10[:00]`,
  /// `2026-03-02T06:10[:00]` or `03/02/2026 6:10[:00] [AM|PM]`.
  static func localMilliseconds(_ text: String) -> Int64? {
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
    guard parts.count == 2 || parts.count == 3 else { return nil }
    let year: Int64
    let month: Int64
    let day: Int64
    if parts[0].contains("-") {
      let date = parts[0].split(separator: "-")
      guard date.count == 3, date[0].count == 4, let y = Int64(date[0]), let m = Int64(date[1]), let d = Int64(date[2])
      else { return nil }
      (year, month, day) = (y, m, d)
    } else {
      let date = parts[0].split(separator: "/")
      guard date.count == 3, date[2].count == 4, let m = Int64(date[0]), let d = Int64(date[1]), let y = Int64(date[2])
      else { return nil }
      (year, month, day) = (y, m, d)
    }
    guard (1...12).contains(month), (1...ISO8601Millis.daysInMonth(year: year, month: month)).contains(day) else {
      return nil
    }
    let clock = parts[1].split(separator: ":")
    guard clock.count == 2 || clock.count == 3, var hour = Int64(clock[0]), let minute = Int64(clock[1]),
      (0...59).contains(minute)
    else { return nil }
    let second = clock.count == 3 ? Int64(clock[2]) : 0
    guard let second, (0...59).contains(second) else { return nil }
    if parts.count == 3 {
      let meridiem = parts[2].uppercased()
      guard meridiem == "AM" || meridiem == "PM", (1...12).contains(hour) else { return nil }
      hour = hour % 12 + (meridiem == "PM" ? 12 : 0)
    }
    guard (0...23).contains(hour) else { return nil }
    let days = ISO8601Millis.days(year: year, month: month, day: day)
    return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000
  }
}
