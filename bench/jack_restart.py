#!/usr/bin/env python3
"""JACK server restart during a live run: does the monitor come back, record the gap, and keep every play?

    python3 bench/jack_restart.py [--before 150] [--down 8] [--after 150] [--sim DIR] [--catalog FILE]

Starts a private jackd (dummy driver, 48 kHz), `broadcast-monitor run` with one stereo JACK channel per simulated
channel, and `broadcast-monitor feed` playing the simulation in real time. After --before seconds it kills jackd
(SIGKILL, as a crash would), waits --down seconds, starts jackd again and starts the feeds again where the audio
would have been. It prints:
  - reconnect time: from the new jackd answering to the monitor's "JACK server ... is back" log line (goal <= 5 s);
  - the gap and reconnect events in the play log;
  - the plays before and after, with their status, checked against the simulation's truth.
"""
import argparse
import csv
import os
import re
import signal
import sqlite3
import subprocess
import tempfile
import time

from livebench import (BIN, CACHE, CATALOG, JACK_ENV, TRACKS, fresh_database, parse_time, require, start_jackd,
                       start_monitor, stop_all, wait_for)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=float, default=150)
    ap.add_argument("--down", type=float, default=8)
    ap.add_argument("--after", type=float, default=150)
    ap.add_argument("--sim", default=os.path.join(CACHE, "sims", "dev-radio-s1"))
    ap.add_argument("--catalog", default=CATALOG)
    ap.add_argument("--tracks", default=TRACKS)
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "bm-jack-restart"))
    args = ap.parse_args()
    require("jack_restart", [(args.bin, "swift build -c release"), (args.catalog, "bash bench/yardstick.sh"),
                             (args.sim, "bash bench/yardstick.sh"), (args.tracks, "bash bench/yardstick.sh")])
    db = fresh_database(args.out)
    isrc_to_track = {}
    with open(args.tracks, newline="") as f:
        for row in csv.DictReader(f):
            isrc_to_track[row["isrc"]] = row["track_id"]
    wavs = sorted(name for name in os.listdir(args.sim) if re.fullmatch(r"ch\d+\.wav", name))
    channels = [name[:-4] for name in wavs]
    server = f"bm-restart-{os.getpid()}"
    processes = []

    def start_feeds(n, offset):
        feeds = {}
        for channel, wav in zip(channels, wavs):
            log_path = os.path.join(args.out, f"feed-{channel}-{n}.log")
            p = subprocess.Popen([args.bin, "feed", "--server", server, "--client", f"feed-{channel}",
                                  "--start", f"{offset:.3f}", "--connect", f"bm:{channel}_L,bm:{channel}_R",
                                  os.path.join(args.sim, wav)],
                                 stdout=subprocess.DEVNULL, stderr=open(log_path, "w"), env=JACK_ENV)
            processes.append(p)
            feeds[channel] = (p, log_path)
        origins = {}

        def ready():
            for channel, (_, log_path) in feeds.items():
                m = re.search(r"first sample at (\S+)", open(log_path).read())
                if m:
                    origins[channel] = parse_time(m.group(1)) - offset  # wall time of simulation second 0
            return len(origins) == len(feeds)

        wait_for(ready, 30, "the feeds' first samples")
        return feeds, origins

    try:
        jackd = start_jackd(server, os.path.join(args.out, "jackd-1.log"), processes)
        monitor_log_path = os.path.join(args.out, "monitor.log")
        monitor = start_monitor(args.bin, args.catalog, db, server, channels, monitor_log_path, processes)
        feeds, origins1 = start_feeds(1, 0)
        time.sleep(args.before)
        killed_at = time.time()
        jackd.send_signal(signal.SIGKILL)
        jackd.wait()
        for p, _ in feeds.values():
            p.wait(timeout=20)
        print(f"jackd killed at {args.before:g} s of audio; down for {args.down:g} s", flush=True)
        time.sleep(args.down)
        start_jackd(server, os.path.join(args.out, "jackd-2.log"), processes)
        answered = time.time()
        back = wait_for(lambda: f"JACK server '{server}' is back after" in open(monitor_log_path).read(), 30, "the monitor's reconnect")
        print(f"reconnect: monitor client back {back - answered:.2f} s after the new jackd answered (goal <= 5 s)")
        offset = time.time() - origins1[channels[0]]
        feeds, origins2 = start_feeds(2, offset)
        time.sleep(args.after)
    finally:
        # The monitor first, so that its last events are its own stop, not the bench's jackd going away.
        if "monitor" in locals() and monitor.poll() is None:
            monitor.send_signal(signal.SIGTERM)
            monitor.wait(timeout=60)
        stop_all(processes)
    print(f"monitor exit status {monitor.returncode}")
    conn = sqlite3.connect(db)
    print("events:")
    for kind, start, end, detail, name in conn.execute(
            "SELECT e.kind, e.start_ms, e.end_ms, e.detail, c.name FROM events e LEFT JOIN channels c "
            "ON c.id = e.channel_id ORDER BY e.id"):
        rel = start / 1000 - origins1[channels[0]]
        print(f"  {kind:9s} {name or '(monitor)':6s} at {rel:8.1f} s  {detail}")
    print("plays (seconds of simulation time; truth from truth.csv):")
    truth = list(csv.DictReader(open(os.path.join(args.sim, "truth.csv"), newline="")))
    for pid, name, isrc, start, end, status in conn.execute(
            "SELECT p.id, c.name, i.isrc, p.start_ms, p.end_ms, p.status FROM plays p "
            "JOIN channels c ON c.id = p.channel_id JOIN catalog_items i ON i.id = p.item_id ORDER BY p.start_ms"):
        s, e = start / 1000 - origins1[name], end / 1000 - origins1[name]
        track = isrc_to_track.get(isrc, isrc)
        t = [r for r in truth if r["channel"] == name and r["track_id"] == track
             and float(r["start_s"]) < e and float(r["end_s"]) > s]
        truth_text = f"truth {float(t[0]['start_s']):7.1f}-{float(t[0]['end_s']):7.1f}" if t else "NOT IN TRUTH"
        print(f"  {name} {track} {s:7.1f}-{e:7.1f} {status:9s} {truth_text}")
    print(f"jackd killed at {killed_at - origins1[channels[0]]:.1f} s of simulation time; the feeds resumed at "
          f"{offset:.1f} s")


if __name__ == "__main__":
    main()
