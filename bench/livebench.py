"""What the live benchmarks (capacity.py, live_latency.py, jack_restart.py) share: paths, a private jackd with the
dummy driver, the monitor's command line, waiting, and stopping everything they started."""
import os
import signal
import subprocess
import sys
import time
from datetime import datetime

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.environ.get("EVAL_CACHE", os.path.expanduser("~/.cache/bmon-eval"))
BIN = os.path.join(ROOT, ".build", "release", "broadcast-monitor")
BENCHMARKS = os.path.join(ROOT, ".build", "release", "Benchmarks")
CATALOG = "/tmp/bm-yardstick/dev.bmcat"  # bench/yardstick.sh builds it from the dev corpus
TRACKS = os.path.join(CACHE, "corpora", "dev", "tracks.csv")
JACK_ENV = dict(os.environ, JACK_NO_AUDIO_RESERVATION="1", JACK_NO_START_SERVER="1")


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """A process's CPU time so far, user + system, in seconds (fields 14 and 15 of /proc/PID/stat)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def parse_time(text):
    """ISO 8601 (with Z) to seconds since 1970."""
    text = text.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    return datetime.fromisoformat(text).timestamp()


def percentile(values, p):
    """The p-th percentile of `values` by linear interpolation between ranks; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def wait_for(predicate, seconds, what):
    """Polls `predicate` until it is true; returns the time it became true. Raises after `seconds`."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return time.time()
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not happen within {seconds} s")


def require(name, paths):
    """Exits with the fix when a file the benchmark needs is missing."""
    for path, hint in paths:
        if not os.path.exists(path):
            sys.exit(f"{name}: {path} is missing (make it with: {hint})")


def fresh_database(folder):
    os.makedirs(folder, exist_ok=True)
    db = os.path.join(folder, "plays.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    return db


def start_jackd(server, log_path, processes, max_ports=1024):
    """A private jackd (dummy driver, 48 kHz, 1024 frames) named `server`; returns it once jack_lsp answers."""
    p = subprocess.Popen(
        ["jackd", "-n", server, "-p", str(max_ports), "-d", "dummy", "-r", "48000", "-p", "1024"],
        stdout=open(log_path, "w"), stderr=subprocess.STDOUT, env=JACK_ENV)
    processes.append(p)
    wait_for(lambda: subprocess.run(["jack_lsp", "-s", server], capture_output=True, env=JACK_ENV).returncode == 0,
             15, f"jackd -n {server}")
    return p


def start_monitor(binary, catalog, db, server, channels, log_path, processes):
    """`broadcast-monitor run` with one stereo JACK channel per name in `channels`, client name `bm`; returns once
    its JACK client is up."""
    command = [binary, "run", "--catalog", catalog, "--db", db, "--jack-server", server, "--jack-client", "bm",
               "--log"]
    for channel in channels:
        command += ["--channel", f"{channel}=jack"]
    monitor = subprocess.Popen(command, stdout=open(log_path, "w"), stderr=subprocess.STDOUT, env=JACK_ENV)
    processes.append(monitor)
    wait_for(lambda: "JACK client 'bm'" in open(log_path).read(), 60, "the monitor's JACK client")
    return monitor


def stop_all(processes, timeout=60):
    """SIGTERM to everything still running, newest first; SIGKILL what does not exit within `timeout`."""
    for p in reversed(processes):
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in reversed(processes):
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
