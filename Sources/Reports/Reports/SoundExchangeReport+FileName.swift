/// The Report of Use's file name, as SoundExchange's Reports of Use Delivery Specifications (§ 2.2.2) ask:
/// the service name, the first and last day of the reporting period and the transmission category,
/// `KFAKE20070115_20070121_H.txt`.
extension SoundExchangeReport {
  /// The file name for a report of `serviceName` from local day `firstDay` to `lastDay` (both included, days since
  /// 1970); characters other than ASCII letters, digits and hyphens are left out of the service name.
  package static func fileName(
    serviceName: String, transmissionCategory: String, firstDay: Int64, lastDay: Int64, fileExtension: String
  ) -> String {
    func clean(_ text: String) -> String {
      String(
        text.unicodeScalars.filter {
          $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
        }.map(Character.init))
    }
    func date(_ day: Int64) -> String {
      let civil = ISO8601Millis.civilDate(fromDays: day)
      func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
      return "\(civil.year)\(two(civil.month))\(two(civil.day))"
    }
    return "\(clean(serviceName))\(date(firstDay))_\(date(lastDay))_\(clean(transmissionCategory)).\(fileExtension)"
  }

  /// The first and last local day of the report's span over its channels (the first channel's calendar); nil when
  /// the span is empty.
  package func reportingDays(in reader: PlayLogReader) throws -> (first: Int64, last: Int64)? {
    let selected = try channelsWithAudience(in: reader).map(\.channel).filter {
      $0.fromMilliseconds < $0.toMilliseconds
    }
    guard let calendar = selected.first?.calendar, let from = selected.map(\.fromMilliseconds).min(),
      let to = selected.map(\.toMilliseconds).max()
    else { return nil }
    return (calendar.day(of: from), calendar.day(of: to - 1))
  }
}
