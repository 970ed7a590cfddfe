#!/usr/bin/env python3
"""How soon each catalog track is recognised from its own first sample, clean: the floor under live latency.

    python3 bench/clean_starts.py [--catalog FILE] [--tracks tracks.csv] [--seconds 30] [--bin PATH]

For every track of the dev corpus (tracks.csv from ../shared/eval's corpus.py), decodes the first SECONDS of the
reference file itself, exactly as catalogued (no noise, no speed change, nothing before it), scans it with
`broadcast-monitor scan` against the catalog and notes when the play was recognised (the CSV's detected_at, in
stream time from the file's first sample).

What it shows: a song whose own clean opening takes more than 5 s to recognise cannot be logged within 5 s of its
start on the air, where noise, crossfades and voice-overs only add to it. The scan's matcher is the live monitor's.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
from datetime import datetime, timezone

from livebench import BIN, CATALOG, TRACKS, percentile, require

ORIGIN = "2026-01-01T00:00:00Z"


def stream_seconds(stamp):
    origin = datetime(2026, 1, 1, tzinfo=timezone.utc)
    return (datetime.fromisoformat(stamp.replace("Z", "+00:00")) - origin).total_seconds()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--catalog", default=CATALOG)
    ap.add_argument("--tracks", default=TRACKS)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--bin", default=BIN)
    args = ap.parse_args()
    require("clean_starts", [(args.bin, "swift build -c release"), (args.catalog, "bash bench/yardstick.sh"),
                             (args.tracks, "bash bench/yardstick.sh")])
    corpus = os.path.dirname(os.path.abspath(args.tracks))
    rows = list(csv.DictReader(open(args.tracks, newline="")))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        wav, out = os.path.join(tmp, "start.wav"), os.path.join(tmp, "plays.csv")
        for n, row in enumerate(rows, 1):
            print(f"\rclean_starts: {n}/{len(rows)} {row['title']}", end="", file=sys.stderr, flush=True)
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", os.path.join(corpus, row["path"]), "-t",
                            str(args.seconds), wav], check=True)
            if os.path.exists(out):
                os.remove(out)
            subprocess.run([args.bin, "scan", "--catalog", args.catalog, "--channel", "clean", "--start", ORIGIN,
                            "--csv", out, wav], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            plays = [p for p in csv.DictReader(open(out, newline="")) if p["isrc"] == row["isrc"]]
            detected = min((stream_seconds(p["detected_at"]) for p in plays), default=None)
            results.append((detected, row))
    print(file=sys.stderr)
    found = [d for d, _ in results if d is not None]
    for detected, row in sorted(results, key=lambda r: -(r[0] if r[0] is not None else 1e9)):
        shown = "not found" if detected is None else f"{detected:5.2f} s"
        print(f"  {shown}  {row['track_id']} {row['title']}")
    print(f"recognised {len(found)}/{len(results)} tracks from their first {args.seconds:g} s, clean: median "
          f"{percentile(found, 50):.2f} s, p95 {percentile(found, 95):.2f} s, max {max(found):.2f} s; "
          f"{sum(d > 5 for d in found)} after more than 5 s")


if __name__ == "__main__":
    main()
