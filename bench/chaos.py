#!/usr/bin/env python3
"""Chaos: simulated air through JACK and Icecast streams while the monitor, jackd, the streams, the disk and the
play log's lock fail at random times; then the play log is scored against the simulation's truth.

    python3 bench/chaos.py [--minutes 30] [--seed 1] [--channels 16] [--streams 6] [--out DIR]
    python3 bench/chaos.py --minutes 3          # a smoke test: one fault of each kind

Air: the channels of the simulations in --sims (made by ../shared/eval/simulate.py, 2 channels x 1 h each; the
default six are dev-{radio,hard}-s{1,2,3}, and the bench waits for them while another process makes them). With
more channels than simulated ones, a simulated channel is used again from a later offset. --streams of the
channels go through a private icecast2 (one `ffmpeg -re` source per mount, MP3 128k), the rest through a private
jackd (dummy driver) with `broadcast-monitor feed`. The monitor (`run --log`, release build) connects the feeds'
ports itself (`jack:feed-chNN:out_L,...`), so it finds them again after its own restart. Its play log lives in a
small tmpfs mounted for its folder (root only), so that the disk can be filled. With --clips KINDS (default
"all"), the monitor keeps clips of its catalog plays of those kinds (`unknown.catalogPlayClips`, in a --config
the bench writes) in the same tmpfs, so that kill -9 and the full disk also hit the clips.

Faults, each kind --faults-per-kind times (default: one per 10 minutes), at times drawn from --seed; faults of
different kinds may overlap, as they would in life:
  kill    SIGKILL to the monitor; restarted 2 s later (the systemd unit's RestartSec), as is any other exit;
  jackd   SIGKILL to jackd, a new one 2-10 s later; the feeds start again where the air is when their audio
          starts (`feed --on-air-since`: real air does not pause while a box restarts);
  stream  one stream's source stops for 5-60 s (the mount answers 404) and starts again where the air is;
  disk    the play log's file system is filled with a file for 15-60 s, then the file is removed;
  lock    another process holds an SQLite write transaction on the play log for 5-30 s.
Air goes on through every fault: audio aired while the monitor cannot hear it is not heard again.

Scoring, in the simulation's time (each feed's and source's start is recorded to map it to wall-clock time):
  expected   truth airings of --min-airing-s or more, heard for --min-heard-s or more outside the outages (the
             monitor down or starting, jackd down, the stream down), and found by an offline `scan` of the same
             simulated channel (so the matcher can find them at all);
  lost       expected airings with no play row;
  cut short  expected airings with rows that leave --min-heard-s or more of what was heard in no row (the writes
             of a play that waited in memory and were lost);
  doubled    airings with two or more play rows (extra rows counted: `report airplay` counts each row);
  open       plays still `open` after the final SIGTERM (should be 0); `PRAGMA integrity_check` (should be ok).
  downtime   for each SIGKILL, the channels with no `gap` row spanning the moment of the kill (the next start
             writes each one's from its last heartbeat; should be none), and the channels with no open gap from
             the final SIGTERM (should be none).
  false      rows that match no truth airing of their channel (attributed to the nearest fault, as lost ones).
  clips      `play_clips` rows, the clip files at the end, rows whose file is gone (retention deletes the oldest
             beyond CLIPS_GIGABYTES), files no row names (a clip written, its row lost) and the hidden files of
             clips never finished (an encoding cut by kill -9 leaves them).
Lost airings are attributed to the nearest fault that touched their channel while they aired, each extra row
of a doubled airing to the fault nearest to the break between its rows, a cut-short airing to the fault nearest
to where its rows stop ("none" beyond ATTRIBUTION_MARGIN_S). Everything goes to --out (default /tmp/bm-chaos):
logs, the play log, schedule.json, state.json, result.json.
"""
import argparse
import csv
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time

from livebench import BIN, CACHE, JACK_ENV, parse_time, require, start_jackd, stop_all, wait_for

KINDS = ["kill", "jackd", "stream", "disk", "lock"]
# Duration ranges in seconds (for `kill`, the monitor's restart delay, the systemd unit's RestartSec).
DURATIONS = {"kill": (2, 2), "jackd": (2, 10), "stream": (5, 60), "disk": (15, 60), "lock": (5, 30)}
RESTART_SECONDS = 2
# The first faults come after this warm-up, the last ends this long before the end, so every play can close.
WARMUP_S, TAIL_S = 40, 60
# Outages are widened by this on their end: a source needs a moment to be heard again (stream connect, anchor).
RECOVER_S = 3
# A lost or doubled airing is attributed to a fault that touched its channel within this margin of its span.
ATTRIBUTION_MARGIN_S = 30
# The play log's tmpfs: the play log (a few MB) and the clips, which retention keeps under CLIPS_GIGABYTES.
DB_FS_MB = 128
CLIPS_GIGABYTES = 0.08
SIMS = [f"dev-{profile}-s{seed}" for profile in ("radio", "hard") for seed in (1, 2, 3)]
TRACKS = os.path.join(CACHE, "corpora", "dev", "tracks.csv")
SCAN_ORIGIN = "2026-01-01T00:00:00Z"


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def sim_complete(path):
    """params.json is written last by simulate.py, after every chNN.wav, truth.csv and segments.csv."""
    return os.path.exists(os.path.join(path, "params.json")) and os.path.exists(os.path.join(path, "truth.csv"))


def wav_seconds(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                         capture_output=True, text=True, check=True).stdout
    return float(out)


class Channel:
    """One monitored channel: a simulated channel's WAV from `offset` seconds, through JACK or a stream. `epochs`
    maps air to wall-clock time: from wall time w on, the channel airs the WAV's second w - origin."""

    def __init__(self, name, sim, sim_channel, wav, offset, stream):
        self.name, self.sim, self.sim_channel, self.wav, self.offset, self.stream = (
            name, sim, sim_channel, wav, offset, stream)
        self.epochs = []  # (wall_from, origin)
        self.outages = []  # (wall_from, wall_to), filled in as faults happen
        self.process = None

    def origin_at(self, wall):
        origin = self.epochs[0][1]
        for start, o in self.epochs:
            if start <= wall + 1:
                origin = o
        return origin

    def air_now(self):
        return time.time() - self.epochs[-1][1]


class Chaos:
    def __init__(self, args):
        self.args = args
        self.out = args.out
        self.processes = []
        self.faults = []  # dicts: kind, at, seconds, channel, and what happened
        self.monitor = None
        self.monitor_starts = 0
        self.monitor_exits = []  # (wall, status) of exits the bench did not cause
        self.monitor_ready = []  # wall times at which a started monitor had its JACK client
        self.monitor_down = []  # (from, to) wall spans without a running, ready monitor
        self.feed_restarts = []  # (channel, seconds behind the air, seconds from start to first sample)
        self.server = f"bm-chaos-{os.getpid()}"
        self.db_dir = os.path.join(self.out, "db")
        self.db = os.path.join(self.db_dir, "plays.sqlite")
        self.clips_dir = os.path.join(self.db_dir, "clips")
        self.config = os.path.join(self.out, "monitor.json5")
        self.clip_files = []
        self.password = f"chaos{random.randrange(1 << 30)}"

    # ----- processes ---------------------------------------------------------------------------------------------

    def start_icecast(self, port, mounts):
        folder = os.path.join(self.out, "icecast")
        logs = os.path.join(folder, "log")
        os.makedirs(logs, exist_ok=True)
        security = "<chroot>0</chroot>"
        if os.geteuid() == 0:
            security += "<changeowner><user>icecast2</user><group>icecast</group></changeowner>"
            os.chmod(logs, 0o777)
        config = f"""<icecast>
  <location>chaos</location><admin>chaos@localhost</admin>
  <limits><clients>100</clients><sources>{mounts + 2}</sources><source-timeout>10</source-timeout>
    <burst-size>65536</burst-size></limits>
  <authentication><source-password>{self.password}</source-password>
    <admin-user>admin</admin-user><admin-password>{self.password}</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>{port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <fileserve>0</fileserve>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>{logs}</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security>{security}</security>
</icecast>"""
        path = os.path.join(folder, "icecast.xml")
        open(path, "w").write(config)
        p = subprocess.Popen(["icecast2", "-c", path], stdout=open(os.path.join(folder, "icecast.out"), "w"),
                             stderr=subprocess.STDOUT)
        self.processes.append(p)
        wait_for(lambda: http_status(port, "/") is not None, 15, "icecast2 to answer")
        return p

    def start_source(self, ch, air):
        """The stream's studio encoder: the WAV from `air` seconds, in real time, to its mount."""
        started = time.time()
        ch.process = subprocess.Popen(
            ["ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-re", "-ss", f"{air:.3f}", "-i", ch.wav,
             "-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3", "-content_type", "audio/mpeg",
             f"icecast://source:{self.password}@127.0.0.1:{self.port}/{ch.name}.mp3"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.out, f"source-{ch.name}.log"), "a"))
        self.processes.append(ch.process)
        ch.epochs.append((started, started - air))

    def start_feed(self, ch, air=None, since=None):
        """The JACK feed: the WAV in real time, from `air` seconds, or (`since`, the wall time of the WAV's first
        sample) as live air, from where the air is when its first sample plays: a feed restarted after jackd does
        not replay what aired while it started. Its first sample's time and file position fix the origin."""
        log_path = os.path.join(self.out, f"feed-{ch.name}-{len(ch.epochs)}.log")
        where = (["--start", f"{air:.3f}"] if since is None
                 else ["--on-air-since", time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(since))
                       + f".{int(since % 1 * 1000):03d}Z"])
        ch.process = subprocess.Popen(
            [self.args.bin, "feed", "--server", self.server, "--client", f"feed-{ch.name}"] + where
            + ["--connect", "system:playback_1,system:playback_2", ch.wav],
            stdout=subprocess.DEVNULL, stderr=open(log_path, "w"), env=JACK_ENV)
        self.processes.append(ch.process)
        ch.feed_log, ch.feed_asked = log_path, time.time()

    def feed_origins(self, channels, seconds=90):
        """Waits for the feeds' first samples; each one's time less its file position is the channel's new origin
        (for a restarted feed, within a JACK period of the one before: its lag behind the air is logged)."""
        lags = []

        def ready():
            for ch in channels:
                if getattr(ch, "feed_log", None) is None:
                    continue
                m = re.search(r"first sample at (\S+) \(.* from ([0-9.e+-]+) s into", open(ch.feed_log).read())
                if m:
                    first = parse_time(m.group(1))
                    origin = first - float(m.group(2))
                    if ch.epochs:
                        lags.append((ch.name, origin - ch.epochs[-1][1], first - ch.feed_asked))
                    ch.epochs.append((first, origin))
                    ch.feed_log = None
            return all(getattr(ch, "feed_log", None) is None for ch in channels)

        wait_for(ready, seconds, "the feeds' first samples")
        if lags:
            self.feed_restarts.extend(lags)
            log("restarted feeds behind the air by " + ", ".join(f"{n} {lag:+.3f} s" for n, lag, _ in lags)
                + " (first sample " + ", ".join(f"{took:.1f}" for _, _, took in lags) + " s after the start)")

    def start_monitor(self):
        self.monitor_starts += 1
        log_path = os.path.join(self.out, f"monitor-{self.monitor_starts}.log")
        command = [self.args.bin, "run", "--catalog", self.catalog, "--db", self.db, "--jack-server", self.server,
                   "--jack-client", "bm", "--log"]
        if self.args.clips != "none":
            command += ["--config", self.config]
        for ch in self.channels:
            source = (f"http://127.0.0.1:{self.port}/{ch.name}.mp3" if ch.stream
                      else f"jack:feed-{ch.name}:out_L,feed-{ch.name}:out_R")
            command += ["--channel", f"{ch.name}={source}"]
        self.monitor = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(log_path, "w"),
                                        env=JACK_ENV)
        self.monitor.log_path = log_path
        self.monitor.started = time.time()
        self.monitor.ready = None
        self.processes.append(self.monitor)

    def check_monitor(self):
        """Notes when a started monitor is ready; restarts one that exited on its own, as systemd would."""
        m = self.monitor
        if m.ready is None and "JACK client 'bm'" in open(m.log_path).read():
            m.ready = time.time()
            self.monitor_ready.append(m.ready)
            if self.down_since is not None:
                self.monitor_down.append((self.down_since, m.ready))
                self.down_since = None
            if self.kill_fault is not None:
                self.kill_fault["wall_to"] = m.ready
                self.kill_fault = None
        status = m.poll()
        if status is not None and not getattr(m, "killed", False):
            now = time.time()
            self.monitor_exits.append((now, status))
            log(f"the monitor exited by itself with status {status} (see {m.log_path}); restarting in "
                f"{RESTART_SECONDS} s")
            if self.down_since is None:
                self.down_since = now
            m.killed = True
            m.restart_at = now + RESTART_SECONDS
        if getattr(m, "restart_at", None) and time.time() >= m.restart_at:
            m.restart_at = None
            self.start_monitor()

    # ----- faults ------------------------------------------------------------------------------------------------

    def schedule(self):
        rng = random.Random(self.args.seed)
        run = self.args.minutes * 60
        per_kind = self.args.faults_per_kind or max(1, round(self.args.minutes / 10))
        warmup = min(WARMUP_S, run / 6)
        tail = min(TAIL_S, run / 5)
        faults = []
        for kind in KINDS:
            placed = []
            for _ in range(per_kind):
                for _attempt in range(1000):
                    lo, hi = DURATIONS[kind]
                    seconds = min(rng.uniform(lo, hi), max(lo, (run - warmup - tail) / (2 * per_kind)))
                    at = rng.uniform(warmup, run - tail - seconds)
                    if all(at > b + 10 or at + seconds < a - 10 for a, b in placed):
                        break
                placed.append((at, at + seconds))
                fault = {"kind": kind, "at": round(at, 1), "seconds": round(seconds, 1)}
                if kind == "stream":
                    fault["channel"] = rng.choice([c.name for c in self.channels if c.stream])
                faults.append(fault)
        # Steps in time order: ("begin"|"end", fault).
        steps = [(f["at"], 0, "begin", i) for i, f in enumerate(faults)]
        steps += [(f["at"] + f["seconds"], 1, "end", i) for i, f in enumerate(faults) if f["kind"] != "kill"]
        steps.sort()
        return faults, steps

    def begin(self, fault):
        kind, now = fault["kind"], time.time()
        fault["wall_from"] = now
        if kind == "kill":
            m = self.monitor
            if m.poll() is None:
                m.killed = True
                m.send_signal(signal.SIGKILL)
                m.wait()
                if self.down_since is None:
                    self.down_since = now
                m.restart_at = now + RESTART_SECONDS
                fault["detail"] = f"monitor pid {m.pid} killed"
                self.kill_fault = fault
            else:
                fault["detail"] = "the monitor was not running"
            fault["wall_to"] = now + RESTART_SECONDS
        elif kind == "jackd":
            self.jackd.send_signal(signal.SIGKILL)
            self.jackd.wait()
            for ch in self.channels:
                if not ch.stream and ch.process is not None:
                    try:
                        ch.process.wait(timeout=20)
                    except subprocess.TimeoutExpired:
                        ch.process.kill()
            fault["detail"] = "jackd killed; the feeds ended"
        elif kind == "stream":
            ch = self.by_name[fault["channel"]]
            ch.process.send_signal(signal.SIGTERM)
            ch.process.wait()
            fault["detail"] = f"the source of {ch.name} stopped"
        elif kind == "disk":
            st = os.statvfs(self.db_dir)
            free = st.f_bavail * st.f_frsize
            filler = os.path.join(self.db_dir, "filler")
            subprocess.run(["fallocate", "-l", str(free), filler], check=False)
            st = os.statvfs(self.db_dir)
            fault["detail"] = f"filled {free // 1024} KiB, {st.f_bavail * st.f_frsize // 1024} KiB left"
        elif kind == "lock":
            fault["detail"] = "a write transaction held"
            fault["release"] = threading.Event()
            fault["thread"] = threading.Thread(target=hold_write_lock, args=(self.db, fault), daemon=True)
            fault["thread"].start()
        log(f"fault {kind} begins: {fault['detail']}")

    def end(self, fault):
        kind, now = fault["kind"], time.time()
        fault["wall_to"] = now
        if kind == "jackd":
            self.jackd = start_jackd(self.server, os.path.join(self.out, f"jackd-{len(self.faults)}.log"),
                                     self.processes)
            for ch in self.channels:
                if not ch.stream:
                    self.start_feed(ch, since=ch.epochs[-1][1])
            self.feed_origins([c for c in self.channels if not c.stream])
            fault["wall_to"] = time.time()
        elif kind == "stream":
            ch = self.by_name[fault["channel"]]
            self.start_source(ch, ch.air_now())
        elif kind == "disk":
            os.remove(os.path.join(self.db_dir, "filler"))
        elif kind == "lock":
            fault["release"].set()
            fault["thread"].join(timeout=60)
            fault.pop("thread")
            fault.pop("release")
        log(f"fault {kind} ends after {now - fault['wall_from']:.1f} s")

    # ----- the run -----------------------------------------------------------------------------------------------

    def run(self):
        args = self.args
        run_seconds = args.minutes * 60
        self.prepare()
        faults, steps = self.schedule()
        json.dump({"seed": args.seed, "minutes": args.minutes, "faults": faults,
                   "channels": [vars_of(c) for c in self.channels]},
                  open(os.path.join(self.out, "schedule.json"), "w"), indent=1)
        self.down_since = None
        self.kill_fault = None
        try:
            os.makedirs(self.db_dir, exist_ok=True)
            subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DB_FS_MB}m", "tmpfs", self.db_dir], check=True)
            self.mounted = True
            kinds = json.dumps(self.args.clips if self.args.clips == "all" else self.args.clips.split(","))
            open(self.config, "w").write(
                f'{{unknown: {{clipsDirectory: "{self.clips_dir}", retentionGigabytes: {CLIPS_GIGABYTES}, '
                f'catalogPlayClips: {kinds}}}}}\n')
            self.port = free_port()
            self.start_icecast(self.port, sum(c.stream for c in self.channels))
            self.jackd = start_jackd(self.server, os.path.join(self.out, "jackd-0.log"), self.processes)
            for ch in self.channels:
                (self.start_source if ch.stream else self.start_feed)(ch, ch.offset)
            self.feed_origins([c for c in self.channels if not c.stream])
            self.start_monitor()
            wait_for(lambda: self.monitor.poll() is not None
                     or "JACK client 'bm'" in open(self.monitor.log_path).read(), 120, "the monitor's JACK client")
            t0 = time.time()
            self.t0 = t0
            log(f"running {len(self.channels)} channels ({sum(c.stream for c in self.channels)} streams) for "
                f"{args.minutes:g} min with {len(faults)} faults (seed {args.seed}); files in {self.out}")
            pending = list(steps)
            while time.time() < t0 + run_seconds:
                self.check_monitor()
                while pending and time.time() >= t0 + pending[0][0]:
                    _, _, what, i = pending.pop(0)
                    (self.begin if what == "begin" else self.end)(faults[i])
                    self.faults = faults
                self.check_monitor()
                time.sleep(0.1)
            # The monitor must be up for the final stop; wait for a restart in progress.
            wait_for(lambda: (self.check_monitor() or True) and self.monitor.ready is not None
                     and self.monitor.poll() is None, 120, "the monitor to be running for the final stop")
            t_end = time.time()
            self.monitor.send_signal(signal.SIGTERM)
            try:
                final_status = self.monitor.wait(timeout=60)
            except subprocess.TimeoutExpired:
                final_status = "did not exit within 60 s of SIGTERM"
                self.monitor.kill()
            log(f"final SIGTERM: the monitor exited with status {final_status}")
        finally:
            stop_all(self.processes, timeout=20)
            saved = os.path.join(self.out, "plays.sqlite")
            if getattr(self, "mounted", False):
                if os.path.isdir(self.clips_dir):
                    self.clip_files = sorted(os.listdir(self.clips_dir))
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(self.db + suffix):
                        shutil.copy(self.db + suffix, saved + suffix)
                    elif os.path.exists(saved + suffix):
                        os.remove(saved + suffix)
                subprocess.run(["umount", self.db_dir], check=False)
        self.faults = faults
        self.save_state(t0, t_end, final_status)
        return self.score(saved, t0, t_end, final_status)

    def save_state(self, t0, t_end, final_status):
        """Everything `score` needs, so that `--score-only` can score a finished run again."""
        state = {"t0": t0, "t_end": t_end, "final_status": final_status, "monitor_starts": self.monitor_starts,
                 "monitor_exits": self.monitor_exits, "monitor_down": self.monitor_down, "faults": self.faults,
                 "epochs": {c.name: c.epochs for c in self.channels}, "feed_restarts": self.feed_restarts,
                 "clip_files": self.clip_files}
        json.dump(state, open(os.path.join(self.out, "state.json"), "w"), indent=1)

    def score_again(self):
        state = json.load(open(os.path.join(self.out, "state.json")))
        self.prepare()
        self.monitor_starts, self.monitor_exits = state["monitor_starts"], state["monitor_exits"]
        self.monitor_down, self.faults = state["monitor_down"], state["faults"]
        for c in self.channels:
            c.epochs = state["epochs"][c.name]
        self.feed_restarts, self.clip_files = state.get("feed_restarts", []), state.get("clip_files", [])
        return self.score(os.path.join(self.out, "plays.sqlite"), state["t0"], state["t_end"], state["final_status"])

    def prepare(self):
        args = self.args
        sims = [os.path.join(CACHE, "sims", name) for name in args.sims.split(",")]
        for sim in sims:
            if not sim_complete(sim):
                log(f"waiting for {sim} (made by another process, or: python3 ../shared/eval/simulate.py)")
                wait_for(lambda: sim_complete(sim), args.wait_minutes * 60, f"{sim} to be complete")
        sources = []  # (sim, channel name, wav)
        for sim in sims:
            for name in sorted(os.listdir(sim)):
                if re.fullmatch(r"ch\d+\.wav", name):
                    sources.append((sim, name[:-4], os.path.join(sim, name)))
        run = args.minutes * 60
        self.channels = []
        uses = {}
        for i in range(args.channels):
            sim, sim_channel, wav = sources[i % len(sources)]
            k = uses[wav] = uses.get(wav, -1) + 1
            length = wav_seconds(wav)
            offset = [0, length - run - 5][k] if k < 2 else None
            if offset is None or offset < 0:
                sys.exit(f"chaos: {args.channels} channels of {args.minutes:g} min need longer or more simulations "
                         f"than {args.sims} (make more with ../shared/eval/simulate.py, and pass --sims)")
            stream = i >= args.channels - args.streams
            self.channels.append(Channel(f"ch{i + 1:02d}", sim, sim_channel, wav, offset, stream))
        self.by_name = {c.name: c for c in self.channels}
        self.catalog = args.catalog or os.path.join(self.out, "dev.bmcat")
        if not os.path.exists(self.catalog) or os.path.getmtime(self.catalog) < os.path.getmtime(args.bin):
            log(f"building the catalog {self.catalog} from {args.tracks}")
            if os.path.exists(self.catalog):
                os.remove(self.catalog)
            subprocess.run([args.bin, "catalog", "add", "--catalog", self.catalog, "--metadata", args.tracks],
                           check=True, stdout=subprocess.DEVNULL,
                           stderr=open(os.path.join(self.out, "catalog.log"), "w"))
        # The yardstick for "the matcher can find it": an offline scan of each simulated channel, kept.
        self.offline = {}
        for wav in sorted({c.wav for c in self.channels}):
            key = os.path.basename(os.path.dirname(wav)) + "-" + os.path.basename(wav)[:-4]
            path = os.path.join(self.out, "scan", key + ".csv")
            if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(self.catalog):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                log(f"offline scan of {wav}")
                if os.path.exists(path):
                    os.remove(path)
                subprocess.run([args.bin, "scan", "--catalog", self.catalog, "--channel", "x", "--start",
                                SCAN_ORIGIN, "--csv", path, wav], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            origin = parse_time(SCAN_ORIGIN)
            self.offline[wav] = [(r["isrc"], parse_time(r["start"]) - origin, parse_time(r["end"]) - origin)
                                 for r in csv.DictReader(open(path, newline=""))]

    # ----- scoring -----------------------------------------------------------------------------------------------

    def score(self, db, t0, t_end, final_status):
        args = self.args
        isrc_to_track = {r["isrc"]: r["track_id"] for r in csv.DictReader(open(args.tracks, newline=""))}
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        rows = conn.execute(
            "SELECT p.id, c.name, i.isrc, p.start_ms, p.end_ms, p.status FROM plays p JOIN channels c "
            "ON c.id = p.channel_id JOIN catalog_items i ON i.id = p.item_id").fetchall()
        statuses = {s: n for s, n in conn.execute("SELECT status, count(*) FROM plays GROUP BY status")}
        event_counts = dict(conn.execute("SELECT kind, count(*) FROM events GROUP BY kind").fetchall())
        gaps = conn.execute(
            "SELECT c.name, e.start_ms, e.end_ms FROM events e JOIN channels c ON c.id = e.channel_id "
            "WHERE e.kind = 'gap'").fetchall()
        has_clips = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'play_clips'").fetchone()[0]
        clip_paths = [r[0] for r in conn.execute("SELECT clip_path FROM play_clips")] if has_clips else []
        segment_clips = {os.path.basename(r[0]) for r in conn.execute(
            "SELECT clip_path FROM unknown_segments WHERE clip_path IS NOT NULL")}
        clipped = conn.execute(
            "SELECT p.status, count(*) FROM plays p JOIN channels c ON c.id = p.channel_id JOIN catalog_items i "
            "ON i.id = p.item_id WHERE EXISTS (SELECT 1 FROM play_clips k WHERE k.channel_id = p.channel_id AND "
            "k.item_key = i.item_key AND k.play_start_ms < p.end_ms AND k.play_end_ms > p.start_ms) "
            "GROUP BY p.status").fetchall() if has_clips else []
        # An airing cut by an outage and continued in the same row gets a clip for each part.
        multiple = conn.execute(
            "SELECT count(*) FROM plays p JOIN catalog_items i ON i.id = p.item_id WHERE (SELECT count(*) FROM "
            "play_clips k WHERE k.channel_id = p.channel_id AND k.item_key = i.item_key AND k.play_start_ms < "
            "p.end_ms AND k.play_end_ms > p.start_ms) >= 2").fetchone()[0] if has_clips else 0
        conn.close()
        # A clip is encoded into hidden files, renamed when done: those left at the end were never finished.
        temporary = [name for name in self.clip_files if name.startswith(".")]

        # Outages per channel, in wall-clock time.
        for m_from, m_to in self.monitor_down:
            for ch in self.channels:
                ch.outages.append((m_from, m_to + RECOVER_S))
        for f in self.faults:
            if f["kind"] == "jackd":
                for ch in self.channels:
                    if not ch.stream:
                        ch.outages.append((f["wall_from"], f["wall_to"] + RECOVER_S))
            elif f["kind"] == "stream":
                self.by_name[f["channel"]].outages.append((f["wall_from"], f["wall_to"] + RECOVER_S))

        airings = []  # dicts per truth airing in the run
        for ch in self.channels:
            truth = [r for r in csv.DictReader(open(os.path.join(ch.sim, "truth.csv"), newline=""))
                     if r["channel"] == ch.sim_channel]
            for r in truth:
                a_start, a_end = float(r["start_s"]), float(r["end_s"])
                w_start = a_start + ch.origin_at(t0)
                # Wall times from the epoch in force at the airing (origins differ by a fraction of a second).
                w_start, w_end = a_start + ch.origin_at(w_start), a_end + ch.origin_at(w_start)
                if w_end <= t0 or w_start >= t_end:
                    continue
                # What the monitor could hear of it: inside the run, outside the outages.
                c_start, c_end = max(w_start, t0), min(w_end, t_end)
                heard = (c_end - c_start) - covered(c_start, c_end, ch.outages)
                found = any(isrc_to_track.get(isrc) == r["track_id"] and overlap(s, e, a_start, a_end)
                            >= 0.5 * min(e - s, a_end - a_start) for isrc, s, e in self.offline[ch.wav])
                airings.append({"channel": ch.name, "track": r["track_id"], "start": w_start, "end": w_end,
                                "clip": (c_start, c_end), "outages": ch.outages, "heard": heard, "offline": found,
                                "rows": []})
        false_rows = []
        for pid, name, isrc, start_ms, end_ms, status in rows:
            s, e, track = start_ms / 1000, end_ms / 1000, isrc_to_track.get(isrc, isrc)
            best = max((a for a in airings if a["channel"] == name and a["track"] == track),
                       key=lambda a: overlap(s, e, a["start"], a["end"]), default=None)
            if best and overlap(s, e, best["start"], best["end"]) >= 0.5 * min(e - s, best["end"] - best["start"]):
                best["rows"].append((pid, s, e, status))
            else:
                false_rows.append((pid, name, track, s - t0, e - s, status))

        expected = [a for a in airings if a["end"] - a["start"] >= args.min_airing_s
                    and a["heard"] >= args.min_heard_s and a["offline"]]
        lost = [a for a in expected if not a["rows"]]
        # Cut short: a logged airing whose rows leave a long stretch it was heard in unlogged (an end never written).
        cut = []
        for a in expected:
            if not a["rows"]:
                continue
            holes = uncovered(*a["clip"], a["outages"] + [(s, e) for _, s, e, _ in a["rows"]])
            longest = max(holes, key=lambda h: h[1] - h[0], default=None)
            if longest and longest[1] - longest[0] >= args.min_heard_s:
                a["hole"] = longest
                cut.append(a)
        doubled = [a for a in airings if len(a["rows"]) >= 2]
        attribution = {k: {"injected": 0, "lost": 0, "doubled": 0, "extra_rows": 0, "cut_short": 0, "false": 0}
                       for k in KINDS + ["none"]}
        false_rows = [row + (self.nearest_fault(row[1], t0 + row[3], t0 + row[3] + row[4]),) for row in false_rows]
        for row in false_rows:
            attribution[row[-1]]["false"] += 1
        for f in self.faults:
            attribution[f["kind"]]["injected"] += 1
        for a in lost:
            a["fault"] = self.nearest_fault(a["channel"], a["start"], a["end"])
            attribution[a["fault"]]["lost"] += 1
        for a in cut:
            # Blamed on the fault nearest to where the rows stop: what kept the play's updates from the file.
            a["cut_fault"] = self.nearest_fault(a["channel"], a["hole"][0], a["hole"][0])
            attribution[a["cut_fault"]]["cut_short"] += 1
        for a in doubled:
            # Each extra row is a split: blame the fault nearest to the break between two rows.
            parts = sorted(a["rows"], key=lambda row: row[1])
            splits = [self.nearest_fault(a["channel"], before[2], after[1]) for before, after in zip(parts, parts[1:])]
            a["fault"] = ",".join(splits)
            for kind in splits:
                attribution[kind]["extra_rows"] += 1
            for kind in set(splits):
                attribution[kind]["doubled"] += 1
        # The monitor's own downtime in the play log: a gap spanning each kill on every channel, and one left open
        # from the final stop.
        def spans(name, moment):
            return any(n == name and s / 1000 <= moment and (e is None or e / 1000 >= moment) for n, s, e in gaps)
        kills = [f for f in self.faults if f["kind"] == "kill" and "killed" in f.get("detail", "")]
        unrecorded_kills = [(ch.name, round(f["wall_from"] - t0, 1)) for f in kills for ch in self.channels
                            if not spans(ch.name, f["wall_from"])]
        open_at_stop = {n for n, s, e in gaps if e is None}
        logs = "".join(open(os.path.join(self.out, f"monitor-{n}.log"), errors="replace").read()
                       for n in range(1, self.monitor_starts + 1))
        notes = {"cannot be written": logs.count("cannot be written"), "writable again": logs.count("writable again"),
                 "JACK server back": logs.count("is back after"), "reconnect": logs.count("audio again after")}
        return {
            "log_lines": notes,
            "seed": args.seed, "minutes": args.minutes, "channels": len(self.channels),
            "streams": sum(c.stream for c in self.channels), "airings_in_run": len(airings),
            "expected": len(expected), "found": len(expected) - len(lost), "lost": len(lost),
            "doubled_airings": len(doubled), "extra_rows": sum(len(a["rows"]) - 1 for a in doubled),
            "rows": len(rows), "rows_by_status": statuses, "false_rows": len(false_rows),
            "open_at_end": statuses.get("open", 0), "integrity_check": integrity, "final_status": final_status,
            "monitor_starts": self.monitor_starts, "monitor_exits": [(round(w - t0, 1), s) for w, s in
                                                                     self.monitor_exits],
            "events": event_counts, "by_fault": attribution,
            "downtime": {"kills": len(kills), "channels": len(self.channels),
                         "kills_unrecorded": unrecorded_kills,
                         "open_from_final_stop": len(open_at_stop & {ch.name for ch in self.channels})},
            "faults": [{k: (round(v - t0, 1) if k.startswith("wall") else v) for k, v in f.items()}
                       for f in self.faults],
            "lost_airings": [brief(a, t0) for a in lost],
            "cut_short": len(cut),
            "cut_short_airings": [dict(brief(a, t0), fault=a["cut_fault"],
                                       unlogged=[round(x - t0, 1) for x in a["hole"]]) for a in cut],
            "doubled": [brief(a, t0) for a in doubled],
            "false": false_rows,
            "feed_restarts": self.feed_restarts,
            "clips": {"rows": len(clip_paths), "files": len(self.clip_files),
                      "rows_without_file": sum(os.path.basename(p) not in set(self.clip_files) for p in clip_paths),
                      "files_without_row": len(set(self.clip_files) - {os.path.basename(p) for p in clip_paths}
                                               - segment_clips - set(temporary)),
                      "temporary_files_left": temporary,
                      "plays_with_clip_by_status": dict(clipped), "plays_with_two_or_more_clips": multiple},
        }

    def nearest_fault(self, channel, start, end):
        """The kind of the fault nearest to the span [start, end] among those that touched `channel`, or "none"
        when none was within ATTRIBUTION_MARGIN_S."""
        ch = self.by_name[channel]
        best, distance = "none", None
        start, end = min(start, end), max(start, end)
        for f in self.faults:
            if f["kind"] == "jackd" and ch.stream or f["kind"] == "stream" and f["channel"] != ch.name:
                continue
            d = max(0, f["wall_from"] - end, start - f["wall_to"])
            if d <= ATTRIBUTION_MARGIN_S and (distance is None or d < distance):
                best, distance = f["kind"], d
        return best


def brief(a, t0):
    return {"channel": a["channel"], "track": a["track"], "start": round(a["start"] - t0, 1),
            "seconds": round(a["end"] - a["start"], 1), "heard": round(a["heard"], 1), "fault": a.get("fault"),
            "rows": [(pid, round(s - t0, 1), round(e - s, 1), st) for pid, s, e, st in a["rows"]]}


def vars_of(ch):
    return {"name": ch.name, "sim": os.path.basename(ch.sim), "channel": ch.sim_channel, "offset": ch.offset,
            "stream": ch.stream}


def overlap(a0, a1, b0, b1):
    return max(0.0, min(a1, b1) - max(a0, b0))


def uncovered(start, end, spans):
    """The parts of [start, end] outside every span of `spans`."""
    holes, cursor = [], start
    for s, e in sorted(spans):
        if s > cursor:
            holes.append((cursor, min(s, end)))
        cursor = max(cursor, e)
        if cursor >= end:
            break
    if cursor < end:
        holes.append((cursor, end))
    return [(s, e) for s, e in holes if e > s]


def covered(start, end, spans):
    """Seconds of [start, end] inside the union of `spans`."""
    total, cursor = 0.0, start
    for s, e in sorted(spans):
        s, e = max(s, cursor), min(e, end)
        if e > s:
            total += e - s
            cursor = e
    return total


def hold_write_lock(db, fault):
    """Another program's write transaction on the play log, held until the fault ends."""
    release = fault["release"]
    try:
        conn = sqlite3.connect(db, timeout=30, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        fault["wall_held"] = time.time()
        release.wait()
        conn.execute("ROLLBACK")
        conn.close()
    except sqlite3.Error as error:
        fault["detail"] += f" (failed: {error})"


def http_status(port, path):
    import socket
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
            line = s.recv(256).split(b"\r\n")[0].split()
            return int(line[1]) if len(line) >= 2 else None
    except (OSError, ValueError):
        return None


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def report(r):
    print(f"\nchaos: {r['channels']} channels ({r['streams']} streams) for {r['minutes']:g} min, seed {r['seed']}")
    print(f"  faults: " + ", ".join(f"{f['kind']} at {f['wall_from']:.0f} s ({f['detail']})" for f in r["faults"]))
    print(f"  airings in the run {r['airings_in_run']}; expected (long enough, heard, found offline) "
          f"{r['expected']}; found live {r['found']}; LOST {r['lost']}; cut short (a heard stretch of "
          f"--min-heard-s or more in no row) {r['cut_short']}")
    print(f"  airings counted twice or more {r['doubled_airings']} ({r['extra_rows']} extra rows); false rows "
          f"{r['false_rows']}; rows {r['rows']} by status {r['rows_by_status']}")
    print(f"  open plays after the final stop {r['open_at_end']}; integrity_check {r['integrity_check']}; final "
          f"SIGTERM exit status {r['final_status']}; monitor starts {r['monitor_starts']}, exits by itself "
          f"{r['monitor_exits']}")
    print(f"  events in the play log: {r['events']}; monitor log lines: {r['log_lines']}")
    d = r.get("downtime")
    if d:
        print(f"  downtime: {d['kills']} kills x {d['channels']} channels, with no gap spanning the kill "
              f"{len(d['kills_unrecorded'])} {d['kills_unrecorded'][:8]}; channels with a gap open from the final "
              f"stop {d['open_from_final_stop']} of {d['channels']}")
    restarts = r.get("feed_restarts", [])
    if restarts:
        lags = [lag for _, lag, _ in restarts]
        print(f"  restarted feeds {len(restarts)}: behind the air {min(lags):+.3f} to {max(lags):+.3f} s; first "
              f"sample {min(t for *_, t in restarts):.1f} to {max(t for *_, t in restarts):.1f} s after the start")
    print(f"  clips: {r['clips']}")
    print("  per fault kind:      injected  lost  cut short  doubled airings (extra rows)  false rows")
    for kind, a in r["by_fault"].items():
        print(f"    {kind:18s} {a['injected']:8d} {a['lost']:5d} {a['cut_short']:10d} {a['doubled']:8d}         "
              f"({a['extra_rows']}) {a['false']:15d}")
    for a in r["lost_airings"]:
        print(f"  lost: {a['channel']} {a['track']} at {a['start']} s for {a['seconds']} s (heard {a['heard']} s), "
              f"near {a['fault']}")
    for a in r["cut_short_airings"]:
        print(f"  cut short: {a['channel']} {a['track']} at {a['start']} s for {a['seconds']} s, unlogged "
              f"{a['unlogged'][0]}-{a['unlogged'][1]} s, near {a['fault']}: rows {a['rows']}")
    for pid, name, track, start, seconds, status, fault in r["false"][:10]:
        print(f"  false: row {pid} {name} {track} at {start:.1f} s for {seconds:.1f} s ({status}), near {fault}")
    for a in r["doubled"]:
        print(f"  doubled: {a['channel']} {a['track']} at {a['start']} s for {a['seconds']} s, near {a['fault']}: "
              f"rows {a['rows']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--channels", type=int, default=16)
    ap.add_argument("--streams", type=int, default=6, help="how many of the channels are Icecast streams")
    ap.add_argument("--faults-per-kind", type=int, default=0, help="default: one per 10 minutes, at least 1")
    ap.add_argument("--sims", default=",".join(SIMS))
    ap.add_argument("--wait-minutes", type=float, default=120, help="longest wait for a simulation being made")
    ap.add_argument("--min-airing-s", type=float, default=20)
    ap.add_argument("--clips", default="all",
                    help="unknown.catalogPlayClips: all, none, or kinds separated by commas (song,ad,jingle,other)")
    ap.add_argument("--min-heard-s", type=float, default=30)
    ap.add_argument("--catalog", help="default: built from --tracks into --out (again when the binary is newer)")
    ap.add_argument("--tracks", default=TRACKS)
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--out", default="/tmp/bm-chaos")
    ap.add_argument("--score-only", action="store_true", help="score the run in --out again (same options)")
    args = ap.parse_args()
    require("chaos", [(args.bin, "swift build -c release --product broadcast-monitor"),
                      (args.tracks, "bash bench/yardstick.sh")])
    if os.geteuid() != 0:
        sys.exit("chaos: needs root, to mount a small tmpfs for the play log (the full-disk fault)")
    for tool in ("jackd", "icecast2", "ffmpeg", "fallocate"):
        if shutil.which(tool) is None:
            sys.exit(f"chaos: {tool} is missing (bash scripts/setup.sh installs it)")
    os.makedirs(args.out, exist_ok=True)
    chaos = Chaos(args)
    result = chaos.score_again() if args.score_only else chaos.run()
    json.dump(result, open(os.path.join(args.out, "result.json"), "w"), indent=1)
    report(result)


if __name__ == "__main__":
    main()
