/// The search for new plays: matches vote on diagonals; a cell that collects enough votes becomes a candidate for
/// verification (`StreamMatcher+Verification`).
extension StreamMatcher {
  @inline(__always)
  func diagonal(hypothesis h: Int, anchorFrame: Int32, reference: UInt32) -> Int {
    Int(reference) - scaledFrame(hypothesis: h, anchorFrame: anchorFrame)
  }

  /// A broadcast frame on the reference's scale under hypothesis `h`: a match's reference frame minus this is its
  /// diagonal.
  @inline(__always)
  func scaledFrame(hypothesis h: Int, anchorFrame: Int32) -> Int {
    // Frames and speeds are positive: adding ½ and truncating rounds half away from zero, like `rounded()`.
    Int(Double(anchorFrame) * hypotheses[h].speed + 0.5)
  }

  /// A match of the broadcast: taken by the running play on whose line it lies, or else searched for a new play.
  func addMatch(hypothesis h: Int, anchorFrame: Int32, targetFrame: Int32, reference: UInt32) {
    if offerToPlays(anchorFrame: anchorFrame, targetFrame: targetFrame, reference: reference) { return }
    search(hypothesis: h, anchorFrame: anchorFrame, targetFrame: targetFrame, reference: reference)
  }

  /// Gives a match to the running play on whose line it lies; false when none takes it.
  @inline(__always)
  func offerToPlays(anchorFrame: Int32, targetFrame: Int32, reference: UInt32) -> Bool {
    for i in active.indices {
      if active[i].accepts(anchorFrame: anchorFrame, reference: reference, tolerance: settings.alignmentToleranceFrames)
      {
        // Contested: another track's play is sustained more than a second past this one's support (the next song).
        let track = active[i].trackIndex
        let supportedUntil = active[i].lastFrame + RunningPlay.bucketFrames
        let contested = active.contains { $0.trackIndex != track && $0.lastFrame > supportedUntil }
        active[i].add(
          anchorFrame: anchorFrame, targetFrame: targetFrame, reference: reference, contested: contested,
          heldAfterFrames: maxGapFrames)
        playedPairs.record(playID: active[i].id, anchorFrame: anchorFrame, targetFrame: targetFrame)
        return true
      }
    }
    return false
  }

  /// Queues a match that no running play took and votes for its diagonal.
  func search(hypothesis h: Int, anchorFrame: Int32, targetFrame: Int32, reference: UInt32) {
    let d = diagonal(hypothesis: h, anchorFrame: anchorFrame, reference: reference)
    search(
      hypothesis: h, anchorFrame: anchorFrame, targetFrame: targetFrame, reference: reference, diagonal: d,
      slots: votes.slots(hypothesis: h, diagonal: d))
  }

  /// `search`, given the match's diagonal `d` and its vote counters (`VoteTable.slots`); `approximate` when its
  /// reference frame is known to within a frame only (`MatchQueue.Match.approximate`).
  @inline(__always)
  func search(
    hypothesis h: Int, anchorFrame: Int32, targetFrame: Int32, reference: UInt32, diagonal d: Int, slots: (Int, Int),
    approximate: Bool = false
  ) {
    let (a, b) = slots
    var m = MatchQueue.Match(
      anchorFrame: anchorFrame, targetFrame: targetFrame, reference: reference, hypothesis: UInt8(h), slots: slots)
    m.approximate = approximate
    queue.append(m, cell: a)
    let triggeredA = isTimeToVerify(votes: votes.vote(a))
    let triggeredB = isTimeToVerify(votes: votes.vote(b))
    if triggeredA || triggeredB { candidates.append((h, d)) }
  }

  /// True when a cell reaches `minVotes`, and every `MatcherTuning.reverifyEveryVotes` votes after.
  @inline(__always)
  private func isTimeToVerify(votes v: Int) -> Bool {
    v >= settings.minVotes && (v - settings.minVotes) % MatcherTuning.reverifyEveryVotes == 0
  }

  func expireVotes() {
    let horizon = newestFrame - windowFrames
    queue.expire(before: horizon, votes: votes)
    commonHistory.expire(before: horizon)
  }

  func unvote(_ m: MatchQueue.Match) {
    votes.unvote(Int(m.firstSlot))
    votes.unvote(Int(m.secondSlot))
  }
}
