#!/usr/bin/env python3
"""The HTTP API's cost and speed with 16 channels running: latency at 50 requests/s, /metrics scrape time, and the
CPU the HTTP server takes idle and under that load.

    python3 bench/http_api.py [--bin .build/release/broadcast-monitor] [--seconds 60] [--rate 50]

Runs `broadcast-monitor run` with 16 looped file channels (the test fixtures, so nothing to fetch) and its HTTP
server on a free loopback port, then measures, in this order:
  - idle: the monitor's CPU (user + system, /proc/PID/stat) over SECONDS with no request, and the same with
    `--http off` in a second monitor: their difference is the idle server's cost;
  - load: RATE requests/s for SECONDS, spread over /api/v1/channels, /api/v1/plays?limit=100, /api/v1/events,
    /metrics and /healthz (one new connection each, as curl and Prometheus make them); latency p50, p99 and max,
    and the CPU over the idle run's;
  - /metrics: 200 scrapes one after the other, median and p99.
Prints one line per figure. Needs the release build (`swift build -c release`) for figures worth quoting.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from livebench import cpu_seconds

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MUSIC = os.path.join(ROOT, "Tests", "Fixtures", "music")
CHANNELS = 16
PATHS = ["/api/v1/channels", "/api/v1/plays?limit=100", "/api/v1/events", "/metrics", "/healthz"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(binary, folder, name, http):
    catalog = os.path.join(folder, "music.bmcat")
    if not os.path.exists(catalog):
        subprocess.run([binary, "catalog", "add", "--catalog", catalog, "--metadata", os.path.join(MUSIC, "tracks.csv")]
                       + [os.path.join(MUSIC, f"catalog-{x}.ogg") for x in "abc"], check=True, capture_output=True)
    channels = []
    for i in range(CHANNELS):
        channels += ["--channel", f"ch{i:02d}=file+loop:" + os.path.join(MUSIC, f"catalog-{'abc'[i % 3]}.ogg")]
    log = open(os.path.join(folder, f"{name}.log"), "w")
    process = subprocess.Popen([binary, "run", "--log", "--catalog", catalog, "--db", os.path.join(folder, f"{name}.sqlite"),
                                "--http", http] + channels, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        text = open(os.path.join(folder, f"{name}.log")).read()
        if text.count("play started") >= CHANNELS:
            return process
        if process.poll() is not None:
            sys.exit(f"the monitor exited:\n{text}")
        time.sleep(0.2)
    sys.exit("the channels did not all start playing within 60 s")


def get(port, path):
    began = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        response.read()
    return time.perf_counter() - began


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def cpu_over(pid, seconds):
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return (cpu_seconds(pid) - before) / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    release = os.path.join(ROOT, ".build", "release", "broadcast-monitor")
    parser.add_argument("--bin", default=release if os.path.exists(release) else os.path.join(ROOT, ".build", "debug", "broadcast-monitor"))
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=float, default=50)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bm-http-bench-")
    print(f"binary {args.bin}; {CHANNELS} looped file channels; {os.cpu_count()} cores; work in {folder}")

    port = free_port()
    served = start(args.bin, folder, "served", f"127.0.0.1:{port}")
    quiet = start(args.bin, folder, "quiet", "off")
    try:
        time.sleep(5)
        idle_served = cpu_over(served.pid, args.seconds)
        idle_quiet = cpu_over(quiet.pid, args.seconds)
        quiet.terminate()
        quiet.wait()
        print(f"idle: monitor with the server {idle_served * 100:.1f} % of a core, without {idle_quiet * 100:.1f} %: "
              f"server idle {max(0, idle_served - idle_quiet) * 100:.2f} % (difference of two runs, noise included)")

        latencies, errors = [], []
        lock = threading.Lock()

        def one(path):
            try:
                elapsed = get(port, path)
                with lock:
                    latencies.append(elapsed)
            except Exception as error:  # noqa: BLE001 - every failure is counted and shown
                with lock:
                    errors.append(f"{path}: {error}")

        before = cpu_seconds(served.pid)
        began = time.perf_counter()
        count = int(args.seconds * args.rate)
        threads = []
        for i in range(count):
            target = began + i / args.rate
            delay = target - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            thread = threading.Thread(target=one, args=(PATHS[i % len(PATHS)],))
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - began
        loaded = (cpu_seconds(served.pid) - before) / wall
        print(f"load: {len(latencies)} requests at {args.rate:g}/s over {wall:.0f} s, {len(errors)} failed; latency "
              f"p50 {percentile(latencies, 0.5) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} ms, "
              f"max {max(latencies) * 1000:.1f} ms")
        print(f"load: monitor {loaded * 100:.1f} % of a core, {(loaded - idle_served) * 100:.1f} % more than idle "
              f"(the HTTP server's cost at {args.rate:g} requests/s)")
        for error in errors[:5]:
            print("  failed:", error)

        scrapes = [get(port, "/metrics") for _ in range(200)]
        size = len(urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read())
        print(f"/metrics: {size} bytes for {CHANNELS} channels; scrape median {statistics.median(scrapes) * 1000:.2f} ms, "
              f"p99 {percentile(scrapes, 0.99) * 1000:.2f} ms (client included, new connection each)")
        text = open(os.path.join(folder, "served.log")).read()
        print(f"overruns logged during the run: {text.count('overrun')}")
    finally:
        for process in (served, quiet):
            if process.poll() is None:
                process.terminate()
                process.wait()


if __name__ == "__main__":
    main()
