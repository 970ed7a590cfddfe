import Common
import Foundation
import Testing

@Suite("Strict decoding")
struct StrictDecodingTests {
  @Test("A word that is not one of a setting's cases is refused, naming the word, where it is, and every case")
  func wordNotACase() throws {
    #expect(try JSONDecoder().decode([ItemKind].self, from: Data(#"["song", "jingle"]"#.utf8)) == [.song, .jingle])
    let error = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([ItemKind].self, from: Data(#"["song", "sng"]"#.utf8))
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))")
      return
    }
    #expect(ConfigurationError.keyPath(context.codingPath) == "[1]")
    #expect(context.debugDescription == "`sng` is not one of `song`, `ad`, `jingle`, `other`; use one of them")
  }
}
