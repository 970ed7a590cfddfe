/// Verification of the vote cells that collect enough votes: the README's steps 2 and 4 ("The stream matcher"), one
/// function per step, in the order `verify` calls them.
///
/// 1. `gatherCluster`: the unclaimed matches around the cell and a robust line through them.
/// 2. `choosingSpeed`: the speed hypothesis with the most support around the cluster; not asked when the line at the
///    cell's own speed is shared material that a running play explains (`isSharedMaterialAtCellSpeed`).
/// 3. `fittingLine`: least squares on the inliers.
/// 4. `confirmingTrack`: enough aligned matches, from distinct anchors, over a long enough stretch, on one track.
/// 5. `place`: the line joins a running play, yields to a stronger one, takes over a young one, or starts a play.
///
/// Lines are reference frame = alpha + beta × broadcast frame, both axes in frames.
extension StreamMatcher {
  /// The gathered matches of one hypothesis and the line that explains them so far.
  private struct Cluster {
    var hypothesis: Int
    /// Their places in the match queue (`notQueued` for a match of a common hash that did not vote).
    var indices: [UInt32]
    /// Broadcast (anchor) frames.
    var xs: [Double]
    /// Reference frames.
    var ys: [Double]
    /// Target frames (of the pair's second peak).
    var targets: [Int32]
    /// Indices into `xs`/`ys` of the matches on the line.
    var inliers: [Int]
    var alpha: Double
    var beta: Double
  }

  /// The place in the match queue of a gathered match that is not in it (`CommonLookupHistory`).
  private static let notQueued = UInt32.max

  /// A line that passed every check: its inliers on one track, and the stretch of broadcast they span.
  private struct ConfirmedLine {
    var cluster: Cluster
    var trackIndex: Int
    var firstFrame: Int32
    /// The latest target frame of its inliers.
    var lastFrame: Int32
    /// Its inliers that voted: its strength against a running play, as before matches that did not vote were
    /// gathered (those made a distractor's chance line over a young play of another track seem a crossfade).
    var votedCount: Int
  }

  func verifyCandidates() {
    guard !candidates.isEmpty else { return }
    verifiedCells.removeAll()
    let list = candidates
    candidates.removeAll(keepingCapacity: true)
    for c in list {
      let key = c.hypothesis << 40 ^ (c.diagonal >> 3)
      guard verifiedCells.insert(UInt64(bitPattern: Int64(key))) else { continue }
      verify(hypothesis: c.hypothesis, diagonal: c.diagonal)
    }
  }

  private func verify(hypothesis h: Int, diagonal d: Int) {
    guard var cluster = gatherCluster(hypothesis: h, diagonal: d),
      !isSharedMaterialAtCellSpeed(cluster),
      choosingSpeed(&cluster)
    else { return }
    fittingLine(&cluster)
    guard let line = confirmingTrack(cluster) else { return }
    place(line)
  }

  // MARK: Step 1

  /// The unclaimed matches of hypothesis `h` around diagonal `d`, with the hypothesis's slope and the median
  /// residual's intercept (robust to the chance matches among them); nil when too few lie on that line.
  private func gatherCluster(hypothesis h: Int, diagonal d: Int) -> Cluster? {
    let g = gather(hypothesis: h, diagonal: d)
    let (xs, ys) = (g.xs, g.ys)
    guard xs.count >= settings.minMatches else { return nil }
    let speed = hypotheses[h].speed
    var residuals = zip(xs, ys).map { $1 - speed * $0 }
    residuals.sort()
    let alpha = residuals[residuals.count / 2]
    let cluster = Cluster(
      hypothesis: h, indices: g.indices, xs: xs, ys: ys, targets: g.targets,
      inliers: inliers(xs: xs, ys: ys, alpha: alpha, beta: speed, tolerance: looseToleranceFrames), alpha: alpha,
      beta: speed)
    return cluster.inliers.count >= settings.minMatches ? cluster : nil
  }

  /// The unclaimed matches of hypothesis `h` within `MatcherTuning.clusterRadiusFrames` of diagonal `d0`: those that
  /// voted, and the matches of the window's common lookups that did not (`CommonLookupHistory`).
  private func gather(hypothesis h: Int, diagonal d0: Int) -> GatheredMatches {
    var g = GatheredMatches()
    gather(hypothesis: h, diagonal: d0, into: &g)
    return g
  }

  /// `gather(hypothesis:diagonal:)` into `g`, emptied first (its buffers kept).
  private func gather(hypothesis h: Int, diagonal d0: Int, into g: inout GatheredMatches) {
    g.removeAll()
    // The vote slots of the cells within the radius; their lists in the queue are walked once each.
    gatheredSlots.removeAll(keepingCapacity: true)
    let cellRadius = (MatcherTuning.clusterRadiusFrames + VoteTable.cellFrames - 1) / VoteTable.cellFrames
    for cell in ((d0 >> 3) - cellRadius)...((d0 >> 3) + cellRadius) {
      gatheredSlots.append(votes.slot(hypothesis: h, cell: cell, grid: 0))
    }
    queue.forEachInCells(gatheredSlots) { index, m in
      guard !m.claimed, Int(m.hypothesis) == h else { return }
      guard
        abs(diagonal(hypothesis: h, anchorFrame: m.anchorFrame, reference: m.reference) - d0)
          <= MatcherTuning.clusterRadiusFrames
      else { return }
      g.append(index: index, anchorFrame: m.anchorFrame, targetFrame: m.targetFrame, reference: m.reference)
    }
    if agreeingTargetCounter.count(targets: g.targets, anchorFrames: g.xs)
      >= MatcherTuning.minAgreeingTargetsToGatherCommon
    {
      gatherCommonMatches(hypothesis: h, diagonal: d0, into: &g)
    }
  }

  /// Adds to `g` the postings of the window's common lookups under hypothesis `h` within
  /// `MatcherTuning.clusterRadiusFrames` of diagonal `d0`, except matches `g` holds already (those that voted) and
  /// those a running play has taken.
  private func gatherCommonMatches(hypothesis h: Int, diagonal d0: Int, into g: inout GatheredMatches) {
    // The matches `g` holds, by anchor and reference frame (first word) and target frame (second); an approximate
    // one (`MatchQueue.Match.approximate`) also at the frames beside it, where its pair's posting may lie.
    @inline(__always) func key(_ anchorFrame: Int32, _ reference: UInt32) -> UInt64 {
      UInt64(UInt32(bitPattern: anchorFrame)) << 32 | UInt64(reference)
    }
    gatheredMatches.removeAll()
    for i in g.indices.indices {
      let (anchorFrame, reference) = (Int32(g.xs[i]), UInt32(g.ys[i]))
      let target = UInt64(UInt32(bitPattern: g.targets[i]))
      gatheredMatches.insert(key(anchorFrame, reference), target)
      if g.indices[i] != Self.notQueued && queue[g.indices[i]].approximate {
        gatheredMatches.insert(key(anchorFrame, reference &- 1), target)
        gatheredMatches.insert(key(anchorFrame, reference &+ 1), target)
      }
    }
    let radius = MatcherTuning.clusterRadiusFrames
    let tolerance = settings.alignmentToleranceFrames
    gatheringEntries.removeAll(keepingCapacity: true)
    gatheringRequests.removeAll(keepingCapacity: true)
    commonHistory.forEach(hypothesis: h) { e in
      let center = d0 + scaledFrame(hypothesis: h, anchorFrame: e.anchorFrame)
      guard center + radius >= 0 else { return }
      gatheringEntries.append(e)
      gatheringRequests.append(
        PostingRangeRequest(
          hash: e.hash, range: UInt32(clamping: max(0, center - radius))...UInt32(clamping: center + radius)))
    }
    let entries = gatheringEntries
    forEachPosting(inRanges: gatheringRequests) { i, reference in
      let e = entries[i]
      guard
        !active.contains(where: { $0.accepts(anchorFrame: e.anchorFrame, reference: reference, tolerance: tolerance) }),
        gatheredMatches.insert(key(e.anchorFrame, reference), UInt64(UInt32(bitPattern: e.targetFrame)))
      else { return }
      g.append(index: Self.notQueued, anchorFrame: e.anchorFrame, targetFrame: e.targetFrame, reference: reference)
    }
  }

  /// The alignment tolerance while the line's intercept comes from a median and its slope from the hypothesis grid.
  private var looseToleranceFrames: Double {
    settings.alignmentToleranceFrames + MatcherTuning.provisionalLineSlackFrames
  }

  private func inliers(xs: [Double], ys: [Double], alpha: Double, beta: Double, tolerance: Double) -> [Int] {
    (0..<xs.count).filter { abs(ys[$0] - (alpha + beta * xs[$0])) <= tolerance }
  }

  // MARK: Step 2

  /// Whether the cluster's line at the cell's own speed, fitted and confirmed (steps 3 and 4), is shared material that
  /// a running play explains (`isSharedMaterial`), off that play's line: a section of the song on the air that
  /// repeats, whose cell passes every few votes while the song plays (1,518 of the 1,543 lines confirmed in an hour of
  /// `dev-radio-s1` ch01 at 1,000 hours). No speed makes such a line a play, and asking every other speed for its
  /// support was about 70 % of verification's searches.
  private func isSharedMaterialAtCellSpeed(_ cluster: Cluster) -> Bool {
    guard !active.isEmpty else { return false }
    var c = cluster
    fittingLine(&c)
    guard let line = confirmingTrack(c) else { return false }
    return runningPlay(onLineOf: line) == nil && isSharedMaterial(line)
  }

  /// Moves `cluster` to the speed hypothesis that explains it best: near the first matches all slopes pass through
  /// the same point, but a wrong speed only matches pairs of close peaks, so the right one has the most support.
  /// False when the cluster, gathered again under that speed, is too small.
  private func choosingSpeed(_ cluster: inout Cluster) -> Bool {
    let xs = cluster.xs
    let cx = cluster.inliers.reduce(0) { $0 + xs[$1] } / Double(cluster.inliers.count)
    let cy = cluster.alpha + cluster.beta * cx
    let h0 = cluster.hypothesis
    var h = h0
    var best = cluster.inliers.count
    var supports = [Int](repeating: 0, count: hypotheses.count)
    supports[h] = best
    for other in hypotheses.indices where other != h {
      let n = support(hypothesis: other, throughX: cx, y: cy)
      supports[other] = n
      // On a tie (a young cluster, all slopes through the same point), the speed nearer 1 wins.
      if n > best || (n == best && abs(hypotheses[other].speed - 1) < abs(hypotheses[h].speed - 1)) {
        best = n
        h = other
      }
    }
    // Most broadcasts are not sped up: while the cluster is too young to tell slopes apart (the unmodified
    // hypothesis has nearly the best support), report speed 1; a later refit corrects a small difference.
    let steps = abs(hypotheses[h].speed - 1) / settings.speedStep
    if let unmodified = hypotheses.firstIndex(where: { $0.speed == 1 && !$0.pitchShifted }), h != unmodified {
      let margin =
        steps < 1.5 ? MatcherTuning.unmodifiedSpeedShareNextStep : MatcherTuning.unmodifiedSpeedShareFurther
      if Double(supports[unmodified]) >= margin * Double(best) { h = unmodified }
    }
    guard h != h0 else { return true }
    let speed = hypotheses[h].speed
    let g = gather(hypothesis: h, diagonal: Int((cy - speed * cx).rounded()))
    let alpha = cy - speed * cx
    cluster = Cluster(
      hypothesis: h, indices: g.indices, xs: g.xs, ys: g.ys, targets: g.targets,
      inliers: inliers(xs: g.xs, ys: g.ys, alpha: alpha, beta: speed, tolerance: looseToleranceFrames),
      alpha: alpha, beta: speed)
    return cluster.inliers.count >= settings.minMatches
  }

  /// Matches of hypothesis `h` on the line of its speed through the point (x, y).
  private func support(hypothesis h: Int, throughX x: Double, y: Double) -> Int {
    let speed = hypotheses[h].speed
    // Gathered into the matcher's buffers, moved out while in use: a verification asks every other hypothesis.
    var g = GatheredMatches()
    swap(&g, &supportGathering)
    defer { swap(&g, &supportGathering) }
    gather(hypothesis: h, diagonal: Int((y - speed * x).rounded()), into: &g)
    var n = 0
    for i in g.xs.indices where abs(g.ys[i] - (y + speed * (g.xs[i] - x))) <= looseToleranceFrames { n += 1 }
    return n
  }

  // MARK: Step 3

  /// Fits the line by least squares on the inliers (its slope only when they spread wide enough to tell it, and
  /// within a speed step of the hypothesis), then keeps the inliers within the alignment tolerance of it.
  private func fittingLine(_ cluster: inout Cluster) {
    let (xs, ys, inliers) = (cluster.xs, cluster.ys, cluster.inliers)
    let speed = hypotheses[cluster.hypothesis].speed
    var beta = speed
    let n = Double(inliers.count)
    let mx = inliers.reduce(0) { $0 + xs[$1] } / n
    let my = inliers.reduce(0) { $0 + ys[$1] } / n
    let vxx = inliers.reduce(0) { $0 + (xs[$1] - mx) * (xs[$1] - mx) }
    let minSpread = MatcherTuning.slopeFitMinSpreadFrames
    if vxx > minSpread * minSpread * n {
      let slope = inliers.reduce(0) { $0 + (xs[$1] - mx) * (ys[$1] - my) } / vxx
      if abs(slope - speed) <= settings.speedStep { beta = slope }
    }
    let alpha = my - beta * mx
    cluster.alpha = alpha
    cluster.beta = beta
    cluster.inliers = inliers.filter { abs(ys[$0] - (alpha + beta * xs[$0])) <= settings.alignmentToleranceFrames }
  }

  // MARK: Step 4

  /// The line's inliers on the track under their median, without leading strays, if they are at least `minMatches`
  /// from distinct enough anchors (two thirds of `minMatches`) and span `minMatchSpanSeconds`; nil otherwise.
  private func confirmingTrack(_ cluster: Cluster) -> ConfirmedLine? {
    var c = cluster
    let (xs, ys) = (c.xs, c.ys)
    guard c.inliers.count >= settings.minMatches,
      let trackIndex = catalog.trackIndex(containing: UInt32(max(0, ys[c.inliers[c.inliers.count / 2]])))
    else { return nil }
    let track = catalog.tracks[trackIndex]
    let lo = Double(track.globalStartFrame)
    let hi = Double(track.globalStartFrame + track.frameCount)
    c.inliers = c.inliers.filter { ys[$0] >= lo && ys[$0] < hi }
    let snapFrames = (track.audibleStartSeconds + settings.snapToEdgeSeconds) * framesPerSecond
    c.inliers = droppingLeadingStrays(c.inliers, xs: xs) { ys[$0] - lo > snapFrames }
    let inlierAnchors = c.inliers.map { xs[$0] }
    guard c.inliers.count >= settings.minMatches, Set(inlierAnchors).count * 3 >= settings.minMatches * 2 else {
      return nil
    }
    // Matches that did not vote are weaker evidence (`CommonLookupHistory`): a line that counts them needs target
    // peaks that two of its anchors place on it, fewer when its matches are dense, and more matches when they are not.
    let votedCount = c.inliers.count { c.indices[$0] != Self.notQueued }
    let inlierTargets = c.inliers.map { c.targets[$0] }
    let first = Int32(inlierAnchors.min()!)
    let last = inlierTargets.max()!
    if votedCount < c.inliers.count {
      let spanSeconds = Double(last - first) / framesPerSecond
      guard
        MatcherTuning.isDense(lineWithMatches: c.inliers.count, spanningSeconds: spanSeconds)
          || c.inliers.count >= settings.minMatches + MatcherTuning.sparseLineExtraMatches
      else { return nil }
      let needed = MatcherTuning.minAgreeingTargets(ofLineWithMatches: c.inliers.count, spanningSeconds: spanSeconds)
      guard agreeingTargetCounter.count(targets: inlierTargets, anchorFrames: inlierAnchors) >= needed else {
        return nil
      }
    }
    guard Double(last - first) >= settings.minMatchSpanSeconds * framesPerSecond else { return nil }
    return ConfirmedLine(cluster: c, trackIndex: trackIndex, firstFrame: first, lastFrame: last, votedCount: votedCount)
  }

  /// `inliers` without the early ones that lie more than `MatcherTuning.strayGapSeconds` before the next, beyond the
  /// reach of the reference's start (`canBeStray`): the play starts at its first sustained matches.
  private func droppingLeadingStrays(_ inliers: [Int], xs: [Double], canBeStray: (Int) -> Bool) -> [Int] {
    let ordered = inliers.sorted { xs[$0] < xs[$1] }
    var k = 0
    while k + 1 < ordered.count && xs[ordered[k + 1]] - xs[ordered[k]] > MatcherTuning.strayGapSeconds * framesPerSecond
      && canBeStray(ordered[k])
    {
      k += 1
    }
    return Array(ordered[k...])
  }

  // MARK: Step 5

  /// What a confirmed line is: more of a running play, shared material that a stronger play explains, the true
  /// alignment of a play that locked onto a repeated section, or a new play.
  private func place(_ line: ConfirmedLine) {
    let c = line.cluster
    let (alpha, beta) = (c.alpha, c.beta)
    let claimed = c.inliers
    let (first, last) = (line.firstFrame, line.lastFrame)
    let middle = Double(first + last) / 2
    let lineAtMiddle = alpha + beta * middle
    if let i = runningPlay(onLineOf: line) {
      claim(claimed, of: c, into: &active[i])
      active[i].refit()
      return
    }
    if isSharedMaterial(line) || isHeardByAnotherPlay(line) { return }
    if let i = playLockedOntoRepeat(of: line, lineAtMiddle: lineAtMiddle) {
      var play = active[i].realigned(alpha: alpha, beta: beta, firstFrame: first)
      claim(claimed, of: c, into: &play)
      play.alpha = alpha
      play.beta = beta
      active[i] = play
      return
    }
    let track = catalog.tracks[line.trackIndex]
    var play = RunningPlay(
      id: nextPlayID, trackIndex: line.trackIndex,
      referenceRange: track.globalStartFrame..<(track.globalStartFrame + track.frameCount), alpha: alpha, beta: beta,
      firstFrame: first,
      pitchShifted: hypotheses[c.hypothesis].pitchShifted, detectedAtSeconds: streamSeconds)
    nextPlayID += 1
    claim(claimed, of: c, into: &play)
    play.alpha = alpha
    play.beta = beta
    active.append(play)
    sink?.receive(.playStarted(snapshot(of: play, final: false)))
  }

  /// The running play on whose line `line` lies (matches that came before it started, or its line is still
  /// settling): they are that play's, merged into it, and the play refits its line.
  private func runningPlay(onLineOf line: ConfirmedLine) -> Int? {
    let middle = Double(line.firstFrame + line.lastFrame) / 2
    let lineAtMiddle = line.cluster.alpha + line.cluster.beta * middle
    return active.firstIndex {
      $0.trackIndex == line.trackIndex
        && abs($0.predictedReference(at: Int32(middle)) - lineAtMiddle) <= MatcherTuning.sameLineFrames
    }
  }

  /// Whether a running play stronger over the line's stretch explains it as shared material, not a new play: a
  /// section repeated within the same track, or a similar track (unless at least `crossfadeStrengthRatio` times
  /// weaker: a crossfade).
  private func isSharedMaterial(_ line: ConfirmedLine) -> Bool {
    active.contains { p in
      let rival = p.matchCount(from: line.firstFrame, to: line.lastFrame)
      return p.trackIndex == line.trackIndex
        ? rival >= line.votedCount : rival >= MatcherTuning.crossfadeStrengthRatio * line.votedCount
    }
  }

  /// Whether a running play of another track has matched at least `MatcherTuning.minSharedPairShare` of the line's
  /// broadcast pairs already: the line is that play's audio, held by the catalog a second time (at another speed,
  /// which `catalog add` does not catch, or at the same one, added with `--allow-duplicates`), and a play of it
  /// would log the airing twice.
  private func isHeardByAnotherPlay(_ line: ConfirmedLine) -> Bool {
    guard active.contains(where: { $0.trackIndex != line.trackIndex }) else { return false }
    let c = line.cluster
    let keys = c.inliers.map { PlayedPairs.key(anchorFrame: Int32(c.xs[$0]), targetFrame: c.targets[$0]) }
    return active.contains { p in
      guard p.trackIndex != line.trackIndex else { return false }
      return Double(playedPairs.matchedCount(of: keys, byPlay: p.id)) >= MatcherTuning.minSharedPairShare
        * Double(keys.count)
    }
  }

  /// A running play of the same track that this (stronger) line should take over, keeping its id, detection time
  /// and row in the play log: a young play (on a nearby line, or on a line that puts the play's first audio at the
  /// track's opening), one whose matches stopped before this line began at a time this line places inside the track,
  /// or one whose matches stopped just before this line took over without reaching the track's end (not a
  /// back-to-back repeat). That play locked onto a repeated section first; this is its true alignment.
  private func playLockedOntoRepeat(of line: ConfirmedLine, lineAtMiddle: Double) -> Int? {
    let (alpha, beta) = (line.cluster.alpha, line.cluster.beta)
    let middle = Double(line.firstFrame + line.lastFrame) / 2
    let track = catalog.tracks[line.trackIndex]
    let lo = Double(track.globalStartFrame)
    let now = streamSeconds
    let handOver = Int32(MatcherTuning.handOverSeconds * framesPerSecond)
    let opening = (track.audibleStartSeconds - 1)...(track.audibleStartSeconds + settings.snapToEdgeSeconds)
    return active.firstIndex { p in
      guard p.trackIndex == line.trackIndex else { return false }
      let nearby =
        abs(p.predictedReference(at: Int32(middle)) - lineAtMiddle)
        < MatcherTuning.nearbyLineSeconds * framesPerSecond
      // A track whose intro comes back later (Transience: its first seconds again 40 s in) is often first found on
      // the later line; a play that started at the track's opening is the same airing, not a second one.
      let opensTrack = opening.contains(parameters.seconds(ofFrame: alpha + beta * Double(p.firstFrame) - lo))
      // A running play whose matches stopped before this line began, at a time this line places inside the track, was
      // a repeated section of this airing, not an airing of its own, however long ago it was found: Internal
      // Degeneration on `hard` s1 at 100 h (6.6 s on a section 145 s in, then the true line, 22.9 s in, 3.3 s later);
      // Underground on `hard` s4 at 100 h and 1,000 h (8.5 s on a section 20 s further in, found 21 s before the
      // true line).
      let withinAiring =
        p.lastFrame <= line.firstFrame
        && parameters.seconds(ofFrame: alpha + beta * Double(p.firstFrame) - lo) >= track.audibleStartSeconds - 1
      let young = now - p.detectedAtSeconds < MatcherTuning.youngPlaySeconds && (nearby || opensTrack)
      let endReference = p.predictedReference(at: p.lastFrame) - lo
      let beforeEnd = parameters.seconds(ofFrame: endReference) < track.audibleEndSeconds - settings.snapToEdgeSeconds
      return young || withinAiring || (beforeEnd && line.firstFrame - p.lastFrame < handOver)
    }
  }

  /// Gives the cluster's matches `inliers` to `play`: they are its matches now, and those that voted no longer vote for
  /// others.
  private func claim(_ inliers: [Int], of cluster: Cluster, into play: inout RunningPlay) {
    for i in inliers {
      let index = cluster.indices[i]
      guard index != Self.notQueued else {
        play.add(
          anchorFrame: Int32(cluster.xs[i]), targetFrame: cluster.targets[i], reference: UInt32(cluster.ys[i]))
        playedPairs.record(playID: play.id, anchorFrame: Int32(cluster.xs[i]), targetFrame: cluster.targets[i])
        continue
      }
      let m = queue[index]
      play.add(anchorFrame: m.anchorFrame, targetFrame: m.targetFrame, reference: m.reference)
      playedPairs.record(playID: play.id, anchorFrame: m.anchorFrame, targetFrame: m.targetFrame)
      queue[index].claimed = true
      unvote(m)
    }
  }
}
