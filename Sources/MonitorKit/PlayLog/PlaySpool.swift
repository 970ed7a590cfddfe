import Common
import Foundation
import Matcher
import Reports

/// The play log's durable spool: a journal of the writer's commands that could not be written to the play log yet,
/// kept on disk so that a stop, a crash or SIGKILL loses none of them. The next start replays it into the play log
/// once (`PlayLogWriter.replay`), then removes it.
///
/// The file is `PLAYLOG.spool` beside the play log, or in the configured `spoolDirectory`. It starts with a header
/// line naming its play log, `BMSPOOL 1 "PATH"`, and holds one record per line: the payload's length in bytes, its
/// FNV-1a 64-bit checksum in hex and the payload, a JSON object (`Entry`: the command, and the play log row it
/// updates when that was known). Every append is synced (`fsync`) before it returns. A record cut off by a crash
/// while it was written, or one damaged later, is found by its length and checksum when the spool is read.
///
/// Threads: one thread at a time (the play log writer's thread, or the control thread before the writer starts).
final class PlaySpool {
  /// A spooled command, and the play log row it updates or retracts when its start was written before (a start in
  /// the same spool gives the row when it is replayed).
  struct Entry: Codable, Sendable, Equatable {
    var command: PlayLogWriter.Command
    var row: Int64?
    /// When the row is an earlier play of the same airing that this command's play continues (see
    /// `PlayLogStore.reopenPlayOfSameAiring`), the status that play had: its start and reference offset stay, and a
    /// retraction gives it back that status.
    var continues: PlayStatus?
  }

  /// What a spool holds: its entries up to any damage, and the damage.
  struct Contents {
    var entries: [Entry]
    var damage: Damage?
  }

  /// Where a spool stops being readable.
  struct Damage: Equatable {
    /// The byte at which the unreadable part starts.
    var offset: Int
    /// True when only the last record is incomplete (or zero bytes follow): a crash while it was appended, before
    /// the writer counted it as spooled.
    var isCutTail: Bool
    var reason: String
  }

  static let headerPrefix = "BMSPOOL 1 "

  /// The spool file.
  let path: String
  /// The play log it belongs to.
  let playLogPath: String
  /// The open spool while this process appends to it; -1 otherwise.
  private var descriptor: Int32 = -1
  /// The spool's length up to its last complete record.
  private var length: Int = 0

  /// The spool of the play log at `playLogPath`: `PLAYLOG.spool` beside it, or the play log's file name with
  /// `.spool` in `directory`.
  init(playLogPath: String, directory: String? = nil) {
    self.playLogPath = playLogPath
    let name = (playLogPath as NSString).lastPathComponent + ".spool"
    path = directory.map { ($0 as NSString).appendingPathComponent(name) } ?? playLogPath + ".spool"
  }

  /// The spool `file` of the play log at `playLogPath` (a PostgreSQL play log's: one per node).
  init(playLogPath: String, file: String) {
    self.playLogPath = playLogPath
    path = file
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// True when the spool file exists (it holds commands, or held commands that could not all be removed).
  var exists: Bool { descriptor >= 0 || FileManager.default.fileExists(atPath: path) }

  /// Appends `entries` as one write, synced to disk before this returns. On an error nothing is appended (a partly
  /// written record is cut off again).
  /// - Throws: ``PlaySpoolError/cannotWrite(path:reason:)``.
  func append(_ entries: [Entry]) throws {
    guard !entries.isEmpty else { return }
    try openForAppending()
    var bytes: [UInt8] = []
    if length == 0 { bytes += Array(header.utf8) }
    for entry in entries {
      let payload: [UInt8]
      do {
        payload = Array(try Self.encoder.encode(entry))
      } catch {
        throw PlaySpoolError.cannotWrite(path: path, reason: "cannot encode \(entry.command): \(error)")
      }
      bytes += Array("\(payload.count) \(Self.hex(Self.checksum(payload))) ".utf8) + payload + [0x0A]
    }
    var written = 0
    let failure: String? = bytes.withUnsafeBytes { raw in
      while written < raw.count {
        let result = write(descriptor, raw.baseAddress! + written, raw.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          return PlaySpoolError.lastReason
        }
        written += result
      }
      return fsync(descriptor) == 0 ? nil : PlaySpoolError.lastReason
    }
    if let failure {
      _ = ftruncate(descriptor, off_t(length))  // no half record for the next append to follow
      throw PlaySpoolError.cannotWrite(path: path, reason: failure)
    }
    length += bytes.count
  }

  /// Removes the spool (its commands are all in the play log), syncing its folder.
  /// - Throws: ``PlaySpoolError/cannotRemove(path:reason:)``; the spool then stays.
  func remove() throws {
    if descriptor >= 0 {
      close(descriptor)
      descriptor = -1
      length = 0
    }
    if unlink(path) != 0 && errno != ENOENT {
      throw PlaySpoolError.cannotRemove(path: path, reason: PlaySpoolError.lastReason)
    }
    syncFolder()
  }

  /// Reads the spool: its entries in order, up to the first record that is incomplete, fails its checksum or
  /// cannot be decoded. Nil when there is no spool.
  /// - Throws: ``PlaySpoolError/cannotRead(path:reason:)``; a `ConfigurationError` (key `spoolDirectory`) when the
  ///   spool belongs to another play log.
  func read() throws -> Contents? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    if let problem = FileReadProblem.of(path), problem.isNotAFile {
      // Something else at the spool's name (a folder made by hand): no restart mends that.
      throw ConfigurationError(
        keyPath: "spoolDirectory",
        reason: "the play spool \(path) \(problem); move it away (the spool is a file the monitor makes)")
    }
    let data: [UInt8]
    do {
      data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      let reason = FileReadProblem.of(path)?.description ?? "\(error)"
      throw PlaySpoolError.cannotRead(path: path, reason: reason)
    }
    guard !data.isEmpty else { return Contents(entries: [], damage: nil) }
    guard let newline = data.firstIndex(of: 0x0A) else {
      return Contents(entries: [], damage: Damage(offset: 0, isCutTail: true, reason: "its header line is cut off"))
    }
    let headerLine = String(decoding: data[..<newline], as: UTF8.self) + "\n"
    guard headerLine.hasPrefix(Self.headerPrefix) else {
      return Contents(
        entries: [], damage: Damage(offset: 0, isCutTail: false, reason: "it does not start with \(Self.headerPrefix)"))
    }
    if headerLine != header {
      throw ConfigurationError(
        keyPath: "spoolDirectory",
        reason: "the play spool \(path) belongs to another play log (its header: \(headerLine.dropLast())), not "
          + "\(playLogPath); give each play log its own spoolDirectory, or move the spool beside its play log")
    }
    var entries: [Entry] = []
    var offset = newline + 1
    while offset < data.count {
      switch Self.record(in: data, at: offset) {
      case .success(let (payload, next)):
        do {
          entries.append(try Self.decoder.decode(Entry.self, from: Data(payload)))
        } catch {
          return Contents(
            entries: entries, damage: Damage(offset: offset, isCutTail: false, reason: "record unreadable: \(error)"))
        }
        offset = next
      case .failure(let damage):
        let onlyZeros = data[offset...].allSatisfy { $0 == 0 }
        return Contents(
          entries: entries,
          damage: Damage(offset: offset, isCutTail: damage.isCutTail || onlyZeros, reason: damage.reason))
      }
    }
    return Contents(entries: entries, damage: nil)
  }

  /// The record at `offset`: its payload and the offset after it, or what is wrong with it.
  private static func record(in data: [UInt8], at offset: Int) -> Result<(ArraySlice<UInt8>, Int), DamageError> {
    func cut(_ reason: String) -> Result<(ArraySlice<UInt8>, Int), DamageError> {
      .failure(DamageError(isCutTail: true, reason: reason))
    }
    func damaged(_ reason: String) -> Result<(ArraySlice<UInt8>, Int), DamageError> {
      .failure(DamageError(isCutTail: false, reason: reason))
    }
    guard let space = data[offset...].prefix(12).firstIndex(of: 0x20) else {
      return data.count - offset < 12 ? cut("the record's length is cut off") : damaged("no record length")
    }
    guard let count = Int(String(decoding: data[offset..<space], as: UTF8.self)), count >= 0 else {
      return damaged("the record length is not a number")
    }
    let checksumStart = space + 1
    let payloadStart = checksumStart + 17
    guard payloadStart + count + 1 <= data.count else { return cut("the record is cut off") }
    guard data[payloadStart - 1] == 0x20,
      let expected = UInt64(String(decoding: data[checksumStart..<payloadStart - 1], as: UTF8.self), radix: 16)
    else { return damaged("the record's checksum is unreadable") }
    let payload = data[payloadStart..<payloadStart + count]
    guard data[payloadStart + count] == 0x0A else { return damaged("the record does not end where its length says") }
    guard checksum(payload) == expected else { return damaged("the record's checksum does not match") }
    return .success((payload, payloadStart + count + 1))
  }

  private struct DamageError: Error {
    var isCutTail: Bool
    var reason: String
  }

  private var header: String {
    let quoted = (try? Self.encoder.encode(playLogPath)).map { String(decoding: $0, as: UTF8.self) } ?? playLogPath
    return Self.headerPrefix + quoted + "\n"
  }

  private func openForAppending() throws {
    guard descriptor < 0 else { return }
    let created = !FileManager.default.fileExists(atPath: path)
    let opened = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard opened >= 0 else { throw PlaySpoolError.cannotWrite(path: path, reason: PlaySpoolError.lastReason) }
    var status = stat()
    length = fstat(opened, &status) == 0 ? Int(status.st_size) : 0
    descriptor = opened
    if created { syncFolder() }
  }

  /// Syncs the spool's folder, so that the spool's creation or removal survives a power cut.
  private func syncFolder() {
    let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else { return }
    _ = fsync(folder)
    close(folder)
  }

  /// FNV-1a, 64 bits: detects a damaged or cut record (not a deliberate change).
  static func checksum(_ bytes: some Collection<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// JSON with times as ISO 8601 UTC to the millisecond (the play log keeps no more), so that a spool line printed
  /// as a last resort reads as the plays do.
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601Millis.format(date))
    }
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = ISO8601Millis.parse(text) else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time: \(text)")
      }
      return date
    }
    return decoder
  }()
}
