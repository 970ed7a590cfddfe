#!/usr/bin/env python3
"""Live latency through JACK: how soon a catalog play is in the play log after it starts on air.

    python3 bench/live_latency.py [--minutes 20] [--sim DIR] [--catalog FILE] [--bin PATH]

Starts a private jackd (dummy driver, 48 kHz, 1024 frames), `broadcast-monitor run` with one stereo JACK channel
per simulated channel, and one `broadcast-monitor feed` per channel playing the simulation's WAV in real time. It
polls the SQLite play log every 100 ms from a separate connection and notes when each play row first appears. The
simulation's truth.csv (from ../shared/eval) says when each catalog track really started, relative to the first
sample `feed` played (feed prints that sample's wall-clock time).

Figures (over the catalog plays that start inside the fed window and at least 30 s before its end):
  - latency = first seen in the play log - true start (median, 95th percentile, max): goal p95 <= 5 s
  - start error = |logged start - true start| (median, 95th percentile, max): goal within 1 s
  - end error = |logged end - true end|, over the plays that ended at least 30 s before the run stopped
  - found / expected, and plays logged that are not in the truth.
"""
import argparse
import csv
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

from livebench import (BIN, CACHE, CATALOG, JACK_ENV, TRACKS, fresh_database, parse_time, percentile, require,
                       start_jackd, start_monitor, stop_all, wait_for)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=20)
    ap.add_argument("--sim", default=os.path.join(CACHE, "sims", "dev-radio-s1"))
    ap.add_argument("--catalog", default=CATALOG)
    ap.add_argument("--tracks", default=TRACKS)
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "bm-live-latency"))
    args = ap.parse_args()

    require("live_latency", [(args.bin, "swift build -c release"), (args.catalog, "bash bench/yardstick.sh"),
                             (args.sim, "bash bench/yardstick.sh"), (args.tracks, "bash bench/yardstick.sh")])
    db = fresh_database(args.out)
    isrc_to_track = {}
    with open(args.tracks, newline="") as f:
        for row in csv.DictReader(f):
            isrc_to_track[row["isrc"]] = row["track_id"]
    wavs = sorted(name for name in os.listdir(args.sim) if re.fullmatch(r"ch\d+\.wav", name))
    channels = [name[:-4] for name in wavs]

    server = f"bm-latency-{os.getpid()}"
    processes = []
    try:
        start_jackd(server, os.path.join(args.out, "jackd.log"), processes)
        start_monitor(args.bin, args.catalog, db, server, channels, os.path.join(args.out, "monitor.log"), processes)

        feeds = []
        for channel, wav in zip(channels, wavs):
            log_path = os.path.join(args.out, f"feed-{channel}.log")
            feed = subprocess.Popen([args.bin, "feed", "--server", server, "--client", f"feed-{channel}",
                                     "--connect", f"bm:{channel}_L,bm:{channel}_R", os.path.join(args.sim, wav)],
                                    stdout=subprocess.DEVNULL, stderr=open(log_path, "w"), env=JACK_ENV)
            processes.append(feed)
            feeds.append((channel, feed, log_path))
        origins = {}

        def read_origins():
            for channel, _, log_path in feeds:
                match = re.search(r"first sample at (\S+)", open(log_path).read())
                if match:
                    origins[channel] = parse_time(match.group(1))
            return len(origins) == len(feeds)

        wait_for(read_origins, 30, "every feed's first sample")
        print(f"live_latency: {len(channels)} channels fed from {args.sim} for {args.minutes:g} min; "
              f"origins {', '.join(f'{c}={origins[c]:.3f}' for c in channels)}", flush=True)

        first_seen = {}
        reader = None
        end = time.time() + args.minutes * 60
        while time.time() < end:
            if reader is None and os.path.exists(db):
                reader = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
            if reader is not None:
                try:
                    for (play_id,) in reader.execute("SELECT id FROM plays"):
                        first_seen.setdefault(play_id, time.time())
                except sqlite3.OperationalError:
                    pass
            if any(feed.poll() not in (None, 0) for _, feed, _ in feeds):
                sys.exit("live_latency: a feed failed; see " + args.out)
            time.sleep(0.1)
        fed_seconds = {c: time.time() - origins[c] for c in channels}
    finally:
        stop_all(processes)

    plays = sqlite3.connect(db).execute(
        "SELECT p.id, c.name, i.isrc, p.start_ms, p.end_ms FROM plays p JOIN channels c ON c.id = p.channel_id "
        "JOIN catalog_items i ON i.id = p.item_id").fetchall()
    truth = []
    with open(os.path.join(args.sim, "truth.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if row["channel"] in origins and row["track_id"] in isrc_to_track.values():
                truth.append(row)
    latencies, start_errors, end_errors, missed, matched_ids, details = [], [], [], [], set(), []
    for row in truth:
        channel = row["channel"]
        true_start = origins[channel] + float(row["start_s"])
        if float(row["start_s"]) > fed_seconds[channel] - 30:
            continue
        candidates = [p for p in plays if p[1] == channel and isrc_to_track.get(p[2]) == row["track_id"]
                      and abs(p[3] / 1000 - true_start) < 30 and p[0] not in matched_ids]
        if not candidates:
            missed.append(row)
            continue
        play = min(candidates, key=lambda p: abs(p[3] / 1000 - true_start))
        matched_ids.add(play[0])
        start_errors.append(abs(play[3] / 1000 - true_start))
        if float(row["end_s"]) <= fed_seconds[channel] - 30:
            end_errors.append(abs(play[4] / 1000 - (origins[channel] + float(row["end_s"]))))
        if play[0] in first_seen:
            latencies.append(first_seen[play[0]] - true_start)
            details.append((latencies[-1], play[3] / 1000 - true_start, row))
    extra = [p for p in plays if p[0] not in matched_ids
             and p[3] / 1000 - origins.get(p[1], 0) < fed_seconds.get(p[1], 0) - 30]
    expected = len(latencies) + len(missed) + (len(start_errors) - len(latencies))
    print(f"found {len(start_errors)}/{expected} catalog plays; {len(extra)} logged plays not in the truth")
    print(f"latency (first seen in the play log - true start), s: median {percentile(latencies, 50):.2f}, "
          f"p95 {percentile(latencies, 95):.2f}, max {max(latencies, default=float('nan')):.2f}  (goal p95 <= 5)")
    print(f"start error, s: median {percentile(start_errors, 50):.2f}, p95 {percentile(start_errors, 95):.2f}, "
          f"max {max(start_errors, default=float('nan')):.2f}  (goal <= 1)")
    print(f"end error, s: median {percentile(end_errors, 50):.2f}, p95 {percentile(end_errors, 95):.2f}, "
          f"max {max(end_errors, default=float('nan')):.2f}  ({len(end_errors)} plays that ended)")
    xruns = [int(n) for n in re.findall(r"\((\d+) since the client opened\)", open(os.path.join(args.out, "monitor.log")).read())]
    # A missed cycle can delay the feeds against their first-sample times, so that later plays look later than they
    # were. A few are usual; many (a busy machine) make the figures above too late.
    print(f"JACK xruns during the run: {max(xruns, default=0)}"
          + (" (many: the machine was busy; the figures above are too late, re-run it idle)"
             if max(xruns, default=0) > 10 else ""))
    slow = sorted((d for d in details if d[0] > 5), key=lambda d: -d[0])
    if slow:
        print("plays logged more than 5 s after their start, with how the simulation aired them:")
    for latency, error, row in slow:
        print(f"  {latency:5.2f} s  {row['channel']} {row['track_id']} at {float(row['start_s']):.1f} s, "
              f"start error {error:+.2f} s: {row['mode']} from {float(row['ref_start_s']):.1f} s of the reference, "
              f"speed {row['speed']}{'' if row['pitch_preserved'] == '1' else ' resampled'}, "
              f"fade-in {row['fade_in_s']} s, crossfade {row['xfade_in_s']} s, voice-over {row['voiceover']}, "
              f"SNR {row['snr_db']} dB")
    for row in missed:
        print(f"  missed: {row['channel']} {row['track_id']} at {row['start_s']} s ({row['mode']})")
    for p in extra:
        print(f"  not in truth: {p[1]} {p[2]} at {p[3] / 1000 - origins.get(p[1], 0):.1f} s")


if __name__ == "__main__":
    main()
