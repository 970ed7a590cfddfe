import Common
import Foundation
import Matcher

/// The configuration file: JSON5 (comments, trailing commas, unquoted keys), every unknown key an error. Paths in
/// it are relative to the file's folder.
extension MonitorConfiguration {
  /// Reads the configuration file at `path` (relative to `currentDirectory`) and checks it all. Each problem is a
  /// `ConfigurationError` naming the file as given and the key path in it (`monitor.json5: channels[2].name`).
  static func load(
    file path: String, currentDirectory: String, checks: FileChecks = .live
  ) throws(ConfigurationError) -> MonitorConfiguration {
    let configuration = try decode(file: path, currentDirectory: currentDirectory)
    try configuration.validate(origin: ConfigurationOrigin(file: path), checks: checks)
    return configuration
  }

  /// Reads and decodes the file at `path` without checking the values, with its paths made absolute.
  /// - Parameter suppliedElsewhere: required keys that may be absent because the command line gives them.
  static func decode(
    file path: String, currentDirectory: String, suppliedElsewhere: Set<CodingKeys> = []
  ) throws(ConfigurationError) -> MonitorConfiguration {
    let absolute = absolutePath(path, in: currentDirectory)
    let data: Data
    do {
      if let problem = FileReadProblem.of(absolute) { throw problem }
      data = try Data(contentsOf: URL(fileURLWithPath: absolute))
    } catch {
      let reason =
        switch error as? FileReadProblem ?? FileReadProblem.of(absolute) ?? .unreadable(errno: EIO) {
        case .missing:
          "no such configuration file; check the path (config/monitor.example.json5 is an example to start from)"
        case .folder: "is a folder; name the configuration file in it, such as \(path)/monitor.json5"
        case .notARegularFile: "is not a regular file (a device, a pipe or a socket); name the configuration file"
        case .unreadable(let code):
          "cannot read the configuration file (\(String(cString: strerror(code)))); let the user running "
            + "broadcast-monitor read it"
        }
      throw ConfigurationError(keyPath: path, reason: reason)
    }
    try ConfigurationError.checkUTF8(data, file: path)
    if let problem = JSON5Scanner.problem(in: data, file: path) { throw problem }
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    decoder.userInfo[Self.suppliedElsewhere] = Set(suppliedElsewhere.map(\.rawValue))
    var configuration: MonitorConfiguration
    do {
      configuration = try decoder.decode(MonitorConfiguration.self, from: data)
    } catch let error as DecodingError {
      throw ConfigurationError(error, file: path, data: data)
    } catch {
      throw ConfigurationError(keyPath: path, reason: "\(error)")
    }
    configuration.makePathsAbsolute(in: (absolute as NSString).deletingLastPathComponent)
    return configuration
  }

  /// `path` itself when it is absolute, otherwise `path` inside `folder`.
  static func absolutePath(_ path: String, in folder: String) -> String {
    guard !path.isEmpty, !path.hasPrefix("/"), !PlayLogLocation.isPostgreSQL(path) else { return path }
    return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: folder, isDirectory: true))
      .standardizedFileURL.path
  }

  /// Makes the catalog, database and file-source paths that are relative absolute, inside `folder`.
  mutating func makePathsAbsolute(in folder: String) {
    catalogPath = Self.absolutePath(catalogPath, in: folder)
    databasePath = Self.absolutePath(databasePath, in: folder)
    spoolDirectory = spoolDirectory.map { Self.absolutePath($0, in: folder) }
    http.tokenFile = http.tokenFile.map { Self.absolutePath($0, in: folder) }
    database.passwordFile = database.passwordFile.map { Self.absolutePath($0, in: folder) }
    unknown.clipsDirectory = unknown.clipsDirectory.map { Self.absolutePath($0, in: folder) }
    for i in channels.indices {
      if case .file(let path, let loop) = channels[i].source {
        channels[i].source = .file(path: Self.absolutePath(path, in: folder), loop: loop)
      }
    }
  }
}
