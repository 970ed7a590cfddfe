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
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.environ.get("EVAL_CACHE", os.path.expanduser("~/.cache/bmon-eval"))
TICKS = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count()


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14 and 15 of the full line)


def wait_for(predicate, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not happen within {seconds} s")


def run(channels, minutes, args, source):
    out = os.path.join(args.out, f"{channels}ch")
    os.makedirs(out, exist_ok=True)
    db = os.path.join(out, "plays.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    server = f"bm-capacity-{os.getpid()}-{channels}"
    env = dict(os.environ, JACK_NO_AUDIO_RESERVATION="1", JACK_NO_START_SERVER="1")
    processes = []
    try:
        jack_log_path = os.path.join(out, "jackd.log")
        processes.append(subprocess.Popen(
            ["jackd", "-n", server, "-p", str(max(1024, 8 * channels)), "-d", "dummy", "-r", "48000", "-p", "1024"],
            stdout=open(jack_log_path, "w"), stderr=subprocess.STDOUT, env=env))
        wait_for(lambda: subprocess.run(["jack_lsp", "-s", server], capture_output=True, env=env).returncode == 0,
                 15, "jackd start")
        log_path = os.path.join(out, "monitor.log")
        command = [args.bin, "run", "--catalog", args.catalog, "--db", db, "--jack-server", server,
                   "--jack-client", "bm", "--log"]
        for i in range(1, channels + 1):
            command += ["--channel", f"ch{i}=jack"]
        monitor = subprocess.Popen(command, stdout=open(log_path, "w"), stderr=subprocess.STDOUT, env=env)
        processes.append(monitor)
        wait_for(lambda: "JACK client 'bm'" in open(log_path).read(), 60, "the monitor's JACK client")
        source_log = os.path.join(out, "jack-source.log")
        processes.append(subprocess.Popen([args.benchmarks, "jack-source", server, str(channels), "bm", source],
                                          stdout=open(source_log, "w"), stderr=subprocess.STDOUT, env=env))
        wait_for(lambda: "stereo channels from" in open(source_log).read(), 120, "the source's first audio")
        time.sleep(20)  # warm-up: rings, pipelines and page cache settle
        overruns0 = open(log_path).read().count("] overrun:")
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
    finally:
        for p in reversed(processes):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(processes):
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
    plays = sqlite3.connect(db).execute("SELECT count(*) FROM plays").fetchone()[0]
    xruns = open(jack_log_path).read().lower().count("xrun")
    core_share = (c1 - c0) / (t1 - t0)
    return {"channels": channels, "seconds": t1 - t0, "core": core_share, "machine": core_share / CORES,
            "overruns": overruns, "dropped": dropped, "xruns": xruns, "plays": plays}


def report(r):
    print(f"{r['channels']:4d} stereo channels, {r['seconds'] / 60:4.1f} min: monitor CPU {100 * r['core']:5.1f} % "
          f"of one core = {100 * r['machine']:4.1f} % of the machine ({CORES} cores); overrun notices "
          f"{r['overruns']} ({r['dropped']} samples dropped); JACK xruns {r['xruns']}; plays logged {r['plays']}",
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--channels", type=int, default=64)
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--ramp", default="96,128,192,256,384")
    ap.add_argument("--ramp-minutes", type=float, default=2)
    ap.add_argument("--sim", default=os.path.join(CACHE, "sims", "dev-radio-s1", "ch01.wav"))
    ap.add_argument("--catalog", default="/tmp/bm-yardstick/dev.bmcat")
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "broadcast-monitor"))
    ap.add_argument("--benchmarks", default=os.path.join(ROOT, ".build", "release", "Benchmarks"))
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "bm-capacity"))
    args = ap.parse_args()
    for path, hint in [(args.bin, "swift build -c release"), (args.benchmarks, "swift build -c release"),
                       (args.catalog, "bash bench/yardstick.sh"), (args.sim, "bash bench/yardstick.sh")]:
        if not os.path.exists(path):
            sys.exit(f"capacity: {path} is missing (make it with: {hint})")
    os.makedirs(args.out, exist_ok=True)
    source = os.path.join(args.out, "source-10min.wav")
    if not os.path.exists(source):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", args.sim, "-t", "600", "-ar", "48000",
                        "-ac", "2", source], check=True)
    main_run = run(args.channels, args.minutes, args, source)
    report(main_run)
    ok = main_run["overruns"] == 0 and main_run["machine"] < 0.5
    print(f"requirement ({args.channels} channels, zero overruns, under 50 % of the machine): "
          f"{'met' if ok else 'NOT met'}", flush=True)
    onset = None
    for channels in [int(c) for c in args.ramp.split(",") if c]:
        r = run(channels, args.ramp_minutes, args, source)
        report(r)
        if r["overruns"] > 0 or r["xruns"] > 0:
            onset = channels
            break
    if onset:
        print(f"overruns begin at {onset} stereo channels (or before: the ramp steps were {args.ramp})")
    elif args.ramp:
        print(f"no overruns up to {args.ramp.split(',')[-1]} stereo channels")


if __name__ == "__main__":
    main()
