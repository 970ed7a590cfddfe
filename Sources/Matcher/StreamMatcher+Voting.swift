/// The search for new plays: votes on diagonals, and verification of the diagonals that collect enough of them.
extension StreamMatcher {
  @inline(__always)
  private func diagonal(hypothesis h: Int, anchorFrame: Int32, reference: UInt32) -> Int {
    // Frames and speeds are positive: adding ½ and truncating rounds half away from zero, like `rounded()`.
    Int(reference) - Int(Double(anchorFrame) * hypotheses[h].speed + 0.5)
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
        active[i].add(anchorFrame: anchorFrame, targetFrame: targetFrame, reference: reference, contested: contested)
        return true
      }
    }
    return false
  }

  /// Queues a match that no running play took and votes for its diagonal.
  func search(hypothesis h: Int, anchorFrame: Int32, targetFrame: Int32, reference: UInt32) {
    let d = diagonal(hypothesis: h, anchorFrame: anchorFrame, reference: reference)
    let (a, b) = votes.slots(hypothesis: h, diagonal: d)
    queue.append(
      MatchQueue.Match(anchorFrame: anchorFrame, targetFrame: targetFrame, reference: reference, hypothesis: UInt8(h)),
      cell: a)
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
    while let m = queue.popFirst(if: { $0.anchorFrame < horizon }) {
      if !m.claimed { unvote(m) }
    }
  }

  private func unvote(_ m: MatchQueue.Match) {
    let h = Int(m.hypothesis)
    let d = diagonal(hypothesis: h, anchorFrame: m.anchorFrame, reference: m.reference)
    let (a, b) = votes.slots(hypothesis: h, diagonal: d)
    votes.unvote(a)
    votes.unvote(b)
  }

  func verifyCandidates() {
    guard !candidates.isEmpty else { return }
    var seen = Set<Int>()
    let list = candidates
    candidates.removeAll(keepingCapacity: true)
    for c in list {
      let key = c.hypothesis << 40 ^ (c.diagonal >> 3)
      guard seen.insert(key).inserted else { continue }
      verify(hypothesis: c.hypothesis, diagonal: c.diagonal)
    }
  }

  /// The unclaimed matches of hypothesis `h` within ±12 frames of diagonal `d0` (the cells around it).
  private func gather(hypothesis h: Int, diagonal d0: Int) -> (indices: [UInt32], xs: [Double], ys: [Double]) {
    var indices = [UInt32]()
    var xs = [Double]()
    var ys = [Double]()
    var seenSlots = Set<Int>()
    for cell in ((d0 >> 3) - 2)...((d0 >> 3) + 2) {
      let s = votes.slot(hypothesis: h, cell: cell, grid: 0)
      guard seenSlots.insert(s).inserted else { continue }
      queue.forEachInCell(s) { index, m in
        guard !m.claimed, Int(m.hypothesis) == h else { return }
        guard abs(diagonal(hypothesis: h, anchorFrame: m.anchorFrame, reference: m.reference) - d0) <= 12 else {
          return
        }
        indices.append(index)
        xs.append(Double(m.anchorFrame))
        ys.append(Double(m.reference))
      }
    }
    return (indices, xs, ys)
  }

  /// Matches of hypothesis `h` on the line of its speed through the point (x, y), within `tolerance`.
  private func support(hypothesis h: Int, throughX x: Double, y: Double, tolerance: Double) -> Int {
    let speed = hypotheses[h].speed
    let g = gather(hypothesis: h, diagonal: Int((y - speed * x).rounded()))
    var n = 0
    for i in g.xs.indices where abs(g.ys[i] - (y + speed * (g.xs[i] - x))) <= tolerance { n += 1 }
    return n
  }

  private func verify(hypothesis h0: Int, diagonal d0: Int) {
    var h = h0
    var speed = hypotheses[h].speed
    var (indices, xs, ys) = gather(hypothesis: h, diagonal: d0)
    guard xs.count >= settings.minMatches else { return }
    // Robust line: slope from the hypothesis, intercept from the median residual.
    let tolerance = settings.alignmentToleranceFrames
    var residuals = zip(xs, ys).map { $1 - speed * $0 }
    residuals.sort()
    var alpha = residuals[residuals.count / 2]
    var inliers = (0..<xs.count).filter { abs(ys[$0] - (alpha + speed * xs[$0])) <= tolerance + 1 }
    guard inliers.count >= settings.minMatches else { return }
    // The speed hypothesis that explains this cluster best: near the first matches all slopes pass through the same
    // point, but a wrong speed only matches pairs of close peaks, so the right one has the most support.
    let cx = inliers.reduce(0) { $0 + xs[$1] } / Double(inliers.count)
    let cy = alpha + speed * cx
    var best = inliers.count
    var supports = [Int](repeating: 0, count: hypotheses.count)
    supports[h] = best
    for other in hypotheses.indices where other != h {
      let n = support(hypothesis: other, throughX: cx, y: cy, tolerance: tolerance + 1)
      supports[other] = n
      // On a tie (a young cluster, all slopes through the same point), the speed nearer 1 wins.
      if n > best || (n == best && abs(hypotheses[other].speed - 1) < abs(hypotheses[h].speed - 1)) {
        best = n
        h = other
      }
    }
    // Most broadcasts are not sped up: while the cluster is too young to tell slopes apart (the unmodified
    // hypothesis has nearly the best support), report speed 1; a later refit corrects a small difference. "Nearly"
    // is within 20 % against the next speed step, whose line a young cluster barely tells apart, but within 5 %
    // against a speed further away: a 20 % margin there let a song stretched 4 % settle at speed 1, beyond what a
    // refit of its line corrects, once refined peak times made clusters reach `minMatches` sooner.
    let steps = abs(hypotheses[h].speed - 1) / settings.speedStep
    if let unmodified = hypotheses.firstIndex(where: { $0.speed == 1 && !$0.pitchShifted }),
      h != unmodified, Double(supports[unmodified]) >= (steps < 1.5 ? 0.8 : 0.95) * Double(best)
    {
      h = unmodified
    }
    if h != h0 {
      speed = hypotheses[h].speed
      (indices, xs, ys) = gather(hypothesis: h, diagonal: Int((cy - speed * cx).rounded()))
      alpha = cy - speed * cx
      inliers = (0..<xs.count).filter { abs(ys[$0] - (alpha + speed * xs[$0])) <= tolerance + 1 }
      guard inliers.count >= settings.minMatches else { return }
    }
    // Least squares on the inliers when they spread wide enough to tell the slope.
    var beta = speed
    let n = Double(inliers.count)
    let mx = inliers.reduce(0) { $0 + xs[$1] } / n
    let my = inliers.reduce(0) { $0 + ys[$1] } / n
    let vxx = inliers.reduce(0) { $0 + (xs[$1] - mx) * (xs[$1] - mx) }
    if vxx > 30 * 30 * n {  // a spread of about ±1 s or more
      let slope = inliers.reduce(0) { $0 + (xs[$1] - mx) * (ys[$1] - my) } / vxx
      if abs(slope - speed) <= settings.speedStep { beta = slope }
    }
    alpha = my - beta * mx
    inliers = inliers.filter { abs(ys[$0] - (alpha + beta * xs[$0])) <= tolerance }
    // All on one track, from enough distinct anchors, over a long enough stretch.
    guard inliers.count >= settings.minMatches,
      let trackIndex = catalog.trackIndex(containing: UInt32(max(0, ys[inliers[inliers.count / 2]])))
    else { return }
    let track = catalog.tracks[trackIndex]
    let lo = Double(track.globalStartFrame)
    let hi = Double(track.globalStartFrame + track.frameCount)
    inliers = inliers.filter { ys[$0] >= lo && ys[$0] < hi }
    let snapFrames = (track.audibleStartSeconds + settings.snapToEdgeSeconds) * framesPerSecond
    inliers = droppingLeadingStrays(inliers, xs: xs) { ys[$0] - lo > snapFrames }
    let anchors = Set(inliers.map { xs[$0] })
    guard inliers.count >= settings.minMatches, anchors.count * 3 >= settings.minMatches * 2 else { return }
    let first = Int32(inliers.map { xs[$0] }.min()!)
    let last = inliers.map { queue[indices[$0]].targetFrame }.max()!
    guard Double(last - first) >= settings.minMatchSpanSeconds * framesPerSecond else { return }
    // On a running play's line (matches that came before it started, or its line is still settling)? Then they
    // are that play's: merge, and let the play refit its line.
    let middle = Double(first + last) / 2
    if let i = active.firstIndex(where: {
      $0.trackIndex == trackIndex && abs($0.predictedReference(at: Int32(middle)) - (alpha + beta * middle)) <= 8
    }) {
      claim(inliers.map { indices[$0] }, into: &active[i])
      active[i].refit()
      return
    }
    // A running play stronger over the same stretch means shared material, not a new play: a section repeated
    // within the same track, or a similar track (unless at least an eighth as strong: a crossfade).
    for p in active {
      let rival = p.matchCount(from: first, to: last)
      if p.trackIndex == trackIndex ? rival >= inliers.count : rival >= 8 * inliers.count { return }
    }
    // Stronger than a play of the same track that is young (on a nearby line, or on a line that puts the play's
    // first audio at the track's opening), or whose matches stopped just before this line took over without reaching
    // the track's end (not a back-to-back repeat): that play locked onto a repeated section first; this is its true
    // alignment, and the play keeps its id, its detection time and its row in the play log.
    let now = streamSeconds
    let handOver = Int32(3 * framesPerSecond)
    let opening = (track.audibleStartSeconds - 1)...(track.audibleStartSeconds + settings.snapToEdgeSeconds)
    if let i = active.firstIndex(where: { p in
      guard p.trackIndex == trackIndex else { return false }
      let nearby = abs(p.predictedReference(at: Int32(middle)) - (alpha + beta * middle)) < 10 * framesPerSecond
      // A track whose intro comes back later (Transience: its first seconds again 40 s in) is often first found on
      // the later line; a play that started at the track's opening is the same airing, not a second one.
      let opensTrack = opening.contains(parameters.seconds(ofFrame: alpha + beta * Double(p.firstFrame) - lo))
      let young = now - p.detectedAtSeconds < 20 && (nearby || opensTrack)
      let endReference = p.predictedReference(at: p.lastFrame) - lo
      let beforeEnd = parameters.seconds(ofFrame: endReference) < track.audibleEndSeconds - settings.snapToEdgeSeconds
      return young || (beforeEnd && first - p.lastFrame < handOver)
    }) {
      var play = active[i].realigned(alpha: alpha, beta: beta, firstFrame: first)
      claim(inliers.map { indices[$0] }, into: &play)
      play.alpha = alpha
      play.beta = beta
      active[i] = play
      return
    }
    var play = RunningPlay(
      id: nextPlayID, trackIndex: trackIndex,
      referenceRange: track.globalStartFrame..<(track.globalStartFrame + track.frameCount), alpha: alpha, beta: beta,
      firstFrame: first,
      pitchShifted: hypotheses[h].pitchShifted, detectedAtSeconds: streamSeconds)
    nextPlayID += 1
    claim(inliers.map { indices[$0] }, into: &play)
    play.alpha = alpha
    play.beta = beta
    active.append(play)
    sink?.receive(.playStarted(snapshot(of: play, final: false)))
  }

  /// `inliers` without the early ones that lie more than 2 s before the next, beyond the reach of the reference's
  /// start (`canBeStray`): the play starts at its first sustained matches.
  ///
  /// The vote window remembers 8 s, and a few matches from before a song sit on its line by chance (talk or a jingle
  /// hashing like some reference pair). For a song joined in the middle, no reference edge bounds the start, and the
  /// earliest such match moved it 2–5 s early (9 plays of the `radio` and `hard` simulations, seeds 1–3; 8 of them
  /// now start within 1 s, the ninth 1.1 s early). Near the reference's start, isolated early matches are the
  /// song's own quiet intro, and the play snaps to that start anyway: without that condition, true matches of
  /// quiet intros under heavy noise were dropped and three `hard` plays started 9–11 s late. A 1 s gap instead of
  /// 2 s moved five `hard` plays that were found late anyway a further 1.6–2.3 s late (2 s: two, by 2.3 s).
  private func droppingLeadingStrays(_ inliers: [Int], xs: [Double], canBeStray: (Int) -> Bool) -> [Int] {
    let ordered = inliers.sorted { xs[$0] < xs[$1] }
    var k = 0
    while k + 1 < ordered.count && xs[ordered[k + 1]] - xs[ordered[k]] > 2 * framesPerSecond
      && canBeStray(ordered[k])
    {
      k += 1
    }
    return Array(ordered[k...])
  }

  /// Gives the queued matches to `play`: they are its matches now and no longer vote for others.
  private func claim(_ queueIndices: [UInt32], into play: inout RunningPlay) {
    for index in queueIndices {
      let m = queue[index]
      play.add(anchorFrame: m.anchorFrame, targetFrame: m.targetFrame, reference: m.reference)
      queue[index].claimed = true
      unvote(m)
    }
  }
}
