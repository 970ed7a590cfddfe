#!/usr/bin/env python3
"""Scores a promoted cluster (README "Promoting a cluster") against the yardstick's segments.csv.

    python3 bench/promotion.py name SEGMENTS.csv REPORT_SEGMENTS.csv CLUSTER UNKNOWN.csv
    python3 bench/promotion.py score SEGMENTS.csv TRACK PLAYS.csv... [--isrc CODE]

`name`: the truth recording that most of the cluster's `unknown-music` stretches lie over, printed as
`TRACK<TAB>TITLE<TAB>ARTIST<TAB>ISRC` from the corpus's unknown.csv. `score`: the plays of PLAYS.csv (report plays
or scan --csv columns, times in UTC) with the ISRC CODE against the `unknown` rows of TRACK in segments.csv, matched
as the yardstick's score.py matches (same channel, overlap at least half the shorter): matched, missed, extra, and
the start and end errors.
"""
import csv
import sys
from collections import Counter
from datetime import datetime

ORIGIN = datetime.fromisoformat("2026-01-01T00:00:00+00:00")


def seconds(text):
    return (datetime.fromisoformat(text.replace("Z", "+00:00")) - ORIGIN).total_seconds()


def overlap(a0, a1, b0, b1):
    return max(0.0, min(a1, b1) - max(a0, b0))


def unknown_truth(path):
    return [r for r in csv.DictReader(open(path)) if r["kind"] == "unknown"]


def name(segments, report, cluster, unknown):
    truth = unknown_truth(segments)
    votes = Counter()
    for r in csv.DictReader(open(report)):
        if r["cluster"] != cluster:
            continue
        s, e = seconds(r["start"]), seconds(r["end"])
        for t in truth:
            if t["channel"] == r["channel"]:
                votes[t["track_id"]] += overlap(s, e, float(t["start_s"]), float(t["end_s"]))
    track = votes.most_common(1)[0][0]
    row = next(r for r in csv.DictReader(open(unknown)) if r["track_id"] == track)
    print("\t".join([track, row["title"], row["artist"], row["isrc"]]))


def score(segments, track, plays, isrc):
    truth = [(t["channel"], float(t["start_s"]), float(t["end_s"])) for t in unknown_truth(segments)
             if t["track_id"] == track]
    found = []
    for path in plays:
        for r in csv.DictReader(open(path, newline="")):
            if r["isrc"].replace("-", "") == isrc.replace("-", ""):
                found.append((r["channel"], seconds(r["start"]), seconds(r["end"])))
    pairs = sorted(((-overlap(p[1], p[2], t[1], t[2]), i, j) for i, p in enumerate(found) for j, t in enumerate(truth)
                    if p[0] == t[0] and overlap(p[1], p[2], t[1], t[2]) >= 0.5 * min(p[2] - p[1], t[2] - t[1]) > 0))
    used_p, used_t, matched = set(), set(), []
    for _, i, j in pairs:
        if i not in used_p and j not in used_t:
            used_p.add(i), used_t.add(j), matched.append((found[i], truth[j]))
    print("%s: %d airings, %d plays: matched %d, missed %d, extra %d" % (
        track, len(truth), len(found), len(matched), len(truth) - len(matched), len(found) - len(matched)))
    for p, t in matched:
        print("  %s %.1f-%.1f s: start error %+.1f s, end error %+.1f s" % (t[0], t[1], t[2], p[1] - t[1], p[2] - t[2]))


def main():
    if len(sys.argv) >= 6 and sys.argv[1] == "name":
        name(*sys.argv[2:6])
    elif len(sys.argv) >= 6 and sys.argv[1] == "score" and "--isrc" in sys.argv:
        k = sys.argv.index("--isrc")
        score(sys.argv[2], sys.argv[3], sys.argv[4:k], sys.argv[k + 1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
