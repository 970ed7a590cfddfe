import TestSupport
import Testing

@testable import Matcher

/// `MatchQueue` against a model (an array of the live matches with their cells): random appends (past the ring's
/// capacity, so that it grows), expiries from the front, claims through the subscript and clears must leave every
/// cell walk listing exactly the model's live matches of that cell, newest first.
@Suite("MatchQueue against a model")
struct MatchQueueModelTests {
  struct Entry {
    var absolute: UInt32
    var cell: Int
    var anchorFrame: Int32
    var targetFrame: Int32
    var reference: UInt32
    var hypothesis: UInt8
    var claimed = false
  }

  @Test("Random appends, expiries, claims and clears walk each cell as the model does, newest first")
  func againstModel() {
    let seed = PropertyCheck.seed
    for index in 0..<PropertyCheck.cases(200) {
      var random = PropertyCheck.generator(case: index, seed: seed)
      let origin = PropertyCheck.origin(case: index, seed: seed)
      let cells = [1, 4, 16].randomElement(using: &random)!
      let queue = MatchQueue(cells: cells, capacity: [1, 4, 16].randomElement(using: &random)!)
      var live: [Entry] = []
      var frame: Int32 = 0
      for step in 0..<400 {
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<11:  // a new match; cell numbers beyond `cells` share lists, as the matcher's do
          frame += Int32.random(in: 0...3, using: &random)
          let cell = Int.random(in: 0..<(cells * 2), using: &random)
          let match = MatchQueue.Match(
            anchorFrame: frame, targetFrame: Int32.random(in: 0...100_000, using: &random),
            reference: UInt32.random(in: 0...9, using: &random), hypothesis: UInt8.random(in: 0...4, using: &random),
            slots: (Int.random(in: 0..<64, using: &random), Int.random(in: 0..<64, using: &random)))
          var absolute: UInt32 = 0
          queue.append(match, cell: cell)
          queue.forEachInCell(cell) { i, _ in if absolute == 0 { absolute = i } }  // the newest of its list: itself
          live.append(
            Entry(
              absolute: absolute, cell: cell & (cells - 1), anchorFrame: match.anchorFrame,
              targetFrame: match.targetFrame, reference: match.reference, hypothesis: match.hypothesis))
        case 11..<16:  // expire the matches older than a random frame, oldest first
          let before = frame - Int32.random(in: 0...20, using: &random)
          while let popped = queue.popFirst(if: { $0.anchorFrame < before }) {
            let expected = live.removeFirst()
            #expect(
              popped.anchorFrame == expected.anchorFrame && popped.targetFrame == expected.targetFrame
                && popped.claimed == expected.claimed, "\(origin), step \(step): the oldest match pops")
          }
          #expect(live.first.map { $0.anchorFrame >= before } ?? true, "\(origin), step \(step): stops at a fresh one")
        case 16..<19:  // a play claims a random live match
          guard let pick = live.indices.randomElement(using: &random) else { break }
          queue[live[pick].absolute].claimed = true
          live[pick].claimed = true
        default:
          if Int.random(in: 0..<4, using: &random) == 0 {
            queue.removeAll()
            live.removeAll()
          }
        }
        #expect(queue.count == live.count, "\(origin), step \(step): count")
        for cell in 0..<cells {
          var walked: [Entry] = []
          queue.forEachInCell(cell + cells * Int.random(in: 0...1, using: &random)) { i, m in
            walked.append(
              Entry(
                absolute: i, cell: cell, anchorFrame: m.anchorFrame, targetFrame: m.targetFrame,
                reference: m.reference, hypothesis: m.hypothesis, claimed: m.claimed))
          }
          let expected = live.filter { $0.cell == cell }.reversed()
          #expect(
            walked.map(\.absolute) == expected.map(\.absolute), "\(origin), step \(step): the walk of cell \(cell)")
          #expect(
            zip(walked, expected).allSatisfy {
              $0.anchorFrame == $1.anchorFrame && $0.targetFrame == $1.targetFrame && $0.reference == $1.reference
                && $0.hypothesis == $1.hypothesis && $0.claimed == $1.claimed
            }, "\(origin), step \(step): the matches of cell \(cell)")
        }
      }
    }
  }

  @Test("A walk of several cells gives each live match of their lists once, also when two cells share a list")
  func severalCellsWalkEachListOnce() {
    let seed = PropertyCheck.seed
    for index in 0..<PropertyCheck.cases(200) {
      var random = PropertyCheck.generator(case: index, seed: seed)
      let origin = PropertyCheck.origin(case: index, seed: seed)
      let cells = [1, 4, 16].randomElement(using: &random)!
      let queue = MatchQueue(cells: cells, capacity: 64)
      var listOfMatch: [UInt32: Int] = [:]
      for frame in 0..<Int32.random(in: 0...40, using: &random) {
        let cell = Int.random(in: 0..<(cells * 3), using: &random)
        queue.append(
          MatchQueue.Match(anchorFrame: frame, targetFrame: frame, reference: 0, hypothesis: 0, slots: (cell, cell)),
          cell: cell)
        queue.forEachInCell(cell) { i, _ in if listOfMatch[i] == nil { listOfMatch[i] = cell % cells } }
      }
      // Five cells, as a gathering's radius spans, several of them sharing lists.
      let walkedCells = (0..<5).map { _ in Int.random(in: 0..<(cells * 3), using: &random) }
      var walked: [UInt32] = []
      queue.forEachInCells(walkedCells) { i, _ in walked.append(i) }
      let lists = Set(walkedCells.map { $0 % cells })
      let expected = listOfMatch.filter { lists.contains($0.value) }.keys.sorted()
      #expect(walked.count == Set(walked).count, "\(origin): a match given twice, cells \(walkedCells) of \(cells)")
      #expect(walked.sorted() == expected, "\(origin): cells \(walkedCells) of \(cells)")
    }
  }

  @Test("Expiry removes the matches anchored before its horizon and takes back the votes of the unclaimed ones")
  func expiryTakesBackVotes() {
    let seed = PropertyCheck.seed
    for index in 0..<PropertyCheck.cases(200) {
      var random = PropertyCheck.generator(case: index, seed: seed)
      let origin = PropertyCheck.origin(case: index, seed: seed)
      let slotCount = [4, 64].randomElement(using: &random)!
      let votes = VoteTable(slots: slotCount)
      let queue = MatchQueue(cells: 4, capacity: [1, 4, 16].randomElement(using: &random)!)
      // The model: live matches (slots, claimed) oldest first, and counters that saturate as the table's do.
      var live: [(frame: Int32, slots: (Int, Int), claimed: Bool)] = []
      var counts = [Int](repeating: 0, count: slotCount)
      var frame: Int32 = 0
      for step in 0..<400 {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6:  // a new match votes in its two counters
          frame += Int32.random(in: 0...3, using: &random)
          let slots = (Int.random(in: 0..<slotCount, using: &random), Int.random(in: 0..<slotCount, using: &random))
          queue.append(
            MatchQueue.Match(anchorFrame: frame, targetFrame: frame, reference: 0, hypothesis: 0, slots: slots),
            cell: slots.0)
          _ = votes.vote(slots.0)
          _ = votes.vote(slots.1)
          counts[slots.0] = min(255, counts[slots.0] + 1)
          counts[slots.1] = min(255, counts[slots.1] + 1)
          live.append((frame, slots, false))
        case 6..<8:  // expiry
          let horizon = frame - Int32.random(in: 0...12, using: &random)
          queue.expire(before: horizon, votes: votes)
          while let first = live.first, first.frame < horizon {
            live.removeFirst()
            if !first.claimed {
              counts[first.slots.0] = max(0, counts[first.slots.0] - 1)
              counts[first.slots.1] = max(0, counts[first.slots.1] - 1)
            }
          }
        default:  // a play claims the newest match, whose votes are taken back then (as `claim` does)
          guard let last = live.last, !last.claimed else { break }
          var absolute: UInt32?
          queue.forEachInCell(last.slots.0) { i, _ in if absolute == nil { absolute = i } }  // the newest of its list
          queue[absolute!].claimed = true
          votes.unvote(last.slots.0)
          votes.unvote(last.slots.1)
          counts[last.slots.0] = max(0, counts[last.slots.0] - 1)
          counts[last.slots.1] = max(0, counts[last.slots.1] - 1)
          live[live.count - 1].claimed = true
        }
        #expect(queue.count == live.count, "\(origin), step \(step): the live matches")
        #expect(
          (0..<slotCount).map { votes.votes(in: $0) } == counts, "\(origin), step \(step): every counter as the model")
      }
    }
  }
}
