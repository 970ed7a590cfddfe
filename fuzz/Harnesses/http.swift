import Foundation
import Matcher
import Reports

@testable import MonitorKit

// Fuzzes the HTTP API's routing and query reading (APIRouter, APIQuery, ReportEndpoint, the page queries of the play
// log), as `run` serves them. An input is a request as text: `METHOD TARGET` on the first line, then `Name: value`
// header lines; the target's query is split and percent-decoded as libmicrohttpd does (`+` is a space), and a
// header `X-Remote: 1` makes the client another host (which then needs the token, as `Authorization` or `Cookie`).
// The router must answer every request with 200, 204 (a login), 303 (a logout), 4xx or 503, and every answer but
// 200, 204 and 303 must be `{"error": ...}`; a crash, a hang or an allocation without bound is a finding. The listen-address and cursor
// parsers read the target too.

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  writeSeedsIfAsked {
    [
      "GET /api/v1/channels", "GET /api/v1/plays?limit=2&channel=fm1&from=2026-01-01T00:00:00Z",
      "GET /api/v1/plays?cursor=1796000000000_2&limit=1", "GET /api/v1/events?to=2030-01-01T00:00:00%2B01:00",
      "GET /api/v1/reports/airplay.csv?tz=UTC&by-channel=true&group=week",
      "GET /api/v1/reports/reconcile.csv?tolerance=60&kind=ad", "GET /api/v1/reports/plays.csv?from=2026-11-30",
      "GET /metrics", "GET /healthz", "HEAD /api/v1/openapi.json", "POST /api/v1/channels",
      "GET /api/v1/channels\nX-Remote: 1\nAuthorization: Bearer fuzz-token",
      "GET /api/v1/events/stream\nX-Remote: 1\nAuthorization: Bearer wrong", "GET 127.0.0.1:8750", "GET [::1]:0",
      "POST /login\nX-Remote: 1\nAuthorization: Bearer fuzz-token", "GET /\nX-Remote: 1",
      "GET /api/v1/alerts?limit=1&channel=fm1&from=2026-01-01T00:00:00Z\nX-Remote: 1\n"
        + "Cookie: theme=dark; bm_session=66757a7a2d746f6b656e",
      "POST /logout\nX-Remote: 1\nCookie: bm_session=66757a7a2d746f6b656e",
      "GET /api/v1/plays\nHost: rebound.example:8750", "GET /api/v1/channels\nHost: [::1]:8750",
    ].enumerated().map { ("seed-\($0.offset).txt", Data($0.element.utf8)) }
  }
  return 0
}

/// A play log with two plays and an event, made once per process.
private let router: APIRouter = {
  let path = FuzzScratch.folder + "/plays.sqlite"
  for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
  do {
    let store = try PlayLogStore(path: path)
    let start = Date(timeIntervalSince1970: 1_796_000_000)
    for (index, channel) in ["fm1", "fm2"].enumerated() {
      _ = try store.record(
        PlayRecord(
          channel: channel, itemKey: "k\(index)", title: "Title \(index)", artist: "Artist", kind: .song,
          start: start, end: start.addingTimeInterval(30), confidence: 0.9, detectedAt: start, status: .closed))
    }
    try store.recordEvent(channel: "fm1", kind: .gap, start: start, detail: "gap")
    try store.openAlert(channel: "fm1", kind: "silence", start: start, detail: "below -50 dBFS")
    try store.openAlert(channel: nil, kind: "play_log_unwritable", start: start, detail: "disk full")
    try store.close()
  } catch {
    fatalError("cannot make the play log: \(error)")
  }
  var configuration = MonitorConfiguration(catalogPath: "/c.bmcat", databasePath: path, channels: [])
  configuration.channels = [ChannelConfiguration(name: "fm1", source: .jack(JackSource(stereo: true)), timeZone: "UTC")]
  return APIRouter(readings: FuzzReadings(), configuration: configuration, token: "fuzz-token", log: nil)
}()

private struct FuzzReadings: MonitorReadings {
  var statuses: [ChannelStatus] {
    var status = ChannelStatus(name: "fm1", source: "jack")
    status.input = .running
    status.peakLevelDB = -20
    return [status]
  }
  var overview: MonitorOverview {
    MonitorOverview(
      startedAt: Date(timeIntervalSince1970: 1_796_000_000), catalogPath: "/c.bmcat", catalogItems: 1,
      catalogHours: 0.1, databasePath: "/plays.sqlite", storeBacklog: 0, storeFailing: false, jack: nil)
  }
  var playLogWriteLatency: LatencyHistogram.Snapshot {
    LatencyHistogram.Snapshot(
      counts: [Int](repeating: 0, count: LatencyHistogram.bucketBoundsSeconds.count + 1), sumSeconds: 0)
  }
}

/// `%XX` and `+` decoded as libmicrohttpd decodes a query (an invalid escape is kept as written).
private func decoded(_ text: Substring) -> String {
  var bytes: [UInt8] = []
  let utf8 = Array(text.utf8)
  var index = 0
  while index < utf8.count {
    if utf8[index] == UInt8(ascii: "+") {
      bytes.append(UInt8(ascii: " "))
    } else if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
      let byte = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16)
    {
      bytes.append(byte)
      index += 2
    } else {
      bytes.append(utf8[index])
    }
    index += 1
  }
  return String(decoding: bytes, as: UTF8.self)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  let first = lines.first ?? ""
  let method = first.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
  let target = first.split(separator: " ", maxSplits: 1).dropFirst().first ?? ""
  let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
  var request = HTTPRequest(method: method, path: decoded(pathPart))
  if let question = target.firstIndex(of: "?") {
    for pair in target[target.index(after: question)...].split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      request.query.append((decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : ""))
    }
  }
  for line in lines.dropFirst() {
    guard let colon = line.firstIndex(of: ":") else { continue }
    let name = line[..<colon].lowercased()
    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    if name == "authorization" { request.authorization = value }
    if name == "cookie" { request.cookie = value }
    if name == "host" { request.host = value }
    if name == "x-remote" { request.fromLoopback = value != "1" }
  }
  let response = router.respond(to: request)
  fuzzExpect(
    [200, 204, 303, 400, 401, 403, 404, 405, 429, 503].contains(response.status),
    "status \(response.status) for \(request)")
  if ![200, 204, 303].contains(response.status) {
    let object = try? JSONSerialization.jsonObject(with: Data(response.bodyText.utf8)) as? [String: Any]
    fuzzExpect(object?["error"] is String, "an answer \(response.status) without an error: \(response.bodyText)")
  }
  _ = try? ListenAddress(parsing: String(target))
  if let cursor = APIQuery.decodeCursor(String(target)) {
    fuzzExpect(APIQuery.decodeCursor(APIQuery.encodeCursor(cursor)) == cursor, "a cursor that does not round-trip")
  }
  return 0
}
