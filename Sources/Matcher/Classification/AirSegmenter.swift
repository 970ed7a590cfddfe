/// Turns labelled windows and the catalog's plays into stretches: each window's label is smoothed by a vote of its
/// neighbours, a window that a catalog play covers is `catalog`, runs of one label become stretches, and other music
/// shorter than `ClassifierTuning.minUnknownSeconds` is `mixed`. A window is labelled for good only
/// `ClassifierTuning.holdSeconds` after it ends, so that the matcher's late-reported plays claim their stretch first.
/// A run of other music closes as soon as the run after it shows that it does not go on (anything but a `mixed` run
/// short enough to be bridged): `holdSeconds` after its end, plus at most `ClassifierTuning.maxBridgeSeconds`, so
/// that its audio is still in the air watch's ring, whatever airs after it.
///
/// One thread at a time: the owner of the air watch.
final class AirSegmenter {
  struct Window {
    var startSeconds: Double
    var endSeconds: Double
    var label: AirLabel
    var musicScore: Double
  }

  private struct Run {
    var label: AirLabel
    var item: String?
    var startSeconds: Double
    var endSeconds: Double
    var scoreSum: Double
    var windows: Int
  }

  /// Closes a run into a stretch (the watch adds the fingerprint of unknown music).
  var emit: (AirStretch) -> Void = { _ in }
  /// Windows not yet decided, after the last `voteRadiusWindows` decided ones (their context).
  private var windows: [Window] = []
  private var firstUndecided = 0
  /// Catalog plays by the matcher's play id: their span and item.
  private var plays: [Int: (start: Double, end: Double, item: String)] = [:]
  private var run: Run?
  /// The last stretch closed, kept until the next one shows whether they merge (two `mixed` in a row).
  private var held: AirStretch?
  private let radius = ClassifierTuning.voteRadiusWindows

  func add(_ window: Window) { windows.append(window) }

  /// A catalog play started, continues or ended with this span.
  func notePlay(id: Int, startSeconds: Double, endSeconds: Double, item: String) {
    plays[id] = (startSeconds, endSeconds, item)
  }

  /// A play was withdrawn: its stretch is not the catalog's.
  func retractPlay(id: Int) { plays[id] = nil }

  /// Decides the windows that ended `holdSeconds` before `nowSeconds` (every window when `final`).
  func decide(nowSeconds: Double, final: Bool = false) {
    while firstUndecided < windows.count
      && (final || windows[firstUndecided].endSeconds <= nowSeconds - ClassifierTuning.holdSeconds)
    {
      let i = firstUndecided
      let w = windows[i]
      var label = smoothedLabel(at: i)
      var item: String?
      if let play = coveringPlay(w) {
        label = .catalog
        item = play
      }
      append(label: label, item: item, window: w)
      firstUndecided += 1
    }
    let drop = firstUndecided - radius
    if drop > 256 {
      windows.removeFirst(drop)
      firstUndecided -= drop
    }
    // Plays that ended before everything still undecided can no longer cover a window.
    if let oldest = windows.dropFirst(firstUndecided).first?.startSeconds ?? windows.last?.endSeconds {
      plays = plays.filter { $0.value.end > oldest - 1 }
    }
    if final {
      close()
      for r in closedRuns { finalize(r) }
      closedRuns.removeAll()
      if let held { emit(held) }
      held = nil
    }
  }

  /// Majority of the raw labels within ±`radius` windows; a tie keeps the window's own label.
  private func smoothedLabel(at i: Int) -> AirLabel {
    var counts: [AirLabel: Int] = [:]
    for j in max(0, i - radius)...min(windows.count - 1, i + radius) { counts[windows[j].label, default: 0] += 1 }
    let own = windows[i].label
    var best = own
    var bestCount = counts[own] ?? 0
    for (label, count) in counts where count > bestCount {
      best = label
      bestCount = count
    }
    return best
  }

  private func coveringPlay(_ w: Window) -> String? {
    let length = w.endSeconds - w.startSeconds
    for play in plays.values {
      let overlap = min(play.end, w.endSeconds) - max(play.start, w.startSeconds)
      if overlap >= ClassifierTuning.catalogCoverShare * length { return play.item }
    }
    return nil
  }

  private func append(label: AirLabel, item: String?, window w: Window) {
    if var r = run, r.label == label, r.item == item {
      r.endSeconds = w.endSeconds
      r.scoreSum += w.musicScore
      r.windows += 1
      run = r
    } else {
      close()
      run = Run(
        label: label, item: item, startSeconds: w.startSeconds, endSeconds: w.endSeconds, scoreSum: w.musicScore,
        windows: 1)
      bridge()
    }
    settle()
  }

  /// Runs closed but not yet final, oldest first: other music followed by a `mixed` run short enough to be bridged
  /// waits for the run after it (`settle()`).
  private var closedRuns: [Run] = []

  private func close() {
    guard let r = run else { return }
    run = nil
    closedRuns.append(r)
  }

  /// Music, then at most `maxBridgeSeconds` of `mixed`, then music again is one stretch of music: a quiet or
  /// sparse passage of a song scores between music and speech for a few seconds. Done when the second run of music
  /// starts: the first run, the `mixed` one and the new one become the run that goes on.
  private func bridge() {
    let n = closedRuns.count
    guard n >= 2, let b = run else { return }
    let (a, x) = (closedRuns[n - 2], closedRuns[n - 1])
    guard a.label == .unknownMusic, x.label == .mixed, b.label == .unknownMusic,
      x.endSeconds - x.startSeconds <= ClassifierTuning.maxBridgeSeconds
    else { return }
    closedRuns.removeLast(2)
    run = Run(
      label: .unknownMusic, item: nil, startSeconds: a.startSeconds, endSeconds: b.endSeconds,
      scoreSum: a.scoreSum + x.scoreSum + b.scoreSum, windows: a.windows + x.windows + b.windows)
  }

  /// Finalizes the closed runs that nothing can change any more, oldest first: every one but a run of other music
  /// whose next run is the open one, `mixed` and still short enough to be bridged into it (a closed `mixed` run
  /// after it was not bridged when the run after that started, so it never will be).
  private func settle() {
    while let first = closedRuns.first {
      if first.label == .unknownMusic && closedRuns.count == 1 {
        guard let next = run else { return }
        if next.label == .mixed && next.endSeconds - next.startSeconds <= ClassifierTuning.maxBridgeSeconds { return }
      }
      finalize(closedRuns.removeFirst())
    }
  }

  private func finalize(_ r: Run) {
    var label = r.label
    if label == .unknownMusic && r.endSeconds - r.startSeconds < ClassifierTuning.minUnknownSeconds { label = .mixed }
    let stretch = AirStretch(
      label: label, startSeconds: r.startSeconds, endSeconds: r.endSeconds, item: r.item,
      musicConfidence: r.scoreSum / Double(r.windows))
    if var h = held, h.label == stretch.label, h.item == stretch.item, h.label != .unknownMusic {
      let seconds = h.durationSeconds + stretch.durationSeconds
      h.musicConfidence =
        seconds > 0
        ? (h.musicConfidence * h.durationSeconds + stretch.musicConfidence * stretch.durationSeconds) / seconds : 0
      h.endSeconds = stretch.endSeconds
      held = h
      return
    }
    if let held { emit(held) }
    held = nil
    // Other music merges with nothing: it goes at once (its audio is cut from the ring when it goes).
    if stretch.label == .unknownMusic {
      emit(stretch)
    } else {
      held = stretch
    }
  }
}
