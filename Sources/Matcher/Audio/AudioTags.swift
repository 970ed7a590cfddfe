import Common
import Foundation

/// Tags read from an audio file with ffprobe (title, artist, album, ISRC, label), for a catalog without a metadata
/// CSV. Any thread.
public enum AudioTags {
  /// The file's tags, lower-cased keys; empty when ffprobe is missing or the file has none.
  public static func read(path: String) -> [String: String] {
    guard
      let output = FFmpegProcess.output(
        of: "ffprobe", arguments: ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", path])
    else { return [:] }
    struct Probe: Decodable {
      struct Tagged: Decodable { var tags: [String: String]? }
      var format: Tagged?
      var streams: [Tagged]?
    }
    guard let probe = try? JSONDecoder().decode(Probe.self, from: Data(output)) else { return [:] }
    var tags: [String: String] = [:]
    for t in (probe.streams ?? []).compactMap(\.tags) + [probe.format?.tags].compactMap({ $0 }) {
      for (k, v) in t { tags[k.lowercased()] = v }
    }
    return tags
  }

  /// Metadata from the file's tags, with the file name as the title when there is no title tag.
  public static func metadata(path: String) -> TrackMetadata {
    metadata(tags: read(path: path), path: path)
  }

  /// Metadata from tags already read (lower-cased keys, as `read` gives them) of the file at `path`.
  public static func metadata(tags: [String: String], path: String) -> TrackMetadata {
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    return TrackMetadata(
      title: tags["title"].flatMap { $0.isEmpty ? nil : $0 } ?? name, artist: tags["artist"] ?? "",
      album: tags["album"] ?? "", isrc: (tags["isrc"] ?? tags["tsrc"] ?? "").uppercased(),
      label: tags["label"] ?? tags["publisher"] ?? tags["organization"] ?? "")
  }
}
