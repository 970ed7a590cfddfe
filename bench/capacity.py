#!/usr/bin/env python3
"""Live capacity: how many stereo JACK channels one monitor watches on this machine without dropping audio.

    python3 bench/capacity.py [--channels 64] [--minutes 10] [--ramp 96,128,192,256] [--ramp-minutes 2]

For each run: a private jackd (dummy driver, 48 kHz, 1024 frames, room for many ports), `broadcast-monitor run`
with CHANNELS stereo JACK channels (release build, catalog of the dev corpus), and `Benchmarks jack-source`
playing a 10-minute excerpt of a simulated radio channel into every channel, each from a different offset, in real
time. After a 20 s warm-up it measures, over the run:
  - the monitor's CPU time (user + system, from /proc/PID/stat) per second of wall time, as a share of one core
    and of the whole machine (all cores);
  - ring overruns: the monitor's `overrun` log lines (and overrun events in its play log), and JACK's xruns;
  - plays logged, to show the channels were really matched.
The main run (--channels, --minutes) is the requirement: zero overruns and under 50 % of the machine. The ramp
then tries more channels for --ramp-minutes each and reports where overruns begin.
"""
import argparse
import os
import re
import sqlite3
import subprocess
import tempfile
import time

from livebench import (BENCHMARKS, BIN, CACHE, CATALOG, JACK_ENV, cpu_seconds, fresh_database, require,
                       start_jackd, start_monitor, stop_all, wait_for)

CORES = os.cpu_count()


def run(channels, minutes, args, source):
    out = os.path.join(args.out, f"{channels}ch")
    db = fresh_database(out)
    server = f"bm-capacity-{os.getpid()}-{channels}"
    processes = []
    try:
        jack_log_path = os.path.join(out, "jackd.log")
        start_jackd(server, jack_log_path, processes, max_ports=max(1024, 8 * channels))
        log_path = os.path.join(out, "monitor.log")
        monitor = start_monitor(args.bin, args.catalog, db, server, [f"ch{i}" for i in range(1, channels + 1)],
                                log_path, processes)
        source_log = os.path.join(out, "jack-source.log")
        processes.append(subprocess.Popen([args.benchmarks, "jack-source", server, str(channels), "bm", source],
                                          stdout=open(source_log, "w"), stderr=subprocess.STDOUT, env=JACK_ENV))
        wait_for(lambda: "stereo channels from" in open(source_log).read(), 120, "the source's first audio")
        time.sleep(20)  # warm-up: rings, pipelines and page cache settle
        overruns0 = open(log_path).read().count("] overrun:")
        xruns0 = open(jack_log_path).read().count("XRun")  # those while 2 × CHANNELS ports were being connected
        t0, c0 = time.time(), cpu_seconds(monitor.pid)
        deadline = t0 + minutes * 60
        while time.time() < deadline:
            if monitor.poll() is not None:
                raise RuntimeError("the monitor exited; see " + log_path)
            time.sleep(1)
        t1, c1 = time.time(), cpu_seconds(monitor.pid)
        log = open(log_path).read()
        overruns = log.count("] overrun:") - overruns0
        dropped = sum(int(n) for n in re.findall(r"overrun: (\d+) samples dropped", log))
        xruns_measured = open(jack_log_path).read().count("XRun") - xruns0
    finally:
        stop_all(processes)
    plays = sqlite3.connect(db).execute("SELECT count(*) FROM plays").fetchone()[0]
    xruns_total = open(jack_log_path).read().count("XRun")
    core_share = (c1 - c0) / (t1 - t0)
    return {"channels": channels, "seconds": t1 - t0, "core": core_share, "machine": core_share / CORES,
            "overruns": overruns, "dropped": dropped, "xruns": xruns_measured, "xruns_setup": xruns_total - xruns_measured,
            "plays": plays}


def report(r):
    print(f"{r['channels']:4d} stereo channels, {r['seconds'] / 60:4.1f} min: monitor CPU {100 * r['core']:5.1f} % "
          f"of one core = {100 * r['machine']:4.1f} % of the machine ({CORES} cores); overrun notices "
          f"{r['overruns']} ({r['dropped']} samples dropped); JACK xruns {r['xruns']} (and {r['xruns_setup']} outside the measured span: "
          f"connecting the ports, stopping); plays logged {r['plays']}",
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--channels", type=int, default=64, help="the main run; 0 skips it")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--ramp", default="96,128,192,256,384")
    ap.add_argument("--ramp-minutes", type=float, default=2)
    ap.add_argument("--sim", default=os.path.join(CACHE, "sims", "dev-radio-s1", "ch01.wav"))
    ap.add_argument("--catalog", default=CATALOG)
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--benchmarks", default=BENCHMARKS)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "bm-capacity"))
    args = ap.parse_args()
    require("capacity", [(args.bin, "swift build -c release"), (args.benchmarks, "swift build -c release"),
                         (args.catalog, "bash bench/yardstick.sh"), (args.sim, "bash bench/yardstick.sh")])
    os.makedirs(args.out, exist_ok=True)
    source = os.path.join(args.out, "source-10min.wav")
    if not os.path.exists(source):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", args.sim, "-t", "600", "-ar", "48000",
                        "-ac", "2", source], check=True)
    if args.channels > 0:
        main_run = run(args.channels, args.minutes, args, source)
        report(main_run)
        ok = main_run["overruns"] == 0 and main_run["machine"] < 0.5
        print(f"requirement ({args.channels} channels, zero overruns, under 50 % of the machine): "
              f"{'met' if ok else 'NOT met'}", flush=True)
    onset = None
    for channels in [int(c) for c in args.ramp.split(",") if c]:
        r = run(channels, args.ramp_minutes, args, source)
        report(r)
        if r["overruns"] > 0:
            onset = channels
            break
    if onset:
        print(f"overruns begin at {onset} stereo channels (or before: the ramp steps were {args.ramp})")
    elif args.ramp:
        print(f"no overruns up to {args.ramp.split(',')[-1]} stereo channels")


if __name__ == "__main__":
    main()
