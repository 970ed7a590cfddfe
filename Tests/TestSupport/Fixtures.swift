import Foundation

/// The files in `Tests/Fixtures`, found from this source file's path so that tests run from any folder.
public enum Fixtures {
  /// `Tests/Fixtures`.
  public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures", isDirectory: true)

  /// The package's root folder (where `Package.swift` is).
  public static let packageRoot = root.deletingLastPathComponent().deletingLastPathComponent()

  /// A file in `Tests/Fixtures/music` (Ogg Vorbis excerpts, 22.05 kHz mono, and `tracks.csv`).
  public static func music(_ name: String) -> URL {
    root.appendingPathComponent("music", isDirectory: true).appendingPathComponent(name)
  }

  /// The metadata of `tracks.csv`, by file name, as the test expects it (title, artist, ISRC).
  public static let musicTracks: [String: (title: String, artist: String, isrc: String)] = [
    "catalog-a.ogg": ("Armygeddon", "Muldjord", "ZZBMF2600001"),
    "catalog-b.ogg": ("Chaos God", "Muldjord", "ZZBMF2600002"),
    "catalog-c.ogg": ("Internal Degeneration", "Muldjord", "ZZBMF2600003"),
  ]
}
