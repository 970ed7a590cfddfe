/// The name closest to a mistyped word, for "did you mean …?".
enum NearestName {
  /// The name at the smallest edit distance from `word` (a transposition counts as one edit), when it is close
  /// enough to be the one meant: at most 2 edits, and fewer than the word's length.
  static func nearest(to word: String, in names: [String]) -> String? {
    let scored = names.map { (name: $0, distance: distance(word, $0)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
    return best.distance <= 2 && best.distance < word.count ? best.name : nil
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions and transpositions of neighbours.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased())
    let b = Array(b.lowercased())
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }
}
