#!/usr/bin/env python3
"""Catalog-scale benchmark: what the matcher costs as the catalog grows to station size.

    python3 bench/catalog_scale.py                               # sizes dev,100,1000,10000 (hours)
    python3 bench/catalog_scale.py --sizes dev,100 --max-minutes 10
    python3 bench/catalog_scale.py --bin /path/to/broadcast-monitor --out /tmp/run2 --sizes 100

Each catalog holds the dev catalog of the accuracy yardstick (../shared/eval: 29 tracks, about 1.8 h) plus
distractors up to the size asked: real, freely licensed music that the yardstick never airs, from Debian's archive
(scripts/fetch-scale-music.sh, which names each package and its licence: eleven Debian music packages and the music
folders of 65 game data packages, under GPL, CC BY, CC BY-SA and other DFSG-free licences; 46 h in 952 files, the most
we found in Debian 12's main archive; the figures below were measured with its earlier 33 h in 634 files, from ten
music packages and 22 game data packages), in transformed copies that are distinct recordings for a fingerprint: each
file as it is and reversed, then resampled by speed factors from 0.55 to 1.8 outside 0.93-1.075 (beyond the matcher's
±6 % speed search), forwards and backwards. The yardstick's own music (wesnoth-1.16-music, fretsonfire-songs-muldjord)
is never a distractor, nor is MegaGlest's Romans music (one of its recordings is among the yardstick's unknown songs),
and the corpus's unknown/ folder is in no catalog.

Audio-level and peak-level copies: the first --audio-hours (default 100) of distractors are made from audio (each
file decoded once at 16 kHz, resampled in memory by the fingerprint front end's libsoxr resampler, fingerprinted as
`catalog add` does). Beyond that, copies are derived at the PEAK LEVEL from the audio-level copy nearest in speed
(peak times / r, bins x r, peaks leaving the band dropped, each 8-frame block thinned again to 3 peaks): making 10,000 h
from audio would take about 6 hours of both cores (the copies are fingerprinted at about 840x real time per core,
measured). On a fixture song, 62-75 % of a derived copy's peaks are in the audio-level copy at the same speed, which
has 12-22 % more peaks (ScaleCatalogBuildTests). So the 1,000 h and 10,000 h catalogs are mostly peak-level copies
(1,000 h: 1,202 copies from audio, 15,200 derived), and with 33 h of source music each file appears in about 30
(1,000 h) or 300 (10,000 h) variants (with the 15 h of the first ten packages alone: 61 and 650); copies a few per cent
apart in speed share many hash values, so the hash distribution is clumpier than that of as many hours of distinct
songs.

Steps: release builds (Benchmarks, and broadcast-monitor unless --bin is given); the music (fetch-scale-music.sh);
waits for the dev corpus and the simulations (made by ../shared/eval/corpus.py and simulate.py, as bench/yardstick.sh
does); builds the missing catalogs with `Benchmarks build-scale-catalog` (a memory estimate first: a size whose
build would not fit in the available memory is skipped with the reason: the builder peaks at about 15 bytes per index
posting, measured at 10,000 h: 8.9 GB for 617 million postings, with 0 h and 100 h built in the same run; 1,000 h
needs about 1 GB); then for each size: `catalog info` (index bytes), cold and warm load (cold: the page cache is
dropped with /proc/sys/vm/drop_caches where permitted, else the catalog's pages are evicted with posix_fadvise; load =
`catalog info`, which maps the file, checks its checksum over every byte and decodes the header), `catalog add` of one
song and `catalog remove` of the middle track, each on a fresh copy of the catalog (wall time, CPU and max RSS), and a
`scan` of each channel of each simulation (the first --max-minutes of it), timed with the scan process's rusage (its children, such as an ffmpeg decoder, included; with --runs N, the median of
N scans of the channel, one after another, default 3, each of which must log the same plays as the first), scored with
../shared/eval/from_scan.py and score.py as bench/yardstick.sh does: F1, false plays, median latency, and the median and
95th percentile of the start and end errors (|logged - true| over the plays matched to the truth). A play of a
distractor (any track not in the dev catalog) is a false play; they are also counted on their own.

Catalogs are cached in ~/.cache/bmon-scale/catalogs/KEY/ (never in the repository); KEY hashes the sources that shape
a catalog's bytes (Sources/Matcher except the search: StreamMatcher*, MatchQueue*, MatcherSettings*, MatchEvent*,
RunningPlay*, VoteTable*, TargetAgreement*, PeakMatch*, CommonLookup*, MatcherTuning*, PostingScratch*, LockstepLowerBound*, HypothesisSet*, GatheredMatches*; the bench's catalog builder; the music files; the dev tracks.csv; --audio-hours), so a changed catalog
format, hash layout or fingerprint parameter builds them again. --rebuild forces it.

Output in --out (default /tmp/bm-catalog-scale): results.json, results.txt (the tables), catalog_scale.png (the plot),
and the scan logs and CSVs. Needs python3, ffmpeg, unzip, the Swift toolchain, ../shared/eval; installs matplotlib
from PyPI with pip when it is missing.
"""
import argparse
import csv
import fcntl
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import time
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORIGIN = "2026-01-01T00:00:00Z"
DISTRACTOR_ALBUM = "catalog-scale distractor"  # ScaleCatalogBuild.distractorAlbum
# Search-side files of Sources/Matcher: they do not shape a catalog's bytes, so they are not in the cache key.
SEARCH_SIDE = re.compile(
    r"^(StreamMatcher|MatchQueue|MatcherSettings|MatchEvent|RunningPlay|VoteTable|TargetAgreement|PeakMatch|CommonLookup|MatcherTuning|PostingScratch|LockstepLowerBound|HypothesisSet|GatheredMatches)")
BUILDER_FILES = ["ScaleVariant", "PeakLevelCopy", "ScaleCatalogPlan", "ScaleCatalogBuild", "ScaleCatalogCommand",
                 "CSVTable", "OrderedWorkPool", "ProbedDurations"]
# Builder memory per index posting when no build of these sources has been measured yet: CatalogBuilder keeps 4 bytes
# per hash (about 1.5 hashes per posting kept after the stop-hash filter), and build() adds the pair index (4 bytes per
# posting), the triplet index filled in place (about 0.8 postings per pair posting, 4 bytes each, and its directory)
# and one run of sorted pairs (268 MB): about 15 bytes per posting at 10,000 h.
DEFAULT_BUILD_BYTES_PER_POSTING = 16.0
# Memory per posting of the other sizes built in the same run: their builders hold their packed hashes meanwhile.
HELD_BYTES_PER_POSTING = 6.0
# Index postings per hour of reference audio (dev catalog: about 95,000), for the memory estimate before a build.
POSTINGS_PER_HOUR = 100_000


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("+ " + " ".join(str(c) for c in cmd))
    return subprocess.run(cmd, check=True, **kw)


def ensure_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        log("matplotlib is missing: pip install matplotlib")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "matplotlib"], check=True)
    import matplotlib
    matplotlib.use("Agg")


def parse_sizes(text):
    sizes = []
    for part in text.split(","):
        part = part.strip().lower()
        if part in ("dev", "0"):
            sizes.append(0.0)
        else:
            try:
                h = float(part)
            except ValueError:
                sys.exit("--sizes %s: give hours separated by commas, such as dev,100,1000" % text)
            if h < 0:
                sys.exit("--sizes: %s is negative" % part)
            sizes.append(h)
    return sorted(set(sizes))


def parse_minutes(text, sizes):
    """--max-minutes: one number for every size, or SIZE=N pairs; {size: minutes or None}."""
    if not text:
        return {s: None for s in sizes}
    try:
        if "=" not in text:
            return {s: float(text) for s in sizes}
        out = {s: None for s in sizes}
        for pair in text.split(","):
            size, minutes = pair.split("=")
            out[parse_sizes(size)[0]] = float(minutes)
        return out
    except ValueError:
        sys.exit("--max-minutes %s: give minutes, or SIZE=MINUTES pairs such as dev=60,100=5" % text)


def size_name(h):
    return "dev" if h == 0 else "%g h" % h


def swift_env():
    env = dict(os.environ)
    if not any((Path(p) / "swift").exists() for p in env.get("PATH", "").split(":")) and \
            Path("/opt/swift/usr/bin/swift").exists():
        env["PATH"] = "/opt/swift/usr/bin:" + env.get("PATH", "")
    return env


def wait_for(what, ready, limit_s):
    """Waits until ready() is true, up to limit_s seconds (another process is making the file)."""
    start = time.monotonic()
    while not ready():
        waited = time.monotonic() - start
        if waited > limit_s:
            sys.exit("gave up after %.0f s waiting for %s" % (waited, what))
        log("waiting for %s (%.0f s so far)" % (what, waited))
        time.sleep(30)


def sim_complete(d):
    """The simulation folder is complete: params.json is written last (as bench/yardstick.sh checks)."""
    p = d / "params.json"
    wavs = sorted(d.glob("ch*.wav"))
    return p.exists() and (d / "truth.csv").exists() and (d / "segments.csv").exists() and wavs and \
        all(p.stat().st_mtime >= w.stat().st_mtime for w in wavs) and not list(d.glob("tmp-*"))


def cache_key(dev_csv, music_files, audio_hours):
    h = hashlib.sha256()
    for f in sorted((ROOT / "Sources" / "Matcher").rglob("*.swift"), key=lambda f: f.name):
        if not SEARCH_SIDE.match(f.name):
            h.update(f.name.encode() + b"\0" + f.read_bytes())
    for name in BUILDER_FILES:
        h.update(name.encode() + b"\0" + (ROOT / "bench" / "Benchmarks" / (name + ".swift")).read_bytes())
    h.update(Path(dev_csv).read_bytes())
    for f in music_files:
        h.update(("%s %d\n" % (f, f.stat().st_size)).encode())
    h.update(("audio-hours %g" % audio_hours).encode())
    return h.hexdigest()[:16]


def mem_available_bytes():
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return 0


def build_catalogs(a, bench_bin, dev_csv, music, cache_dir, sizes, results):
    """Builds the sizes missing from cache_dir; returns {size: report} for every size that exists."""
    reports = {}
    missing = []
    for s in sizes:
        cat = cache_dir / ("scale-%gh.bmcat" % s)
        rep = cache_dir / ("scale-%gh.json" % s)
        if not a.rebuild and cat.exists() and rep.exists():
            reports[s] = json.loads(rep.read_text())
            log("cached: %s (%s)" % (cat, size_name(s)))
        else:
            missing.append(s)
    if not missing:
        return reports
    memory_file = cache_dir / "builder-memory.json"  # measured with the builder of these sources
    per_posting = DEFAULT_BUILD_BYTES_PER_POSTING
    if memory_file.exists():
        per_posting = max(per_posting, json.loads(memory_file.read_text()).get("bytes_per_posting", 0))
    per_hour = POSTINGS_PER_HOUR
    # The largest catalog built with these sources tells the postings per hour best (stop hashes drop more as it
    # grows), whether or not this run asked for it.
    built = [json.loads(rep.read_text()) for rep in cache_dir.glob("scale-*h.json")]
    if built:
        big = max(built, key=lambda r: r["hours"])
        if big["hours"] >= 10:
            per_hour = big["hashCount"] / big["hours"]
    available = mem_available_bytes()
    fits = []
    for s in missing:
        need = per_posting * per_hour * max(s, 2) + HELD_BYTES_PER_POSTING * per_hour * sum(fits) + 1e9
        if available and need > 0.85 * available:
            reason = ("not built: would need about %.0f GB with today's CatalogBuilder (%.0f bytes per index "
                      "posting at its peak, %.0f postings per hour), more than 85 %% of the %.0f GB available" % (
                          need / 1e9, per_posting, per_hour, available / 1e9))
            log("%s: %s" % (size_name(s), reason))
            results["skipped_sizes"][size_name(s)] = reason
        else:
            fits.append(s)
    if not fits:
        return reports
    cache_dir.mkdir(parents=True, exist_ok=True)
    cmd = [str(bench_bin), "build-scale-catalog", "--out", str(cache_dir), "--sizes", ",".join("%g" % s for s in fits),
           "--base", str(dev_csv), "--music", str(music), "--audio-hours", "%g" % a.audio_hours,
           "--threads", str(a.threads)]
    log("+ " + " ".join(cmd))
    t0 = time.monotonic()
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    wall = time.monotonic() - t0
    largest_postings = 0
    total_postings = 0
    max_rss_mb = 0
    for line in out.splitlines():
        r = json.loads(line)
        r["buildCommandWallSeconds"] = wall
        size = r["sizeHours"]
        (cache_dir / ("scale-%gh.json" % size)).write_text(json.dumps(r, indent=1, sort_keys=True))
        reports[size] = r
        largest_postings = max(largest_postings, r["hashCount"])
        total_postings += r["hashCount"]
        max_rss_mb = max(max_rss_mb, r["maxResidentMB"])
    if largest_postings > 10_000_000:  # only a large build says much about bytes per posting
        measured = max_rss_mb * 2**20 / (largest_postings + (total_postings - largest_postings) * HELD_BYTES_PER_POSTING
                                         / DEFAULT_BUILD_BYTES_PER_POSTING)
        memory_file.write_text(json.dumps({"bytes_per_posting": round(measured, 1)}))
    return reports


def catalog_info(bin_path, cat):
    t0 = time.monotonic()
    out = subprocess.run([str(bin_path), "catalog", "info", "--catalog", str(cat)], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    wall = time.monotonic() - t0
    info = {"process_wall_s": wall}
    for key, pattern in [("tracks", r"tracks:\s+(\d+)"), ("hours", r"hours:\s+([\d.]+)"),
                         ("hashes", r"hashes:\s+(\d+)"), ("index_bytes", r"index bytes:\s+(\d+)"),
                         ("file_bytes", r"file bytes:\s+(\d+)"), ("load_s", r"loaded in:\s+([\d.]+)")]:
        m = re.search(pattern, out)
        if m:
            info[key] = float(m.group(1))
    info.setdefault("load_s", wall)
    return info


def timed_add(bin_path, cat, audio_file, out):
    """`catalog add` of one real music file to a copy of the catalog: what adding a song costs at this size (decode,
    fingerprint, and the catalog's rebuild and write), in CPU seconds of the process and its children (ffmpeg). The
    file is one of the music sources, whose recording the catalogs of 100 h and more hold already: `--allow-duplicates`
    adds it all the same, so that every size measures the same work (the check for a recording already present, then
    one build)."""
    run = timed_edit(cat, out, "add", [str(bin_path), "catalog", "add", "--allow-duplicates", "--catalog", None,
                                       str(audio_file)])
    m = re.search(r"added (\d+).*\(([\d.]+) min of audio", run["text"])
    if not m or m.group(1) != "1":
        sys.exit("catalog add did not add %s:\n%s" % (audio_file, run["text"][-2000:]))
    return {"file": str(audio_file), "audio_s": float(m.group(2)) * 60, "wall_s": run["wall_s"],
            "cpu_s": run["cpu_s"], "max_rss_mb": run["max_rss_mb"]}


def timed_remove(bin_path, cat, out):
    """`catalog remove` of the catalog's middle track from a copy of it: what removing a song costs at this size (the
    kept postings moved down the frame axis as the file is written)."""
    listing = subprocess.run([str(bin_path), "catalog", "list", "--catalog", str(cat)], capture_output=True, text=True,
                             check=True).stdout.splitlines()[1:]
    key = listing[len(listing) // 2].split("\t")[0]
    run = timed_edit(cat, out, "remove", [str(bin_path), "catalog", "remove", "--catalog", None, key])
    if "removed " + key not in run["text"]:
        sys.exit("catalog remove did not remove %s:\n%s" % (key, run["text"][-2000:]))
    return {"key": key, "wall_s": run["wall_s"], "cpu_s": run["cpu_s"], "max_rss_mb": run["max_rss_mb"]}


def timed_edit(cat, out, name, args):
    """Runs `args` (None standing for the catalog) on a fresh copy of `cat`: wall seconds, CPU seconds of the process
    and its children, max RSS in MB, and its output. Exits when the command fails."""
    copy = out / ("%s-test.bmcat" % name)
    subprocess.run(["cp", "--sparse=never", str(cat), str(copy)], check=True)
    t0 = time.monotonic()
    try:
        with open(out / ("%s-test.log" % name), "w+") as logf:
            p = subprocess.Popen([str(copy) if a is None else a for a in args], stdout=logf, stderr=subprocess.STDOUT)
            _, status, ru = os.wait4(p.pid, 0)
            wall = time.monotonic() - t0
            logf.seek(0)
            text = logf.read()
    finally:
        copy.unlink(missing_ok=True)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("catalog %s failed:\n%s" % (name, text[-2000:]))
    return {"wall_s": wall, "cpu_s": ru.ru_utime + ru.ru_stime, "max_rss_mb": ru.ru_maxrss / 1024, "text": text}


def hold_lock(out):
    """Takes `out`'s lock for the rest of the run, or exits: two runs writing one --out folder overwrite each other's
    results, and one's `cp` of a catalog onto the shared test copy rewrites the file that the other's `catalog add` or
    `catalog remove` has mapped, which kills that process with SIGBUS."""
    f = open(out / ".lock", "w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit("another catalog_scale run is using %s (it holds %s); wait for it to finish, or give this run "
                 "another --out" % (out, out / ".lock"))
    return f


def evict(cat):
    """Drops the page cache (all of it where permitted, else the catalog's pages). Returns how."""
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return "drop_caches"
    except OSError:
        pass
    try:
        fd = os.open(cat, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
        return "fadvise"
    except OSError as e:
        return "not measured (%s)" % e


def trimmed_input(sim, ch, max_minutes, out_dir):
    """The channel's WAV, cut to its first max_minutes (a new file in out_dir), and the seconds it lasts."""
    src = sim / ("%s.wav" % ch)
    with wave.open(str(src)) as w:
        rate, frames = w.getframerate(), w.getnframes()
        seconds = frames / rate
        if max_minutes is None or max_minutes * 60 >= seconds:
            return src, seconds
        keep = int(max_minutes * 60 * rate)
        dst = out_dir / ("%s-%s-%gmin.wav" % (sim.name, ch, max_minutes))
        if not dst.exists():
            tmp = dst.with_suffix(".tmp")
            with wave.open(str(tmp), "wb") as o:
                o.setparams(w.getparams())
                left = keep
                while left > 0:
                    chunk = w.readframes(min(left, rate * 60))
                    if not chunk:
                        break
                    o.writeframes(chunk)
                    left -= min(left, rate * 60)
            tmp.rename(dst)
        return dst, keep / rate


def trimmed_csv(src, dst, cut_s):
    """Rows of a truth or segments CSV that start before cut_s, ended at cut_s at the latest."""
    with open(src, newline="") as f, open(dst, "w", newline="") as o:
        r = csv.DictReader(f)
        w = csv.DictWriter(o, fieldnames=r.fieldnames)
        w.writeheader()
        for row in r:
            if float(row["start_s"]) < cut_s:
                row["end_s"] = "%.3f" % min(float(row["end_s"]), cut_s)
                w.writerow(row)


def timed_scan(bin_path, cat, ch, wav, csv_path, log_path, timeout_s):
    """Runs scan; returns wall, CPU (the scan process and its reaped children) and max RSS, and whether it timed
    out (then the audio scanned so far comes from its progress line)."""
    if csv_path.exists():
        csv_path.unlink()
    cmd = [str(bin_path), "scan", "--catalog", str(cat), "--channel", ch, "--start", ORIGIN, "--csv", str(csv_path),
           str(wav)]
    log("+ " + " ".join(cmd))
    with open(log_path, "w") as logf:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=logf, stderr=logf)
        timed_out = False
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if timeout_s and time.monotonic() - t0 > timeout_s:
                p.kill()
                pid, status, ru = os.wait4(p.pid, 0)
                timed_out = True
                break
            time.sleep(0.5)
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
    text = Path(log_path).read_text(errors="replace")
    if not timed_out and p.returncode != 0:
        sys.exit("scan failed (exit %d); see %s:\n%s" % (p.returncode, log_path, text[-2000:]))
    done = re.findall(r"scan %s: (\d+)(?:/\d+)? s" % re.escape(ch), text)
    return {"wall_s": wall, "cpu_s": ru.ru_utime + ru.ru_stime, "max_rss_mb": ru.ru_maxrss / 1024,
            "timed_out": timed_out, "audio_done_s": float(done[-1]) if done else None}


def scan_sim(a, bin_path, cat, sim, dev_csv, dev_isrcs, run_dir, max_minutes):
    run_dir.mkdir(parents=True, exist_ok=True)
    channels = sorted(w.stem for w in sim.glob("ch*.wav"))
    audio = cpu = wall = 0.0
    rss = 0.0
    csvs = []
    timed_out = False
    cut = None
    cpu_runs = []
    for ch in channels:
        wav, seconds = trimmed_input(sim, ch, max_minutes, Path(a.out) / "clips")
        cut = seconds
        csv_path = run_dir / ("%s.csv" % ch)
        r = timed_scan(bin_path, cat, ch, wav, csv_path, run_dir / ("%s.log" % ch), a.scan_timeout)
        runs = [r]
        # Later runs (--runs) time the same scan again; their plays must be the first run's, byte for byte.
        while len(runs) < a.runs and not r["timed_out"]:
            again = run_dir / ("%s.run%d.csv" % (ch, len(runs) + 1))
            r = timed_scan(bin_path, cat, ch, wav, again, run_dir / ("%s.run%d.log" % (ch, len(runs) + 1)),
                           a.scan_timeout)
            if not r["timed_out"]:
                if again.read_bytes() != csv_path.read_bytes():
                    sys.exit("%s %s: run %d logged other plays than run 1 (%s against %s): the scan is not "
                             "deterministic" % (sim.name, ch, len(runs) + 1, again, csv_path))
                again.unlink()
            runs.append(r)
        if not r["timed_out"]:
            r = dict(runs[0], cpu_s=statistics.median(x["cpu_s"] for x in runs),
                     wall_s=statistics.median(x["wall_s"] for x in runs),
                     max_rss_mb=max(x["max_rss_mb"] for x in runs))
        cpu_runs.append([x["cpu_s"] for x in runs])
        cpu += r["cpu_s"]
        wall += r["wall_s"]
        rss = max(rss, r["max_rss_mb"])
        if r["timed_out"]:
            timed_out = True
            audio += r["audio_done_s"] or 0
            log("%s %s: timed out after %.0f s (%s s of audio scanned)" % (sim.name, ch, r["wall_s"],
                                                                            r["audio_done_s"]))
        else:
            audio += seconds
            csvs.append(run_dir / ("%s.csv" % ch))
    res = {"sim": sim.name, "audio_s": audio, "cpu_s": cpu, "wall_s": wall, "max_rss_mb": rss,
           "load_average_1min": os.getloadavg()[0],
           "x_rt_per_core": audio / cpu if cpu > 0 else None, "timed_out": timed_out, "cpu_runs_s": cpu_runs,
           "scanned_minutes_per_channel": cut / 60 if cut else None}
    if timed_out:
        return res
    truth = run_dir / "truth.csv"
    segs = run_dir / "segments.csv"
    trimmed_csv(sim / "truth.csv", truth, cut)
    trimmed_csv(sim / "segments.csv", segs, cut)
    e = Path(a.eval_dir)
    det = run_dir / "detections.csv"
    with open(det, "w") as f:
        subprocess.run([sys.executable, str(e / "from_scan.py"), "--tracks", str(dev_csv), "--origin", ORIGIN]
                       + [str(c) for c in csvs], check=True, stdout=f)
    score = json.loads(subprocess.run([sys.executable, str(e / "score.py"), str(truth), str(det), "--segments",
                                       str(segs), "--json"], check=True, stdout=subprocess.PIPE, text=True).stdout)
    (run_dir / "score.json").write_text(json.dumps(score, indent=1))
    distractor = 0
    for c in csvs:
        with open(c, newline="", encoding="utf-8-sig") as f:
            for row in csv.DictReader(f):
                if (row.get("isrc") or "").strip().upper() not in dev_isrcs or row.get("album") == DISTRACTOR_ALBUM:
                    distractor += 1
    res.update({"f1": score.get("f1"), "tp": score.get("tp"), "fp": score.get("fp"), "fn": score.get("fn"),
                "distractor_plays": distractor,
                "latency_median_s": (score.get("latency_s") or {}).get("median"),
                "start_error_s": score.get("start_error_s"), "end_error_s": score.get("end_error_s")})
    return res


def fmt(x, spec):
    return "n/a" if x is None else format(x, spec)


def tables(results):
    lines = []
    head = ["size", "tracks", "hours", "audio/peak copies", "import xRT/core", "add 1 file s", "add max RSS MB",
            "remove 1 s", "remove max RSS MB", "index MB/h", "file MB", "load cold s", "load warm s", "build max RSS MB"]
    rows = []
    for s in results["sizes"]:
        c = s["catalog"]
        b = c["builder"]
        rows.append([s["name"], "%d" % c["tracks"], "%.1f" % c["hours"],
                     "%d/%d" % (c["audio_level_copies"], c["peak_level_copies"]),
                     fmt(c.get("import_x_rt_per_core"), ".0f"),
                     fmt((c.get("add_one_file") or {}).get("wall_s"), ".1f"),
                     fmt((c.get("add_one_file") or {}).get("max_rss_mb"), ".0f"),
                     fmt((c.get("remove_one_track") or {}).get("wall_s"), ".1f"),
                     fmt((c.get("remove_one_track") or {}).get("max_rss_mb"), ".0f"),
                     "%.2f" % (c["index_bytes"] / 1e6 / c["hours"]), "%.0f" % (c.get("file_bytes", 0) / 1e6),
                     fmt(c.get("load_cold_s"), ".3f"), fmt(c.get("load_warm_s"), ".3f"),
                     fmt(c.get("build_max_rss_mb"), ".0f")])
    lines += table(head, rows)
    lines.append("import: `catalog add` of one real song (%s) to a copy of the catalog, audio seconds per CPU second "
                 "(ffmpeg included), wall seconds and max RSS; remove: `catalog remove` of the catalog's middle track "
                 "from a copy, wall seconds and max RSS; build max RSS: Benchmarks build-scale-catalog, every size "
                 "built in that run included" % (Path((results["sizes"][0]["catalog"].get("add_one_file") or {})
                                                      .get("file", "?")).name if results["sizes"] else "?"))
    lines.append("")
    head = ["size", "simulation", "audio scanned (all channels)", "scan xRT/core", "scan max RSS MB", "F1", "FP", "distractor FP",
            "latency med s", "start err med/p95 s", "end err med/p95 s"]
    rows = []

    def errors(e):
        return "n/a" if not e else "%.2f / %.2f" % (e["median_abs"], e["p95_abs"])
    for s in results["sizes"]:
        for r in s["scans"]:
            audio = ("%.0f min" % (r["audio_s"] / 60) if r["audio_s"] >= 120 else "%.0f s" % r["audio_s"]) + \
                (" (stopped)" if r["timed_out"] else "")
            rows.append([s["name"], r["sim"], audio, fmt(r["x_rt_per_core"], ".3g"), "%.0f" % r["max_rss_mb"],
                         fmt(r.get("f1"), ".3f"), fmt(r.get("fp"), "d"), fmt(r.get("distractor_plays"), "d"),
                         fmt(r.get("latency_median_s"), ".2f"), errors(r.get("start_error_s")),
                         errors(r.get("end_error_s"))])
    lines += table(head, rows)
    for name, reason in results["skipped_sizes"].items():
        lines.append("%s: %s" % (name, reason))
    lines.append("cold load: page cache dropped by %s; load = `catalog info` (map, checksum every byte, decode the "
                 "header); scan xRT/core = audio seconds / CPU seconds of the scan process and its children (%s); scan max "
                 "RSS: the catalog's mapped pages and the scan's own memory (a WAV's samples are read a chunk at a "
                 "time; before a077ba0 its map added about 10.6 MB per minute of 44.1 kHz stereo); a scan stopped "
                 "by --scan-timeout reports its speed from its last progress line (whole seconds of audio); start and end "
                 "err: the scorer's median and 95th percentile of |logged - true| over the plays it matched" %
                 (results.get("cold_method", "n/a"),
                  "the median of %d runs of each channel, one after another" % results.get("runs", 1)
                  if results.get("runs", 1) > 1 else "one run of each channel"))
    loads = [r["load_average_1min"] for s in results["sizes"] for r in s["scans"] if "load_average_1min" in r]
    if loads:
        lines.append("machine load average (1 min) after the scans: %.1f to %.1f on %d cores" % (
            min(loads), max(loads), os.cpu_count() or 0))
    return lines


def table(head, rows):
    w = [max(len(x) for x in col) for col in zip(head, *rows)]
    return ["  ".join(h.ljust(n) for h, n in zip(head, w)).rstrip()] + \
        ["  ".join(x.ljust(n) for x, n in zip(r, w)).rstrip() for r in rows]


def plot(results, path):
    import matplotlib.pyplot as plt
    sizes = results["sizes"]
    hours = [s["catalog"]["hours"] for s in sizes]
    fig, ax = plt.subplots(2, 2, figsize=(12, 8.5))
    fig.suptitle("broadcast-monitor at catalog scale (%s)" % results["binary"], fontsize=10)
    a = ax[0][0]
    sims = sorted({r["sim"] for s in sizes for r in s["scans"]})
    for sim in sims:
        pts = [(s["catalog"]["hours"], r["x_rt_per_core"]) for s in sizes for r in s["scans"]
               if r["sim"] == sim and r["x_rt_per_core"]]
        if pts:
            line, = a.plot(*zip(*pts), marker="o", label="scan, " + sim)
            partial = [(s["catalog"]["hours"], r["x_rt_per_core"]) for s in sizes for r in s["scans"]
                       if r["sim"] == sim and r["x_rt_per_core"] and r["timed_out"]]
            if partial:
                a.plot(*zip(*partial), marker="o", markersize=11, linestyle="none", markerfacecolor="none",
                       color=line.get_color(), label="stopped by the time budget" if sim == sims[0] else None)
    imp = [(s["catalog"]["hours"], s["catalog"].get("import_x_rt_per_core")) for s in sizes]
    imp = [p for p in imp if p[1]]
    if imp:
        a.plot(*zip(*imp), marker="s", linestyle="--", label="import (catalog add)")
    a.axhline(1, color="grey", linewidth=0.8)
    a.set_xscale("log")
    a.set_yscale("log")
    a.set_xlabel("catalog hours")
    a.set_ylabel("x real time per core")
    a.set_title("speed per core (higher is better)")
    a.legend(fontsize=8)
    a = ax[0][1]
    a.plot(hours, [s["catalog"]["index_bytes"] / 1e6 / s["catalog"]["hours"] for s in sizes], marker="o")
    a.set_xscale("log")
    a.set_xlabel("catalog hours")
    a.set_ylabel("index MB per hour of audio")
    a.set_title("index size")
    a.set_ylim(bottom=0)
    a = ax[1][0]
    for key, label in [("load_cold_s", "load, cold cache"), ("load_warm_s", "load, warm cache")]:
        pts = [(s["catalog"]["hours"], s["catalog"].get(key)) for s in sizes if s["catalog"].get(key)]
        if pts:
            a.plot(*zip(*pts), marker="o", label=label)
    a.set_xscale("log")
    a.set_yscale("log")
    a.set_xlabel("catalog hours")
    a.set_ylabel("seconds")
    a.set_title("catalog load (catalog info)")
    a.legend(fontsize=8)
    a = ax[1][1]
    for sim in sims:
        pts = [(s["catalog"]["hours"], r["max_rss_mb"]) for s in sizes for r in s["scans"] if r["sim"] == sim]
        if pts:
            a.plot(*zip(*pts), marker="o", label="scan max RSS, " + sim)
    a.set_xscale("log")
    a.set_xlabel("catalog hours")
    a.set_ylabel("MB")
    a.set_title("memory and accuracy")
    a.set_ylim(bottom=0)
    a.ticklabel_format(axis="y", useOffset=False, style="plain")
    b = a.twinx()
    for sim in sims:
        pts = [(s["catalog"]["hours"], r.get("f1")) for s in sizes for r in s["scans"]
               if r["sim"] == sim and r.get("f1") is not None]
        if pts:
            b.plot(*zip(*pts), marker="x", linestyle=":", label="F1, " + sim)
    b.set_ylim(0, 1.05)
    b.set_ylabel("F1")
    h1, l1 = a.get_legend_handles_labels()
    h2, l2 = b.get_legend_handles_labels()
    a.legend(h1 + h2, l1 + l2, fontsize=8, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    home = Path.home()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="dev,100,1000,10000", help="catalog sizes in hours (dev = the dev catalog)")
    ap.add_argument("--bin", default=str(ROOT / ".build/release/broadcast-monitor"), help="binary to measure")
    ap.add_argument("--sims", default="dev-radio-s1,dev-hard-s1", help="simulations (names under EVAL_CACHE/sims)")
    ap.add_argument("--out", default="/tmp/bm-catalog-scale", help="output folder")
    ap.add_argument("--max-minutes", default=None,
                    help="scan only the first N minutes of each channel (default: all of it); per size as "
                         "SIZE=N,... (such as dev=60,100=5,1000=1; a size not named is scanned whole)")
    ap.add_argument("--scan-timeout", type=float, default=3600,
                    help="seconds after which a scan is stopped (its speed is still reported); 0: none")
    ap.add_argument("--audio-hours", type=float, default=100,
                    help="distractor hours made from audio; beyond, copies are derived at the peak level")
    ap.add_argument("--threads", type=int, default=2, help="threads that build catalogs")
    ap.add_argument("--rebuild", action="store_true", help="build the catalogs again even if cached")
    ap.add_argument("--rescan", action="store_true", help="scan again even where --out has a scan already measured")
    ap.add_argument("--no-build", action="store_true", help="do not run swift build (use the binaries as they are)")
    ap.add_argument("--warm-runs", type=int, default=3, help="warm loads per size (median)")
    ap.add_argument("--runs", type=int, default=3,
                    help="scans of each channel (the CPU is their median; every run must log the same plays)")
    ap.add_argument("--cache", default=os.environ.get("BM_SCALE_CACHE", str(home / ".cache/bmon-scale")))
    ap.add_argument("--eval-dir", default=os.environ.get("EVAL_DIR", str(ROOT.parent / "shared/eval")))
    ap.add_argument("--eval-cache", default=os.environ.get("EVAL_CACHE", str(home / ".cache/bmon-eval")))
    ap.add_argument("--wait", type=float, default=3600, help="longest wait for a corpus or simulation being made")
    ap.add_argument("--replot", action="store_true",
                    help="only print the tables and draw the plot again from --out/results.json")
    a = ap.parse_args()
    if a.replot:
        results = json.loads((Path(a.out) / "results.json").read_text())
        text = "\n".join(tables(results))
        (Path(a.out) / "results.txt").write_text(text + "\n")
        print(text)
        ensure_matplotlib()
        plot(results, Path(a.out) / "catalog_scale.png")
        return
    if a.runs < 1:
        sys.exit("--runs %d: give 1 or more" % a.runs)
    sizes = parse_sizes(a.sizes)
    a.minutes_by_size = parse_minutes(a.max_minutes, sizes)
    cache = Path(a.cache).resolve()
    if str(cache).startswith(str(ROOT) + "/"):
        sys.exit("--cache %s is inside the repository; choose a folder outside it" % cache)
    if not (Path(a.eval_dir) / "score.py").exists():
        sys.exit("no evaluation scripts at %s (../shared/eval beside the checkout, or --eval-dir)" % a.eval_dir)
    out = Path(a.out)
    (out / "clips").mkdir(parents=True, exist_ok=True)
    out_lock = hold_lock(out)  # held until this process exits
    ensure_matplotlib()

    env = swift_env()
    bench_bin = ROOT / ".build/release/Benchmarks"
    bin_path = Path(a.bin)
    if not a.no_build:
        run(["swift", "build", "-c", "release", "--product", "Benchmarks"], cwd=ROOT, env=env)
        if a.bin == ap.get_default("bin"):
            run(["swift", "build", "-c", "release", "--product", "broadcast-monitor"], cwd=ROOT, env=env)
    for b in (bench_bin, bin_path):
        if not b.exists():
            sys.exit("no binary at %s (build it, or leave out --no-build)" % b)

    music = Path(subprocess.run(["bash", str(ROOT / "scripts/fetch-scale-music.sh")], check=True,
                                stdout=subprocess.PIPE, text=True, env=env).stdout.strip().splitlines()[-1])
    corpus = Path(a.eval_cache) / "corpora/dev"
    dev_csv = corpus / "tracks.csv"
    wait_for("the dev corpus %s (../shared/eval/corpus.py)" % dev_csv, dev_csv.exists, a.wait)
    with open(dev_csv, newline="") as f:
        dev_isrcs = {r["isrc"].strip().upper() for r in csv.DictReader(f)}
    sims = [Path(s) if "/" in s else Path(a.eval_cache) / "sims" / s for s in a.sims.split(",") if s]
    for sim in sims:
        wait_for("the simulation %s (../shared/eval/simulate.py)" % sim, lambda: sim_complete(sim), a.wait)

    music_files = sorted(p for p in music.rglob("*") if p.is_file() and p.name != ".complete")
    key = cache_key(dev_csv, music_files, a.audio_hours)
    cache_dir = cache / "catalogs" / key
    results = {"binary": str(bin_path), "cache": str(cache_dir), "skipped_sizes": {}, "sizes": [],
               "max_minutes": {size_name(k): v for k, v in a.minutes_by_size.items()}, "audio_hours": a.audio_hours, "started": time.strftime("%F %T"),
               "runs": a.runs}
    reports = build_catalogs(a, bench_bin, dev_csv, music, cache_dir, sizes, results)

    # Scans already measured in --out with the same binary, catalog and clip length are kept (--rescan: measure
    # them again), so that a size can be added to a run without scanning the others again.
    previous = {}
    if (out / "results.json").exists() and not a.rescan:
        for old in json.loads((out / "results.json").read_text()).get("sizes", []):
            for r in old.get("scans", []):
                previous[(old["catalog"]["builder"]["catalogPath"], r["sim"], r.get("scan_key"))] = r
    bin_stat = bin_path.stat()
    add_file = sorted(p for p in music.rglob("*.ogg"))[0]
    cold_method = None
    for s in sizes:
        if s not in reports:
            continue
        r = reports[s]
        cat = Path(r["catalogPath"])
        log("== %s: %s" % (size_name(s), cat))
        info = catalog_info(bin_path, cat)
        cold_method = evict(cat)
        cold = catalog_info(bin_path, cat)["load_s"] if not cold_method.startswith("not") else None
        warm = statistics.median(catalog_info(bin_path, cat)["load_s"] for _ in range(max(1, a.warm_runs)))
        add = timed_add(bin_path, cat, add_file, out)
        remove = timed_remove(bin_path, cat, out)
        catalog = {"tracks": int(info["tracks"]), "hours": info["hours"], "hashes": int(info["hashes"]),
                   "index_bytes": int(info["index_bytes"]), "file_bytes": int(info.get("file_bytes", 0)),
                   "load_cold_s": cold, "load_warm_s": warm, "add_one_file": add,
                   "remove_one_track": remove,
                   "import_x_rt_per_core": add["audio_s"] / add["cpu_s"] if add["cpu_s"] > 0 else None,
                   "distractor_tracks": r["distractorTracks"], "audio_level_copies": r["audioLevelCopies"],
                   "peak_level_copies": r["peakLevelCopies"],
                   "copies_x_rt_per_core": r["importAudioSeconds"] / r["importCPUSeconds"]
                   if r["importCPUSeconds"] > 0 else None,
                   "build_wall_s": r.get("buildCommandWallSeconds"), "build_max_rss_mb": r["maxResidentMB"],
                   "builder": r}
        run_name = size_name(s).replace(" ", "")
        scans = []
        for sim in sims:
            scan_key = "%s %d %d %s %s %d" % (bin_path, bin_stat.st_size, bin_stat.st_mtime, cat.stat().st_mtime,
                                              a.minutes_by_size[s], a.runs)
            kept = previous.get((str(cat), sim.name, scan_key))
            if kept:
                log("%s: keeping the scan of %s measured before (--rescan measures it again)" % (size_name(s),
                                                                                                  sim.name))
                scans.append(kept)
                continue
            res = scan_sim(a, bin_path, cat, sim, dev_csv, dev_isrcs, out / ("%s-%s" % (run_name, sim.name)),
                           a.minutes_by_size[s])
            res["scan_key"] = scan_key
            scans.append(res)
        results["sizes"].append({"name": size_name(s), "size_hours": s, "catalog": catalog, "scans": scans})
        results["cold_method"] = cold_method
        (out / "results.json").write_text(json.dumps(results, indent=1))
        text = "\n".join(tables(results))
        (out / "results.txt").write_text(text + "\n")
        print(text, flush=True)
        plot(results, out / "catalog_scale.png")
    log("results: %s/results.txt, %s/results.json, plot %s/catalog_scale.png" % (out, out, out))


if __name__ == "__main__":
    main()
