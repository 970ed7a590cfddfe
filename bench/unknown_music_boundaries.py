#!/usr/bin/env python3
"""Can a song change inside a stretch of music be told from a change of section inside one song? (README "Unknown
music", issue 17: two unknown recordings aired back to back are logged as one segment until one is heard again.)

    python3 bench/unknown_music_boundaries.py SIM_DIR [SIM_DIR...]

For each simulation (a folder with ch01.wav, ch02.wav and segments.csv), the audio is analysed as the air classifier
sees it (8 kHz mono, 1024-sample frames every 256 samples, 250 Hz-3.75 kHz, windows of 32 frames, about 1 s), with
per-window features a boundary detector could use:
- dip: how far (dB) the level within ±2 windows falls below the median level of the 10 windows on each side
  (a segue's fade, a crossfade's trough);
- novelty: distance between the mean features of the 8 windows before and the 8 after (3 windows left out on each
  side for a crossfade): chroma (12 pitch classes, L1 of the shares) plus 0.1 x the RMS dB difference of the
  spectral shape (16 log-spaced bands, level removed);
- global: the same distance between the means of everything before and everything after (a song's overall colour);
- recurrence: the best match (mean distance over 8 windows in a row) between any 8 windows before and any 8 after.
Two sets are scored: every pair of music recordings (catalog or unknown) aired back to back (less than 1 s apart, each
at least 25 s), at their boundary; every recording of at least 60 s on its own, at every window at least 20 s from
its ends (its intro, verses, bridges and solos). It prints each feature's values for the pairs against the highest
value inside a single recording, and the thresholds (all four at once) that split the most pairs while splitting no
single recording. A detector is worth building only when those thresholds split most pairs.
"""
import csv
import itertools
import os
import subprocess
import sys

import numpy as np

RATE = 8000
FFT = 1024
HOP = 256
FIRST_BIN, LAST_BIN = 32, 481  # 250 Hz to 3.75 kHz, as the fingerprint's band
WINDOW_FRAMES = 32
WPS = RATE / HOP / WINDOW_FRAMES
GAP, LEN, DIAG, CONTEXT = 3, 8, 8, 10
MIN_PART = 20  # windows: the 20 s minimum for an unknown segment


def decode(path):
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-ac", "1", "-ar", str(RATE), "-f", "f32le", "-"],
        check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.float32)


def windows(x):
    """Per window: level (dB), chroma shares (12), spectral shape (16 dB values, mean removed)."""
    frames = (len(x) - FFT) // HOP
    nw = frames // WINDOW_FRAMES
    hann = np.hanning(FFT).astype(np.float32)
    power = np.empty((nw, LAST_BIN - FIRST_BIN), np.float32)
    for w in range(nw):
        idx = (w * WINDOW_FRAMES + np.arange(WINDOW_FRAMES))[:, None] * HOP + np.arange(FFT)[None, :]
        spectrum = np.fft.rfft(x[idx] * hann, axis=1)[:, FIRST_BIN:LAST_BIN]
        power[w] = (np.abs(spectrum) ** 2).mean(0)
    freqs = np.arange(FIRST_BIN, LAST_BIN) * RATE / FFT
    pitch = np.round(12 * np.log2(freqs / 440)).astype(int) % 12
    band = np.clip(np.digitize(freqs, np.geomspace(250, 3760, 17)) - 1, 0, 15)
    chroma = np.stack([power[:, pitch == k].sum(1) for k in range(12)], 1)
    chroma /= np.maximum(chroma.sum(1, keepdims=True), 1e-12)
    shape = 10 * np.log10(np.maximum(np.stack([power[:, band == k].sum(1) for k in range(16)], 1), 1e-10))
    shape -= shape.mean(1, keepdims=True)
    level = 10 * np.log10(np.maximum(power.sum(1), 1e-10))
    return level, np.hstack([chroma, shape])


def distance(a, b):
    chroma = np.abs(a[:, None, :12] - b[None, :, :12]).sum(2)
    shape = np.sqrt(((a[:, None, 12:] - b[None, :, 12:]) ** 2).mean(2))
    return chroma + 0.1 * shape


def features(level, x, ts):
    """(t, dip, novelty, global, recurrence) for each window index t of `ts` (within x)."""
    n = len(x)
    d = distance(x, x)
    m = n - DIAG + 1
    diagonal = sum(d[k:k + m, k:k + m] for k in range(DIAG)) / DIAG
    rows = []
    for t in ts:
        if t - GAP - LEN < 0 or t + GAP + LEN > n:
            continue
        novelty = distance(x[t - GAP - LEN:t - GAP].mean(0, keepdims=True), x[t + GAP:t + GAP + LEN].mean(0, keepdims=True))
        overall = distance(x[:t - GAP].mean(0, keepdims=True), x[t + GAP:].mean(0, keepdims=True))
        a, b = t - GAP - DIAG + 1, t + GAP
        recurrence = diagonal[:a, b:].min() if a > 0 and b < m else np.nan
        trough = level[max(0, t - 2):t + 3].min()
        around = np.concatenate([level[max(0, t - CONTEXT):max(0, t - 2)], level[t + 3:t + CONTEXT]])
        rows.append((t, np.median(around) - trough, novelty[0, 0], overall[0, 0], recurrence))
    return np.array(rows)


def main():
    folders = sys.argv[1:]
    if not folders or any(a in ("-h", "--help") for a in folders):
        print(__doc__)
        sys.exit(0 if folders else 64)
    missing = [f for f in folders if not os.path.isfile(os.path.join(f, "segments.csv"))]
    if missing:
        sys.exit(f"unknown_music_boundaries: no segments.csv in {', '.join(missing)}: give simulation folders made by "
                 "the yardstick's simulate.py (for example ~/.cache/bmon-eval/sims/dev-radio-s1)")
    singles, pairs = [], []
    for sim in folders:
        truth = [r for r in csv.DictReader(open(f"{sim}/segments.csv")) if r["kind"] != "noise"]
        for channel in sorted({r["channel"] for r in truth}):
            level, x = windows(decode(f"{sim}/{channel}.wav"))
            rows = sorted(
                ((r["kind"], float(r["start_s"]), float(r["end_s"]), r["track_id"]) for r in truth
                 if r["channel"] == channel), key=lambda r: r[1])
            music = [r for r in rows if r[0] in ("catalog", "unknown")]
            for _, s, e, track in music:
                if e - s < 60:
                    continue
                i0, i1 = int((s + 3) * WPS), int((e - 3) * WPS)
                f = features(level[i0:i1], x[i0:i1], range(MIN_PART, i1 - i0 - MIN_PART))
                if len(f):
                    singles.append((f"{sim}:{channel}:{track}", f))
            for a, b in zip(rows, rows[1:]):
                if a[0] not in ("catalog", "unknown") or b[0] not in ("catalog", "unknown"):
                    continue
                if b[1] - a[2] >= 1 or a[2] - a[1] < 25 or b[2] - b[1] < 25:
                    continue
                i0, i1 = int((a[1] + 3) * WPS), int((b[2] - 3) * WPS)
                t = int(((a[2] + b[1]) / 2 - a[1] - 3) * WPS)
                f = features(level[i0:i1], x[i0:i1], range(t - 3, t + 4))
                if len(f):
                    pairs.append((f"{sim}:{channel}:{a[3]}>{b[3]}", f))
    names = ["dip dB", "novelty", "global", "recurrence"]
    print(f"{len(pairs)} back-to-back pairs, {len(singles)} single recordings")
    for k, name in enumerate(names, start=1):
        at_pairs = sorted(np.nanmax(f[:, k]) for _, f in pairs)
        in_singles = [np.nanmax(f[:, k]) for _, f in singles]
        above = sum(v > max(in_singles) for v in at_pairs)
        print(f"{name}: pairs at the boundary median {np.median(at_pairs):.2f} (min {at_pairs[0]:.2f}); inside single "
              f"recordings median of maxima {np.median(in_singles):.2f}, highest {max(in_singles):.2f}; pairs above "
              f"every single recording: {above}")
    best = (0, None, [])
    grid = [[0, 5, 8, 10, 12, 15, 20, 25], [0, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8], [0, 0.6, 0.8, 1.0, 1.2],
            [0, 0.8, 0.9, 1.0, 1.1, 1.2]]
    for limits in itertools.product(*grid):
        def fires(f):
            return ((f[:, 1] >= limits[0]) & (f[:, 2] >= limits[1]) & (f[:, 3] >= limits[2])
                    & (np.nan_to_num(f[:, 4], nan=9) >= limits[3])).any()
        if any(fires(f) for _, f in singles):
            continue
        hits = [name for name, f in pairs if fires(f)]
        if len(hits) > best[0]:
            best = (len(hits), limits, hits)
    print(f"all four at once, splitting no single recording: at best {best[0]} of {len(pairs)} pairs split "
          f"(dip, novelty, global, recurrence at least {best[1]}): {best[2]}")


if __name__ == "__main__":
    sys.exit(main())
