import Foundation
import Matcher
import TestSupport
import Testing

@Suite("UnknownClusters")
struct UnknownClustersTests {
  static let songA = SyntheticSong(seed: 11, seconds: 120).render()
  static let songB = SyntheticSong(seed: 12, seconds: 120).render()

  /// The query signature of `samples[from..<to]` (seconds), as the air watch makes it from the matcher's peaks.
  static func query(_ samples: [Float], from: Double, to: Double) throws -> Signature {
    let generator = SignatureGenerator(purpose: .query)
    try generator.append(Array(samples[Int(from * 8000)..<Int(to * 8000)]), sampleRate: 8000)
    return generator.signature()
  }

  @Test("A repeat joins its cluster at its offset; another recording starts a cluster")
  func repeats() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    let first = clusters.assign(try Self.query(Self.songA, from: 0, to: 60))
    #expect(first.cluster == 1 && !first.joined && first.offsetSeconds == 0)
    let again = clusters.assign(try Self.query(Self.songA, from: 30, to: 100))
    #expect(again.cluster == 1 && again.joined)
    #expect(abs(again.offsetSeconds - 30) < 0.5, "offset \(again.offsetSeconds)")
    let other = clusters.assign(try Self.query(Self.songB, from: 10, to: 70))
    #expect(other.cluster == 2 && !other.joined)
    #expect(clusters.segmentCount == 3)
  }

  @Test("A repeat played 4 % fast or 5 % slow joins its cluster")
  func speed() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    _ = clusters.assign(try Self.query(Self.songA, from: 0, to: 100))
    for speed in [1.04, 0.95] {
      let changed = SpeedChange.resample(Array(Self.songA[0..<(90 * 8000)]), speed: speed)
      let assignment = clusters.assign(try Self.query(changed, from: 5, to: 60))
      #expect(assignment.cluster == 1 && assignment.joined, "speed \(speed)")
    }
  }

  @Test("A repeat joins the cluster of a later airing that overlaps it, at the offset in the first airing")
  func chained() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    _ = clusters.assign(try Self.query(Self.songA, from: 0, to: 50))
    let middle = clusters.assign(try Self.query(Self.songA, from: 30, to: 90))
    let last = clusters.assign(try Self.query(Self.songA, from: 70, to: 115))
    #expect(middle.cluster == 1 && last.cluster == 1)
    #expect(abs(last.offsetSeconds - 70) < 0.5, "offset \(last.offsetSeconds)")
  }

  @Test("Clusters restored from the stored references take repeats as before, and new clusters follow the last")
  func restore() throws {
    let before = UnknownClusters(parameters: FingerprintParameters())
    let a = before.assign(try Self.query(Self.songA, from: 0, to: 60))
    let b = before.assign(try Self.query(Self.songB, from: 0, to: 60))
    let stored = [a, b].map { ($0.reference, $0.cluster, $0.offsetSeconds) }
    let after = UnknownClusters(parameters: FingerprintParameters())
    try after.restore(stored)
    #expect(after.segmentCount == 2)
    let repeatB = after.assign(try Self.query(Self.songB, from: 20, to: 80))
    #expect(repeatB.cluster == b.cluster && repeatB.joined)
    let fresh = after.assign(try Self.query(SyntheticSong(seed: 13, seconds: 60).render(), from: 0, to: 50))
    #expect(fresh.cluster == 3 && !fresh.joined)
  }

  @Test("Two songs heard before, aired back to back, are cut between them, each part in its own cluster")
  func backToBack() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    let a = clusters.assign(try Self.query(Self.songA, from: 0, to: 100))
    let b = clusters.assign(try Self.query(Self.songB, from: 0, to: 100))
    let segue = Array(Self.songA[(20 * 8000)..<(80 * 8000)] + Self.songB[0..<(50 * 8000)])
    let parts = clusters.assignParts(try Self.query(segue, from: 0, to: 110))
    #expect(parts.map(\.assignment.cluster) == [a.cluster, b.cluster])
    #expect(parts.first?.startSeconds == 0 && abs((parts.last?.endSeconds ?? 0) - 110) < 0.1)
    #expect(abs((parts.first?.endSeconds ?? 0) - 60) < 5, "cut at \(parts.first?.endSeconds ?? 0) s")
    #expect(parts.first?.endSeconds == parts.last?.startSeconds)
    #expect(abs((parts.first?.assignment.offsetSeconds ?? 0) - 20) < 0.5)
    #expect(abs((parts.last?.assignment.offsetSeconds ?? 0) - 0) < 0.5)
    // Each part is indexed on its own: song B's excerpt alone joins B's cluster.
    #expect(clusters.segmentCount == 4)
    #expect(clusters.assign(try Self.query(segue, from: 65, to: 105)).cluster == b.cluster)
  }

  @Test("A segment one cluster matches in part (an airing cut short or joined late) stays whole")
  func partialRepeatStaysWhole() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    let a = clusters.assign(try Self.query(Self.songA, from: 40, to: 80))
    let parts = clusters.assignParts(try Self.query(Self.songA, from: 0, to: 119))
    #expect(parts.count == 1)
    #expect(parts.first?.assignment.cluster == a.cluster && parts.first?.assignment.joined == true)
    #expect(abs((parts.first?.assignment.offsetSeconds ?? 0) + 40) < 0.5)
  }

  /// Where a segment aired, `seconds` into the test's day.
  static func origin(_ seconds: Double) -> UnknownSegmentOrigin {
    UnknownSegmentOrigin(channel: "fm1", start: Date(timeIntervalSince1970: 1_700_000_000 + seconds))
  }

  /// Two songs first heard back to back (one segment, 200 s), then the second alone, then the first alone.
  static func segueThenEach(
    _ clusters: UnknownClusters
  ) throws -> (
    segue: UnknownClusters.Assignment, b: UnknownClusters.Assignment, a: UnknownClusters.Assignment,
    revisions: [UnknownClusters.Revision]
  ) {
    let segue = Array(songA[0..<(100 * 8000)] + songB[0..<(100 * 8000)])
    let first = clusters.assignParts(try query(segue, from: 0, to: 200)) { origin(1000 + $0) }
    let b = clusters.assignParts(try query(songB, from: 0, to: 100)) { origin(2000 + $0) }
    let a = clusters.assignParts(try query(songA, from: 0, to: 100)) { origin(3000 + $0) }
    #expect(first.parts.count == 1 && b.parts.count == 1 && a.parts.count == 1)
    return (
      first.parts[0].assignment, b.parts[0].assignment, a.parts[0].assignment,
      first.revisions + b.revisions + a.revisions
    )
  }

  @Test(
    "Two songs first heard back to back, then each alone: the first segment is cut where the second starts, each part in its song's cluster"
  )
  func retroactiveSplit() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    let (segue, b, a, revisions) = try Self.segueThenEach(clusters)
    // B alone joined the segue's cluster; A alone ends where B started there: the segue is cut, B moves.
    #expect(b.cluster == segue.cluster && a.cluster == segue.cluster)
    let cut = try #require(revisions.first { $0.origin == Self.origin(1000) }?.tail)
    #expect(abs(cut.startSeconds - 100) < 5, "cut at \(cut.startSeconds) s")
    let byOrigin = clusters.clustersByOrigin
    let segueTail = Self.origin(1000).advanced(bySeconds: cut.startSeconds)
    #expect(byOrigin[Self.origin(1000)] == segue.cluster)
    #expect(byOrigin[Self.origin(3000)] == segue.cluster)
    #expect(byOrigin[segueTail] == cut.cluster && byOrigin[Self.origin(2000)] == cut.cluster)
    #expect(cut.cluster != segue.cluster)
    #expect(revisions.first { $0.origin == Self.origin(2000) }?.cluster == cut.cluster)
    // Further airings of either song join their own cluster.
    #expect(clusters.assign(try Self.query(Self.songB, from: 20, to: 90)).cluster == cut.cluster)
    #expect(clusters.assign(try Self.query(Self.songA, from: 10, to: 80)).cluster == segue.cluster)
  }

  @Test("A cluster promoted to the catalog is never split")
  func promotedNeverSplit() throws {
    let before = UnknownClusters(parameters: FingerprintParameters())
    let segue = Array(Self.songA[0..<(100 * 8000)] + Self.songB[0..<(100 * 8000)])
    let first = before.assign(try Self.query(segue, from: 0, to: 200))
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    try clusters.restore([
      UnknownClusters.Restored(
        reference: first.reference, cluster: first.cluster, offsetSeconds: 0, origin: Self.origin(1000),
        promoted: true)
    ])
    let b = clusters.assignParts(try Self.query(Self.songB, from: 0, to: 100)) { Self.origin(2000 + $0) }
    let a = clusters.assignParts(try Self.query(Self.songA, from: 0, to: 100)) { Self.origin(3000 + $0) }
    #expect(b.revisions.isEmpty && a.revisions.isEmpty)
    #expect(Set(clusters.clustersByOrigin.values) == [first.cluster])
  }

  @Test("Airings of one song joined at different points, or cut short, split nothing")
  func partialAiringsSplitNothing() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    let first = clusters.assign(try Self.query(Self.songA, from: 0, to: 119))
    for (i, span) in [(35.0, 119.0), (0.0, 70.0), (50.0, 119.0), (0.0, 90.0)].enumerated() {
      let placed = clusters.assignParts(try Self.query(Self.songA, from: span.0, to: span.1)) {
        Self.origin(Double(i) * 1000 + $0)
      }
      #expect(placed.revisions.isEmpty, "\(span)")
      #expect(placed.parts.map(\.assignment.cluster) == [first.cluster], "\(span)")
    }
  }

  @Test(
    "A radio edit that starts later than the first airing's version splits the intro off once aired twice; each part stays pure"
  )
  func radioEditSplitsIntro() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    let album = clusters.assignParts(try Self.query(Self.songA, from: 0, to: 119)) { Self.origin($0) }
    let edit = clusters.assignParts(try Self.query(Self.songA, from: 35, to: 119)) { Self.origin(1000 + $0) }
    #expect(edit.revisions.isEmpty, "one airing joined late splits nothing")
    let again = clusters.assignParts(try Self.query(Self.songA, from: 35, to: 119)) { Self.origin(2000 + $0) }
    let cut = try #require(again.revisions.first { $0.origin == Self.origin(0) }?.tail)
    #expect(abs(cut.startSeconds - 35) < 4, "cut at \(cut.startSeconds) s")
    let rest = cut.cluster
    #expect(again.parts.map(\.assignment.cluster) == [rest])
    #expect(clusters.clustersByOrigin[Self.origin(1000)] == rest)
    // The album version aired again is two segments from then on: its intro and the rest, in the two clusters.
    let later = clusters.assignParts(try Self.query(Self.songA, from: 0, to: 119)) { Self.origin(3000 + $0) }
    #expect(later.parts.map(\.assignment.cluster) == [album.parts[0].assignment.cluster, rest])
  }

  @Test("The search holds three airings of each stretch; later airings still join their cluster at their offsets")
  func searchHoldsAFewAirings() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    var restored: [UnknownClusters.Restored] = []
    for airing in 0..<6 {
      let placed = clusters.assign(try Self.query(Self.songA, from: 0, to: 119))
      #expect(placed.cluster == 1 && abs(placed.offsetSeconds) < 0.5, "airing \(airing): \(placed.offsetSeconds)")
      restored.append(
        UnknownClusters.Restored(
          reference: placed.reference, cluster: placed.cluster, offsetSeconds: placed.offsetSeconds,
          origin: Self.origin(Double(airing) * 1000), promoted: false))
    }
    #expect(clusters.segmentCount == 6)
    #expect(clusters.searchedCount == 3)
    #expect(abs(clusters.assign(try Self.query(Self.songA, from: 30, to: 90)).offsetSeconds - 30) < 0.5)
    // An airing that runs 30 s past what the others cover (into another recording) is searched too.
    let longer = clusters.assign(try Self.query(Self.songA + Self.songB, from: 60, to: 150))
    #expect(longer.cluster == 1 && clusters.searchedCount == 4)
    // A start rebuilds the same search from the play log.
    let again = UnknownClusters(parameters: FingerprintParameters())
    try again.restore(restored)
    #expect(again.segmentCount == 6 && again.searchedCount == 3)
    #expect(again.assign(try Self.query(Self.songA, from: 30, to: 90)).cluster == 1)
  }

  @Test("A split cuts airings the search does not hold as it cuts those it holds: the revisions of every airing held")
  func splitRevisesUnsearchedAirings() throws {
    func revisions(searchedAiringsPerStretch: Int) throws -> (revisions: [String], searched: Int) {
      let clusters = UnknownClusters(
        parameters: FingerprintParameters(), searchedAiringsPerStretch: searchedAiringsPerStretch)
      let segue = Array(Self.songA[0..<(100 * 8000)] + Self.songB[0..<(100 * 8000)])
      var all: [UnknownClusters.Revision] = []
      let segueQuery = try Self.query(segue, from: 0, to: 200)
      for airing in 0..<4 {
        all += clusters.assignParts(segueQuery) { Self.origin(Double(airing) * 500 + $0) }.revisions
      }
      all += clusters.assignParts(try Self.query(Self.songB, from: 0, to: 100)) { Self.origin(5000 + $0) }.revisions
      all += clusters.assignParts(try Self.query(Self.songA, from: 0, to: 100)) { Self.origin(6000 + $0) }.revisions
      let searched = clusters.searchedCount
      return (
        all.map { r in
          "\(r.origin.start.timeIntervalSince1970) cluster \(r.cluster) "
            + (r.tail.map { "cut at \(Int($0.startSeconds.rounded())) s, rest in cluster \($0.cluster)" } ?? "moved")
        }.sorted(), searched
      )
    }
    let bounded = try revisions(searchedAiringsPerStretch: 3)
    let every = try revisions(searchedAiringsPerStretch: .max)
    #expect(bounded.searched < every.searched, "\(bounded.searched) of \(every.searched) searched")
    #expect(bounded.revisions.filter { $0.contains("cut at 100 s") }.count == 4, "\(bounded.revisions)")
    #expect(bounded.revisions == every.revisions)
  }

  @Test("Property: over random excerpts of three songs, clusters are pure and complete")
  func property() throws {
    let songs = [Self.songA, Self.songB, SyntheticSong(seed: 14, seconds: 120).render()]
    var generator = SeededGenerator(seed: 5)
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    var clusterOfSong: [Int: Int64] = [:]
    // Each song's first excerpt covers all of it, so that every later excerpt overlaps an earlier one.
    for song in 0..<3 {
      clusterOfSong[song] = clusters.assign(try Self.query(songs[song], from: 0, to: 119)).cluster
    }
    #expect(Set(clusterOfSong.values).count == 3)
    for _ in 0..<9 {
      let song = Int.random(in: 0..<3, using: &generator)
      let start = Double.random(in: 0...80, using: &generator)
      let assignment = clusters.assign(try Self.query(songs[song], from: start, to: start + 30))
      #expect(assignment.cluster == clusterOfSong[song], "song \(song) from \(start) s")
      #expect(abs(assignment.offsetSeconds - start) < 0.5)
    }
  }
}
