/// Running plays: progress reports, ends, and the times reported for them.
extension StreamMatcher {
  func advancePlays() {
    let now = streamSeconds
    var ended = [Int]()
    for i in active.indices {
      if newestFrame - active[i].lastFrame > maxGapFrames && !mayResume(active[i]) {
        ended.append(i)
      } else if now - active[i].lastReportedSeconds >= settings.progressIntervalSeconds
        && active[i].lastFrame != active[i].lastReportedLastFrame
      {
        judgeOpening(of: &active[i])
        active[i].lastReportedSeconds = now
        active[i].lastReportedLastFrame = active[i].lastFrame
        sink?.receive(.playContinues(snapshot(of: active[i], final: false)))
      }
    }
    for i in ended.reversed() {
      let play = active.remove(at: i)
      end(play)
    }
  }

  /// Whether a play whose matches stopped more than `maxGapSeconds` ago is kept running, so that matches that come back
  /// on its line extend it instead of starting a second play of the same airing: noise, a dropout or a long
  /// voice-over can hide a song for a minute. It is kept while its line has been silent for at most
  /// `MatcherTuning.maxSilentLineSeconds`, the line still lies inside the track now (the song could still be on the
  /// air), and no other play has gone on past its last support (the next item, or the track again, is on the air).
  /// A young play of the same track (`MatcherTuning.youngPlaySeconds`) does not count: it may be a repeated section
  /// that the track's true line takes over, and that line must still find this play to take it over as well when it
  /// places its audio inside the track (`playLockedOntoRepeat`), or the airing is logged twice.
  func mayResume(_ play: RunningPlay) -> Bool {
    let silentFrames = Double(newestFrame - play.lastFrame)
    guard silentFrames <= MatcherTuning.maxSilentLineSeconds * framesPerSecond else { return false }
    let track = catalog.tracks[play.trackIndex]
    let referenceNow = parameters.seconds(
      ofFrame: play.predictedReference(at: newestFrame) - Double(track.globalStartFrame))
    guard referenceNow < track.audibleEndSeconds else { return false }
    let supportedUntil = play.lastFrame + RunningPlay.bucketFrames
    let now = streamSeconds
    return !active.contains {
      $0.id != play.id && $0.lastFrame > supportedUntil
        && !($0.trackIndex == play.trackIndex && now - $0.detectedAtSeconds < MatcherTuning.youngPlaySeconds)
    }
  }

  func end(_ ending: RunningPlay) {
    var play = ending
    judgeOpening(of: &play)
    playedPairs.forget(playID: play.id)
    let dominated = (active + recentlyEnded).contains { isDominated(play, by: $0) }
    let final = snapshot(of: play, final: true)
    sink?.receive(dominated ? .playRetracted(final) : .playEnded(final))
    if !dominated {
      recentlyEnded.append(play)
      if recentlyEnded.count > 8 { recentlyEnded.removeFirst() }
    }
  }

  /// Whether `play` is a repeated section of the same track that `other` explains: `other`'s span holds all of
  /// `play`'s matches and `other` has at least twice as many, or `other` overlaps most of it matching at four times its
  /// rate or more. Back-to-back airings of a track follow each other and overlap by a crossfade at most, so they never
  /// explain each other.
  func isDominated(_ play: RunningPlay, by other: RunningPlay) -> Bool {
    guard other.id != play.id, other.trackIndex == play.trackIndex else { return false }
    if other.matchCount >= 2 * play.matchCount {
      // `other`'s span as reported (extended to the reference's edges), within a second, against `play`'s matches:
      // `play`'s own extension follows its own line, which for a section near the track's end runs past the airing's
      // end by as much as the section is shifted (in `bench/chaos.py`, 1 s of matches 4 s of reference behind a
      // play's line, 9 s before the track's end, was reported 3.8 s past the airing's end, as a second play of it).
      let o = snapshot(of: other, final: true)
      let matchedFrom = seconds(ofFrame: Double(play.firstFrame))
      let matchedTo = seconds(ofFrame: Double(play.lastFrame))
      if matchedFrom >= o.startSeconds - 1 && matchedTo <= o.endSeconds + 1 { return true }
    }
    let span = Double(max(1, play.lastFrame - play.firstFrame))
    let overlap = Double(min(play.lastFrame, other.lastFrame) - max(play.firstFrame, other.firstFrame))
    guard overlap >= 0.5 * span else { return false }
    let rate = Double(play.matchCount) / span
    let otherRate = Double(other.matchCount) / Double(max(1, other.lastFrame - other.firstFrame))
    return otherRate >= 4 * rate
  }

  /// The play as reported: times in stream seconds, start and end extended to the reference's audible edges when the
  /// first or last match is close to them.
  func snapshot(of play: RunningPlay, final: Bool) -> MatchedPlay {
    let track = catalog.tracks[play.trackIndex]
    let p = parameters

    let firstFrame = Double(play.firstFrame)
    let lastFrame = Double(play.lastFrame)
    let startFrame = self.startFrame(of: play)
    let endFrame = self.endFrame(of: play, final: final)
    let origin = seconds(ofFrame: 0) - p.seconds(ofFrame: 0)
    let start = max(origin, seconds(ofFrame: startFrame))
    let end = min(streamSeconds, max(start, seconds(ofFrame: endFrame)))
    let referenceSpan = max(1, (lastFrame - firstFrame) * play.beta / framesPerSecond)
    let density = Double(track.hashCount) / max(1, track.durationSeconds)
    return MatchedPlay(
      id: play.id, track: track, startSeconds: start, endSeconds: end,
      referenceOffsetSeconds: max(0, referenceSeconds(on: play, atFrame: frame(atStreamSeconds: start))),
      speed: play.beta, pitchShifted: play.pitchShifted,
      confidence: min(1, Double(play.matchCount) / (density * referenceSpan)),
      detectedAtSeconds: play.detectedAtSeconds, matchCount: play.matchCount)
  }

  /// The broadcast frame where `play` is reported to start: its first match, or the track's audible start when the
  /// first match maps within `edgeSnap` of it (within `noisyOpeningSnapSeconds` when the opening was masked).
  func startFrame(of play: RunningPlay) -> Double {
    let track = catalog.tracks[play.trackIndex]
    let firstFrame = Double(play.firstFrame)
    let snap = edgeSnap(of: track)
    let startSnap = play.openingMasked == true ? max(snap, settings.noisyOpeningSnapSeconds) : snap
    let intoTrackSeconds = referenceSeconds(on: play, atFrame: firstFrame) - track.audibleStartSeconds
    guard intoTrackSeconds <= startSnap * play.beta else { return firstFrame }
    // The audible start itself, even when the first match maps before it: a match there is off the line (one claimed
    // while the line was young, on a wrong speed hypothesis, then left behind by a refit), or a peak of the
    // reference's inaudible lead-in.
    let audibleStart = broadcastFrame(on: play, atReferenceSeconds: track.audibleStartSeconds)
    guard intoTrackSeconds > snap * play.beta, let previousEnd = latestEndFrame(before: play) else {
      return audibleStart
    }
    // Moved back over a masked opening: never over the item before by more than a crossfade.
    return min(firstFrame, max(audibleStart, previousEnd - MatcherTuning.maxCrossfadeSeconds * framesPerSecond))
  }

  /// How far a play of `track` is extended to the track's audible start or end (seconds of reference).
  func edgeSnap(of track: CatalogTrack) -> Double {
    guard track.metadata.kind != .song else { return settings.snapToEdgeSeconds }
    let share = MatcherTuning.maxSpotSnapToEdgeFraction * (track.audibleEndSeconds - track.audibleStartSeconds)
    return min(settings.snapToEdgeSeconds, max(share, parameters.seconds(ofFrame: Double(parameters.maxPairFrames))))
  }

  /// The broadcast frame where `play` is reported to end: its last match, and once it has ended (`final`), the track's
  /// audible end if the last match maps within `edgeSnap` of it, or of the end of the recording's loud part
  /// (`CatalogTrack.loudEndSeconds`) when `overQuietTail`.
  ///
  /// A play whose matches stop where its recording turns quiet for good most likely lost the recording's tail to the
  /// air's noise or a voice, not to the station: its end moves to the audible end, when the tail is at most
  /// `MatcherTuning.maxQuietTailSeconds` long, but never more than a crossfade past the start of the next play
  /// (`MatcherTuning.maxCrossfadeSeconds`). The start of a later play's masked opening is bounded by this end without
  /// the quiet tail (`latestEndFrame(before:)`), so that each bound rests on matches, not on the other's extension.
  func endFrame(of play: RunningPlay, final: Bool, overQuietTail: Bool = true) -> Double {
    let track = catalog.tracks[play.trackIndex]
    let lastFrame = Double(play.lastFrame)
    guard final else { return lastFrame }
    let referenceEnd = referenceSeconds(on: play, atFrame: lastFrame)
    let snap = edgeSnap(of: track) * play.beta
    let audibleEnd = max(lastFrame, broadcastFrame(on: play, atReferenceSeconds: track.audibleEndSeconds))
    if track.audibleEndSeconds - referenceEnd <= snap { return audibleEnd }
    guard overQuietTail && track.loudEndSeconds - referenceEnd <= snap,
      track.audibleEndSeconds - track.loudEndSeconds <= MatcherTuning.maxQuietTailSeconds
    else { return lastFrame }
    guard let nextStart = earliestStartFrame(after: play) else { return audibleEnd }
    return max(lastFrame, min(audibleEnd, nextStart + MatcherTuning.maxCrossfadeSeconds * framesPerSecond))
  }

  /// Seconds into `play`'s track at a (fractional) broadcast frame on its line.
  func referenceSeconds(on play: RunningPlay, atFrame frame: Double) -> Double {
    let base = Double(catalog.tracks[play.trackIndex].globalStartFrame)
    return parameters.seconds(ofFrame: play.alpha + play.beta * frame - base)
  }

  /// The (fractional) broadcast frame on `play`'s line at `seconds` into its track.
  func broadcastFrame(on play: RunningPlay, atReferenceSeconds seconds: Double) -> Double {
    let base = Double(catalog.tracks[play.trackIndex].globalStartFrame)
    return (base + parameters.frame(atSeconds: seconds) - play.alpha) / play.beta
  }

  /// The latest end, as reported but not extended over a quiet tail, of the other plays on this channel that began
  /// before `play`'s first match.
  func latestEndFrame(before play: RunningPlay) -> Double? {
    func before(_ other: RunningPlay) -> Bool { other.id != play.id && other.firstFrame < play.firstFrame }
    let running = active.filter(before).map { endFrame(of: $0, final: false) }
    let ended = recentlyEnded.filter(before).map { endFrame(of: $0, final: true, overQuietTail: false) }
    return (running + ended).max()
  }

  /// The earliest start, as reported, of the other plays on this channel that began after `play`'s first match.
  func earliestStartFrame(after play: RunningPlay) -> Double? {
    func after(_ other: RunningPlay) -> Bool { other.id != play.id && other.firstFrame > play.firstFrame }
    return (active.filter(after) + recentlyEnded.filter(after)).map { startFrame(of: $0) }.min()
  }

  /// Judges whether `play`'s song had its opening masked, at each report and at its end: its opening
  /// (`MatcherTuning.openingBuckets`) matched at under `MatcherTuning.maxSparseOpeningRateShare` of the rate of its
  /// matches since, once they span as long. The song's first seconds on the air were masked, and the seconds before
  /// them may have been the song too (`MatcherSettings.noisyOpeningSnapSeconds`). An opening judged masked stays so
  /// until the share reaches `MatcherTuning.minResumedOpeningRateShare`, so that the start shown does not flip.
  func judgeOpening(of play: inout RunningPlay) {
    guard catalog.tracks[play.trackIndex].metadata.kind == .song else { return }
    let openingFrames = Double(RunningPlay.openingFrames)
    let laterFrames = Double(play.lastAnchorFrame - play.openingEndFrame)
    guard laterFrames >= openingFrames else { return }
    let laterMatches = Double(play.matchCount - play.openingMatchCount)
    let bar =
      play.openingMasked == true ? MatcherTuning.minResumedOpeningRateShare : MatcherTuning.maxSparseOpeningRateShare
    // The opening's rate under `bar` times the later rate, both sides multiplied by the two spans.
    play.openingMasked = Double(play.openingMatchCount) * laterFrames < bar * laterMatches * openingFrames
  }

  private func frame(atStreamSeconds s: Double) -> Double {
    parameters.frame(atSeconds: s - (seconds(ofFrame: 0) - parameters.seconds(ofFrame: 0)))
  }
}
