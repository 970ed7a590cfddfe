#!/usr/bin/env python3
"""Scores `broadcast-monitor report segments --tz UTC` against the yardstick's segments.csv (README "Unknown music").

    python3 bench/unknown_music.py SEGMENTS.csv REPORT.csv [--origin 2026-01-01T00:00:00Z] [--min-seconds 20]

Truth: the `unknown` rows of segments.csv (music that is not in the catalog) of at least --min-seconds. Prints:
- recall: share of those the report's `unknown-music` stretches cover by at least half;
- precision against talk, jingles, ads, pips and silence: share of the report's unknown-music stretches whose
  time is mostly not those (a stretch mostly over a catalog song the matcher missed still counts as music);
- strict precision: share of stretches mostly over truth unknown music;
- cluster purity and completeness over the stretches that are mostly one truth unknown recording;
- back to back: pairs of truth unknown recordings aired one after the other (less than --gap-seconds apart, or
  crossfaded) and how many the report splits (each mostly in a stretch of its own).
"""
import argparse
import csv
import sys
from collections import Counter, defaultdict
from datetime import datetime, timezone

NON_MUSIC = {"talk", "jingle", "ad", "pips", "silence", "dropout"}


def seconds(text, origin):
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return (t - origin).total_seconds()


def overlap(a0, a1, b0, b1):
    return max(0.0, min(a1, b1) - max(a0, b0))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("segments")
    p.add_argument("report")
    p.add_argument("--origin", default="2026-01-01T00:00:00Z")
    p.add_argument("--min-seconds", type=float, default=20)
    p.add_argument("--gap-seconds", type=float, default=1)
    a = p.parse_args()
    origin = datetime.fromisoformat(a.origin.replace("Z", "+00:00"))

    truth = defaultdict(list)  # channel -> (kind, start, end, track)
    for r in csv.DictReader(open(a.segments)):
        if r["kind"] == "noise":
            continue
        truth[r["channel"]].append((r["kind"], float(r["start_s"]), float(r["end_s"]), r["track_id"]))
    found = defaultdict(list)  # channel -> (start, end, cluster)
    for r in csv.DictReader(open(a.report)):
        if r["label"] == "unknown-music":
            found[r["channel"]].append((seconds(r["start"], origin), seconds(r["end"], origin), r["cluster"]))

    wanted = [(ch, s, e, t) for ch, rows in truth.items() for k, s, e, t in rows if k == "unknown" and e - s >= a.min_seconds]
    hit = 0
    for ch, s, e, _ in wanted:
        covered = sum(overlap(s, e, f0, f1) for f0, f1, _ in found[ch])
        hit += covered >= 0.5 * (e - s)
    recall = hit / len(wanted) if wanted else float("nan")

    detections = 0
    not_talk = 0
    strict = 0
    pairs = []
    by_kind = Counter()
    for ch, rows in found.items():
        for f0, f1, cluster in rows:
            detections += 1
            per_kind = Counter()
            per_track = Counter()
            for k, s, e, t in truth[ch]:
                o = overlap(s, e, f0, f1)
                per_kind[k] += o
                if k == "unknown":
                    per_track[t] += o
            length = f1 - f0
            non_music = sum(v for k, v in per_kind.items() if k in NON_MUSIC)
            not_talk += non_music < 0.5 * length
            by_kind[per_kind.most_common(1)[0][0] if per_kind else "none"] += 1
            if per_kind["unknown"] >= 0.5 * length:
                strict += 1
                pairs.append((cluster, per_track.most_common(1)[0][0]))
    precision = not_talk / detections if detections else float("nan")
    strict_precision = strict / detections if detections else float("nan")

    purity = completeness = float("nan")
    if pairs:
        by_cluster = defaultdict(Counter)
        by_track = defaultdict(Counter)
        for c, t in pairs:
            by_cluster[c][t] += 1
            by_track[t][c] += 1
        purity = sum(max(v.values()) for v in by_cluster.values()) / len(pairs)
        completeness = sum(max(v.values()) for v in by_track.values()) / len(pairs)

    # Back to back: consecutive truth rows on a channel, both unknown music of at least --min-seconds, the second
    # starting less than --gap-seconds after the first ends. Split when each is mostly (over half) inside one reported
    # stretch and the two stretches differ.
    def home(ch, s, e):
        for i, (f0, f1, _) in enumerate(found[ch]):
            if overlap(s, e, f0, f1) > 0.5 * (e - s):
                return i
        return None

    back_to_back = split = 0
    for ch, rows in truth.items():
        rows = sorted(rows, key=lambda r: r[1])
        for (k1, s1, e1, t1), (k2, s2, e2, t2) in zip(rows, rows[1:]):
            if k1 != "unknown" or k2 != "unknown" or e1 - s1 < a.min_seconds or e2 - s2 < a.min_seconds:
                continue
            if s2 - e1 >= a.gap_seconds:
                continue
            back_to_back += 1
            h1, h2 = home(ch, s1, e1), home(ch, s2, e2)
            split += h1 is not None and h2 is not None and h1 != h2

    print(f"unknown segments >= {a.min_seconds:g} s in truth: {len(wanted)}; found {hit}: recall {recall:.3f}")
    print(f"unknown-music stretches reported: {detections}; mostly talk/jingles/ads/pips/silence: {detections - not_talk}")
    print(f"precision vs talk/jingles/ads/silence: {precision:.3f}; strict (mostly truth unknown music): {strict_precision:.3f}")
    print(f"stretches by the truth kind they mostly cover: {dict(by_kind)}")
    print(f"clusters: {len(set(c for c, _ in pairs))} for {len(set(t for _, t in pairs))} recordings over {len(pairs)} stretches; "
          f"purity {purity:.3f}, completeness {completeness:.3f}")
    print(f"back to back (two unknown recordings < {a.gap_seconds:g} s apart): {back_to_back}; split: {split}")


if __name__ == "__main__":
    sys.exit(main())
