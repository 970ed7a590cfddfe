import Common
import Foundation

extension MatcherSettings {
  /// Reads settings from a JSON file (JSON5: comments and trailing commas allowed). Missing keys keep their
  /// defaults; an unknown key, a key written twice, a wrong type or an impossible value is a `ConfigurationError` naming the key.
  public init(contentsOf url: URL) throws(ConfigurationError) {
    let data: Data
    do {
      if let problem = FileReadProblem.of(url.path) { throw problem }
      data = try Data(contentsOf: url)
    } catch {
      let problem = error as? FileReadProblem ?? FileReadProblem.of(url.path) ?? .unreadable(errno: EIO)
      throw ConfigurationError(
        keyPath: url.path,
        reason: "\(problem); name a matcher settings file (JSON5, as config/matcher-settings.json5)"
          + (problem.isPermission ? " that the user running broadcast-monitor may read" : ""))
    }
    try ConfigurationError.checkUTF8(data, file: url.path)
    if let problem = JSON5Scanner.problem(in: data, file: url.path) { throw problem }
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    do {
      self = try decoder.decode(MatcherSettings.self, from: data)
    } catch let error as DecodingError {
      throw ConfigurationError(error, file: url.path, data: data)
    } catch {
      throw ConfigurationError(keyPath: url.path, reason: "\(error)")
    }
    try validate()
  }
}
