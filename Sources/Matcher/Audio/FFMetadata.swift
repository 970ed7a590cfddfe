/// Reads ffmpeg's FFMETADATA text (`-f ffmetadata`): a `;FFMETADATA1` line, then `key=value` lines, where `\` escapes
/// `=`, `;`, `#`, `\` and a line break; lines starting with `;` or `#` are comments, `[SECTION]` lines start stream or
/// chapter sections.
enum FFMetadata {
  /// The global `key=value` pairs, keys lower-cased (a later key wins). Sections and comments are skipped, and so is
  /// anything that is not a `key=value` line.
  static func tags(in text: String) -> [String: String] {
    var tags: [String: String] = [:]
    var inSection = false
    var line: [Character] = []
    var escapedAt: Set<Int> = []  // indices in `line` of characters that came escaped
    var escaping = false
    func endLine() {
      defer {
        line.removeAll(keepingCapacity: true)
        escapedAt.removeAll(keepingCapacity: true)
      }
      guard let first = line.first else { return }
      if (first == ";" || first == "#") && !escapedAt.contains(0) { return }
      if first == "[" && !escapedAt.contains(0) {
        inSection = true
        return
      }
      guard !inSection,
        let eq = line.indices.first(where: { line[$0] == "=" && !escapedAt.contains($0) }), eq > 0
      else { return }
      tags[String(line[..<eq]).lowercased()] = String(line[(eq + 1)...])
    }
    for c in text {
      if escaping {
        escapedAt.insert(line.count)
        line.append(c)
        escaping = false
      } else if c == "\\" {
        escaping = true
      } else if c == "\n" || c == "\r\n" {
        endLine()
      } else {
        line.append(c)
      }
    }
    endLine()
    return tags
  }
}
