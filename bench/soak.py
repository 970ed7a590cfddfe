#!/usr/bin/env python3
"""Soak: does a monitor that runs for weeks keep its memory, descriptors, threads and processes flat?

    python3 bench/soak.py [--minutes 40] [--warmup-minutes 5] [--channels 16] [--reload-minutes 2] [--database URL]
                          [--excerpt-start SECONDS] [--clips]

Runs `broadcast-monitor run` (release build, dev catalog, an SQLite play log, or the PostgreSQL one at --database)
from a configuration file, as a station does, and works every part that a long run repeats:
  - CHANNELS stereo JACK channels (private jackd, dummy driver) fed by `Benchmarks jack-source` with a 10-minute
    excerpt of a simulated radio channel (from --excerpt-start), looped, each channel from another offset: plays start
    and end all the time. The first 10 minutes of `dev-radio-s1` channel 1 hold no unknown music; from 2600 s they
    hold two unknown recordings, so that every channel airs each of them every 10 minutes and the unknown-music
    clusters take an airing a few times a minute (with --clips, each with its Opus clip);
  - a `file+loop:` channel of the same excerpt (an ffmpeg decoder that runs for the whole soak);
  - a stream channel whose server refuses every connection: `source_down` opens, and the input reconnects forever;
  - a configuration reload (SIGHUP) every --reload-minutes that adds or removes another `file+loop:` channel, in
    turn: a pipeline, its ffmpeg and its plays made and torn down;
  - a webhook receiver that takes the alerts;
  - HTTP clients: one that asks for the channels, plays, events, alerts, /metrics, /healthz, the dashboard and a
    CSV report in turn (a new connection each, about five a second), and one that reads the event stream for 60 s,
    drops it and connects again.
Every --sample-seconds it reads /proc for the monitor's resident memory (anonymous and file-backed apart: the
catalog and libraries are file pages, a leak is anonymous), open descriptors, threads and child processes.

With PostgreSQL, on a private server that is stopped and removed afterwards:

    bash -c 'source bench/private_postgresql.sh; start_private_play_log soak; trap stop_private_postgresql EXIT
             python3 bench/soak.py --database "$URL"'

It prints the samples, then the figures over the soak after the warm-up: the anonymous memory's growth per hour by
least squares over the second half, and that growth over 30 days; descriptors, threads and children at the warm-up's
end against the last minutes; plays, overruns, reloads, HTTP answers and the stop. Flat means: no overrun, every
reload done, a clean stop (exit status 0), no descriptor, thread or child more at the end than at the warm-up's end
(the fewest of the first ten minutes after it against the fewest of the last ten, so that an HTTP connection or a
reconnect's ffmpeg in flight at a sample does not count), and anonymous memory growing by less than the warm-up's
anonymous memory in 30 days (a monitor that would not double in a month).
"""
import argparse
import http.client
import http.server
import json
import os
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time

from livebench import (BENCHMARKS, BIN, CACHE, CATALOG, JACK_ENV, cpu_seconds, fresh_database, require, start_jackd,
                       stop_all, wait_for)



def proc_status(pid):
    """VmRSS, RssAnon, RssFile in MB and Threads, from /proc/PID/status."""
    fields = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        fields[key] = value.split()
    mb = lambda key: int(fields[key][0]) / 1024  # kB
    return {"rss": mb("VmRSS"), "anon": mb("RssAnon"), "file": mb("RssFile"), "threads": int(fields["Threads"][0])}


def children(pid):
    """The monitor's child processes (ffmpeg decoders, ffprobe, alert commands)."""
    found = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found += 1
    return found


def sample(pid, t0):
    s = proc_status(pid)
    s["minute"] = (time.time() - t0) / 60
    s["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    s["children"] = children(pid)
    s["cpu"] = cpu_seconds(pid)
    return s


def slope_per_hour(points):
    """Least-squares slope of (minute, value) points, per hour."""
    n = len(points)
    if n < 2:
        return float("nan")
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return 60 * sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else float("nan")


def write_config(path, args, db, port, webhook_port, source, extra):
    """The monitor's configuration: `extra` adds the channel that the reloads add and remove in turn."""
    channels = [{"name": f"ch{i}", "source": "jack", "timeZone": "UTC"} for i in range(1, args.channels + 1)]
    channels.append({"name": "looped", "source": f"file+loop:{source}", "timeZone": "UTC"})
    channels.append({"name": "dead", "source": "http://127.0.0.1:9/refused.mp3", "timeZone": "UTC"})
    if extra:
        channels.append({"name": "extra", "source": f"file+loop:{source}", "timeZone": "UTC"})
    config = {
        "catalogPath": args.catalog,
        **({"database": {"url": args.database, "node": "soak"}, "spoolDirectory": args.out} if args.database
           else {"databasePath": db}),
        "jack": {"clientName": "bm", "serverName": args.server},
        "http": {"listen": f"127.0.0.1:{port}"},
        "alerts": {"sourceDown": {"forSeconds": 10},
                   "webhooks": [{"url": f"http://127.0.0.1:{webhook_port}/alerts"}]},
        "channels": channels,
        **({"unknown": {"clipsDirectory": os.path.join(args.out, "clips")}} if args.clips else {}),
    }
    with open(path + ".new", "w") as f:
        json.dump(config, f, indent=1)
    os.replace(path + ".new", path)


class Webhook(http.server.BaseHTTPRequestHandler):
    received = 0

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Webhook.received += 1
        self.send_response(204)
        self.end_headers()

    def log_message(self, *_):
        pass


def http_client(port, stop, counts):
    paths = ["/api/v1/channels", "/api/v1/plays?limit=100", "/api/v1/events?limit=100", "/api/v1/alerts",
             "/metrics", "/healthz", "/", "/api/v1/reports/plays.csv?tz=UTC"]
    i = 0
    while not stop.is_set():
        path = paths[i % len(paths)]
        i += 1
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET", path)
            r = c.getresponse()
            r.read()
            c.close()
            key = "ok" if r.status in (200, 503) else f"status {r.status}"  # 503: /healthz names the dead stream
            counts[key] = counts.get(key, 0) + 1
        except OSError as e:
            counts[f"error {type(e).__name__}"] = counts.get(f"error {type(e).__name__}", 0) + 1
        stop.wait(0.2)


def event_stream_client(port, stop, counts):
    while not stop.is_set():
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET", "/api/v1/events/stream")
            r = c.getresponse()
            until = time.time() + 60
            while time.time() < until and not stop.is_set():
                line = r.fp.readline()
                if not line:
                    break
                if line.startswith(b"event:"):
                    counts["events"] = counts.get("events", 0) + 1
            c.close()
            counts["streams"] = counts.get("streams", 0) + 1
        except OSError as e:
            counts[f"stream error {type(e).__name__}"] = counts.get(f"stream error {type(e).__name__}", 0) + 1
            stop.wait(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=40, help="the whole soak, warm-up included")
    ap.add_argument("--warmup-minutes", type=float, default=5)
    ap.add_argument("--channels", type=int, default=16)
    ap.add_argument("--reload-minutes", type=float, default=2)
    ap.add_argument("--sample-seconds", type=float, default=10)
    ap.add_argument("--sim", default=os.path.join(CACHE, "sims", "dev-radio-s1", "ch01.wav"))
    ap.add_argument("--catalog", default=CATALOG)
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--benchmarks", default=BENCHMARKS)
    ap.add_argument("--database", help="a PostgreSQL play log (postgresql://…) instead of SQLite in --out")
    ap.add_argument("--excerpt-start", type=float, default=0, help="where the 10-minute excerpt starts, in seconds")
    ap.add_argument("--clips", action="store_true", help="keep the clips of unknown music (in --out/clips)")
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "bm-soak"))
    args = ap.parse_args()
    require("soak", [(args.bin, "swift build -c release"), (args.benchmarks, "swift build -c release"),
                     (args.catalog, "bash bench/yardstick.sh"), (args.sim, "bash bench/yardstick.sh")])
    if args.minutes < args.warmup_minutes + 2:
        raise SystemExit("soak: --minutes must leave at least 2 minutes after the warm-up")
    os.makedirs(args.out, exist_ok=True)
    args.server = f"bm-soak-{os.getpid()}"
    source = os.path.join(args.out, f"source-10min-from-{args.excerpt_start:g}.wav")
    if not os.path.exists(source):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", f"{args.excerpt_start:g}", "-i", args.sim,
                        "-t", "600", "-ar", "48000", "-ac", "2", source], check=True)
    db = fresh_database(args.out)
    config = os.path.join(args.out, "monitor.json")
    log_path = os.path.join(args.out, "monitor.log")
    webhook = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Webhook)
    threading.Thread(target=webhook.serve_forever, daemon=True).start()
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Webhook) as probe:
        port = probe.server_address[1]  # a free port for the monitor's HTTP server
    extra = False
    write_config(config, args, db, port, webhook.server_address[1], source, extra)

    processes, samples, counts, stop = [], [], {}, threading.Event()
    reloads_sent = 0
    try:
        jack_log = os.path.join(args.out, "jackd.log")
        start_jackd(args.server, jack_log, processes)
        monitor = subprocess.Popen([args.bin, "run", "--config", config, "--log"], stdout=open(log_path, "w"),
                                   stderr=subprocess.STDOUT, env=JACK_ENV)
        processes.append(monitor)
        wait_for(lambda: "JACK client 'bm'" in open(log_path).read(), 60, "the monitor's JACK client")
        source_log = os.path.join(args.out, "jack-source.log")
        processes.append(subprocess.Popen([args.benchmarks, "jack-source", args.server, str(args.channels), "bm",
                                           source], stdout=open(source_log, "w"), stderr=subprocess.STDOUT,
                                          env=JACK_ENV))
        wait_for(lambda: "stereo channels from" in open(source_log).read(), 120, "the source's first audio")
        clients = [threading.Thread(target=http_client, args=(port, stop, counts), daemon=True),
                   threading.Thread(target=event_stream_client, args=(port, stop, counts), daemon=True)]
        for c in clients:
            c.start()
        t0 = time.time()
        end = t0 + args.minutes * 60
        next_reload = t0 + args.reload_minutes * 60
        print(f"soak: {args.channels} JACK channels, 1 looped file, 1 dead stream, a reload every "
              f"{args.reload_minutes:g} min, {args.minutes:g} min (warm-up {args.warmup_minutes:g}); log {log_path}",
              flush=True)
        print(f"{'minute':>6} {'RSS MB':>8} {'anon MB':>8} {'file MB':>8} {'fds':>5} {'threads':>7} {'children':>8}",
              flush=True)
        last_print = -1
        while time.time() < end:
            if monitor.poll() is not None:
                raise RuntimeError(f"the monitor exited with {monitor.returncode}; see {log_path}")
            s = sample(monitor.pid, t0)
            samples.append(s)
            if int(s["minute"]) // 5 != last_print:
                last_print = int(s["minute"]) // 5
                print(f"{s['minute']:6.1f} {s['rss']:8.1f} {s['anon']:8.1f} {s['file']:8.1f} {s['fds']:5d} "
                      f"{s['threads']:7d} {s['children']:8d}", flush=True)
            if time.time() >= next_reload:
                extra = not extra
                write_config(config, args, db, port, webhook.server_address[1], source, extra)
                monitor.send_signal(signal.SIGHUP)
                reloads_sent += 1
                next_reload += args.reload_minutes * 60
            time.sleep(args.sample_seconds)
        stop.set()
        monitor.send_signal(signal.SIGTERM)  # before jackd, as a station's service stops
        stop_seconds = time.time()
        exit_status = monitor.wait(timeout=60)
        stop_seconds = time.time() - stop_seconds
        log = open(log_path).read()
        reloads_done = log.count("SIGHUP: configuration reloaded")
        overruns = log.count("] overrun:")
        lagging = log.count("] lagging:")
        final = samples[-1]
    finally:
        stop.set()
        stop_all(processes)
        webhook.shutdown()
    unknown_query = "SELECT count(*), count(DISTINCT cluster) FROM unknown_segments"
    if args.database:
        def psql(sql):
            return subprocess.run(["psql", args.database, "-X", "-A", "-t", "-q", "-F", " ", "-c", sql],
                                  capture_output=True, text=True, check=True).stdout.split()
        plays = int(psql("SELECT count(*) FROM plays")[0])
        segments, clusters = map(int, psql(unknown_query))
    else:
        plays = sqlite3.connect(db).execute("SELECT count(*) FROM plays").fetchone()[0]
        segments, clusters = sqlite3.connect(db).execute(unknown_query).fetchone()
    cpu_minutes = final["cpu"] / 60

    after = [s for s in samples if s["minute"] >= args.warmup_minutes]
    half = [s for s in after if s["minute"] >= (args.warmup_minutes + args.minutes) / 2]
    window = min(10, (args.minutes - args.warmup_minutes) / 2)  # minutes compared at each end
    first10 = [s for s in after if s["minute"] < args.warmup_minutes + window]
    last10 = [s for s in after if s["minute"] >= args.minutes - window]
    anon_slope = slope_per_hour([(s["minute"], s["anon"]) for s in half])
    rss_slope = slope_per_hour([(s["minute"], s["rss"]) for s in half])
    base = after[0]
    print()
    print(f"after the warm-up ({base['minute']:.1f} min) to the end ({final['minute']:.1f} min):")
    print(f"  anonymous memory {base['anon']:.1f} → {final['anon']:.1f} MB; over the second half "
          f"{anon_slope:+.2f} MB/h by least squares ({anon_slope * 720:+.0f} MB in 30 days); "
          f"resident {base['rss']:.1f} → {final['rss']:.1f} MB ({rss_slope:+.2f} MB/h)")
    flat = {}
    for key in ("fds", "threads", "children"):
        # The fewest of each window: a leak raises the floor, an HTTP connection or a reconnect's ffmpeg in flight
        # at a sample only the top.
        early, late = min(s[key] for s in first10), min(s[key] for s in last10)
        flat[key] = late <= early
        print(f"  {key}: fewest in the first {window:g} minutes {early}, in the last {window:g} {late} "
              f"(range over the soak {min(s[key] for s in after)}–{max(s[key] for s in after)})")
    print(f"  unknown segments {segments} in {clusters} clusters; lagging notices {lagging}")
    print(f"  plays logged {plays}; overrun notices {overruns}; reloads {reloads_done} of {reloads_sent}; "
          f"webhook deliveries {Webhook.received}; CPU {cpu_minutes:.1f} min in {final['minute']:.1f} min; "
          f"stopped in {stop_seconds:.1f} s with exit status {exit_status}")
    print(f"  HTTP: {', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}")
    memory_ok = anon_slope * 720 < base["anon"]
    ok = (overruns == 0 and exit_status == 0 and reloads_done == reloads_sent and all(flat.values()) and memory_ok
          and not any(k.startswith(("error", "status", "stream error")) for k in counts))
    print(f"flat (no overrun, every reload done, a clean stop, no descriptor, thread or child more, every HTTP "
          f"request answered, anonymous memory not doubling in 30 days): {'yes' if ok else 'NO'}")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
