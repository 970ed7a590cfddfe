import Foundation
import Matcher

/// A play log in PostgreSQL, shared by several monitors (nodes): the `database` section of the configuration. Every
/// key is optional; without `url` the play log is the SQLite file `databasePath` (which may also be a
/// `postgresql://` URL).
///
/// Threads: a value; any thread.
struct DatabaseSettings: Codable, Sendable, Equatable {
  /// `postgresql://USER@HOST:PORT/DB`, never with a password. Replaces `databasePath`.
  var url: String?
  /// A file whose first line is the password. Default: libpq's `PGPASSWORD`, else `~/.pgpass`.
  var passwordFile: String?
  /// This monitor's node name. Default: `--node`, else the host name.
  var node: String?
  /// True: a channel that another running node holds at the start waits on this node, which takes it over when
  /// that node ends (`Monitor+ChannelRefusal`), instead of stopping the start (exit 75). Default false: two nodes
  /// given one channel by mistake are told at once.
  var standby: Bool?
  enum CodingKeys: String, CodingKey, CaseIterable {
    case url
    case passwordFile
    case node
    case standby
  }

  init(url: String? = nil, passwordFile: String? = nil, node: String? = nil, standby: Bool? = nil) {
    self.url = url
    self.passwordFile = passwordFile
    self.node = node
    self.standby = standby
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    url = try c.decodeIfPresent(String.self, forKey: .url)
    passwordFile = try c.decodeIfPresent(String.self, forKey: .passwordFile)
    node = try c.decodeIfPresent(String.self, forKey: .node)
    standby = try c.decodeIfPresent(Bool.self, forKey: .standby)
  }
}
