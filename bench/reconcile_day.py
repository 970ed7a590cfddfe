#!/usr/bin/env python3
"""Traffic reconciliation against the yardstick's exact truth (issue 18): schedules and air built from the
simulator's ads, every status present, and `report reconcile` compared row by row with the status the truth gives.

    python3 bench/reconcile_day.py                          # dev-radio-s1..s3: three hours of two channels
    python3 bench/reconcile_day.py dev-radio-s1 --bin .build/debug/broadcast-monitor

Each simulation (two channels, one hour, from `../shared/eval/simulate.py`) is one hour of the test day, from
2026-03-02T00:00:00Z on. Its ads (the `ad` rows of `segments.csv`: synthetic voice over a music bed, each one
unique) become catalog items of kind `ad` with a `cart` and an `advertiser`, cut from the channel's own air at the
truth's bounds (an ad the simulator cut at the end of its hour is the item as it aired). Each ad, in air order, gets
one of eight variants:

    0, 1  scheduled 15 s after / 25 s before it aired        -> aired (within the 60 s tolerance)
    2     scheduled 150 s before it aired                    -> aired-late
    3     scheduled 150 s after it aired                     -> aired-early
    4     the air muted after its first 45 % (a cut spot)    -> partial
    5     the air muted for all of it; scheduled at its time -> missed
    6     scheduled on the other channel at its time         -> wrong-channel
    7     not scheduled                                      -> unscheduled

The air with its mutes goes through `scan --db` (one scan per channel and hour), the schedule through
`schedule import`, then `report reconcile --tz UTC`. The expected rows are worked out from the truth alone, with the
report's documented rules (an airing shorter than 90 % of the spot's length is partial; beyond the tolerance it is
late or early; a cart heard only on another channel is wrong-channel; an ad airing matching no spot is
unscheduled). The script prints each difference, the counts per status, the airing bounds' errors against the
truth, and exits 1 if any row differs.

Needs ffmpeg, the shared evaluation scripts' simulations in $EVAL_CACHE (default ~/.cache/bmon-eval; make them with
bench/yardstick.sh or simulate.py), and a built broadcast-monitor (default .build/release/broadcast-monitor).
"""

import argparse
import csv
import datetime
import os
import shutil
import subprocess
import sys
import time

ORIGIN = datetime.datetime(2026, 3, 2, tzinfo=datetime.timezone.utc)
TOLERANCE_S = 60.0  # report reconcile's default tolerance
PARTIAL_FRACTION = 0.9  # ProofOfPlayReport.partialFraction
# Scheduled this long after the airing: well inside the tolerance, either side.
ON_TIME_OFFSETS_S = {"on-time-after": 15.0, "on-time-before": -25.0}
OFF_TIME_S = 150.0  # well beyond it, well inside the hour a spot matches within
CUT_FRACTION = 0.45  # a cut spot airs this share of its length
VARIANTS = ["on-time-after", "on-time-before", "late", "early", "cut", "not-aired", "other-channel", "unscheduled"]


def iso(seconds):
    """Seconds since the day's origin as ISO 8601 UTC with milliseconds, as the reports write it."""
    t = ORIGIN + datetime.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


def parse_iso(text):
    """ISO 8601 UTC (`...Z`) as seconds since the day's origin."""
    t = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return (t - ORIGIN).total_seconds()


def run(arguments, log):
    started = time.time()
    result = subprocess.run(arguments, capture_output=True, text=True)
    log.write("$ %s\n%s%s" % (" ".join(arguments), result.stdout[-2000:], result.stderr[-4000:]))
    if result.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (result.returncode, " ".join(arguments), result.stderr[-2000:]))
    return time.time() - started


def advertiser(text, fallback):
    """The advertiser a simulated ad names before its first colon, else `fallback`."""
    head = text.split(":", 1)[0].strip()
    return head if ":" in text and 0 < len(head) <= 40 else fallback


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sims", nargs="*", default=["dev-radio-s1", "dev-radio-s2", "dev-radio-s3"])
    parser.add_argument("--bin", default=".build/release/broadcast-monitor")
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "bm-reconcile-day"))
    parser.add_argument("--cache", default=os.environ.get("EVAL_CACHE", os.path.expanduser("~/.cache/bmon-eval")))
    options = parser.parse_args()
    binary = os.path.abspath(options.bin)
    if not os.access(binary, os.X_OK):
        sys.exit("no broadcast-monitor at %s: build it (swift build -c release) or give --bin" % binary)
    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(os.path.join(options.work, "ads"))
    os.makedirs(os.path.join(options.work, "air"))
    log = open(os.path.join(options.work, "commands.log"), "w")

    # The ads of every simulation, in air order, each with its variant.
    ads = []
    channels = set()
    for hour, name in enumerate(options.sims):
        folder = os.path.join(options.cache, "sims", name)
        segments = os.path.join(folder, "segments.csv")
        if not os.path.exists(segments):
            sys.exit("no simulation %s in %s: make it with bench/yardstick.sh or simulate.py" % (name, folder))
        with open(segments, newline="") as f:
            for row in csv.DictReader(f):
                if row["kind"] != "ad":
                    continue
                channels.add(row["channel"])
                start = float(row["start_s"])
                end = float(row["end_s"])
                ads.append(dict(
                    hour=hour, sim=folder, channel=row["channel"], local_start=start, local_end=end,
                    start=hour * 3600 + start, end=hour * 3600 + end,
                    cart="C%d%s%s" % (hour + 1, row["channel"][-2:], row["seg"].zfill(3))))
                ads[-1]["advertiser"] = advertiser(row["text"], "Advertiser " + ads[-1]["cart"])
    if len(channels) < 2:
        sys.exit("the simulations need two channels or more (for wrong-channel)")
    ads.sort(key=lambda ad: (ad["start"], ad["channel"]))
    for index, ad in enumerate(ads):
        ad["variant"] = VARIANTS[index % len(VARIANTS)]
        ad["length"] = ad["end"] - ad["start"]
        # What of it airs, by the truth: a cut spot its first part, a spot that never aired nothing.
        if ad["variant"] == "cut":
            ad["aired"] = (ad["start"], ad["start"] + CUT_FRACTION * ad["length"])
        elif ad["variant"] == "not-aired":
            ad["aired"] = None
        else:
            ad["aired"] = (ad["start"], ad["end"])
    if len(ads) < len(VARIANTS):
        sys.exit("%d ads: at least %d are needed for every status; give more simulations" % (len(ads), len(VARIANTS)))

    # The catalog: each ad cut from the air it aired on, at the truth's bounds.
    metadata = os.path.join(options.work, "ads.csv")
    with open(metadata, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["path", "title", "kind", "cart", "advertiser"])
        for ad in ads:
            path = os.path.join(options.work, "ads", ad["cart"] + ".wav")
            run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", os.path.join(ad["sim"], ad["channel"] + ".wav"),
                 "-ss", "%.3f" % ad["local_start"], "-t", "%.3f" % ad["length"], path], log)
            writer.writerow([path, "Spot " + ad["cart"], "ad", ad["cart"], ad["advertiser"]])
    catalog = os.path.join(options.work, "ads.bmcat")
    catalog_seconds = run([binary, "catalog", "add", "--catalog", catalog, "--metadata", metadata], log)

    # The air: each channel's hour, with the cut and the never-aired spots muted.
    database = os.path.join(options.work, "plays.sqlite")
    scan_seconds = 0.0
    air_seconds = 0.0
    for hour, name in enumerate(options.sims):
        for channel in sorted(channels):
            source = os.path.join(options.cache, "sims", name, channel + ".wav")
            mutes = []
            for ad in ads:
                if ad["hour"] != hour or ad["channel"] != channel or ad["variant"] not in ("cut", "not-aired"):
                    continue
                muted_from = ad["local_start"] + (CUT_FRACTION * ad["length"] if ad["variant"] == "cut" else 0)
                mutes.append("between(t,%.3f,%.3f)" % (muted_from, ad["local_end"]))
            air = source
            if mutes:
                air = os.path.join(options.work, "air", "%s-%s.wav" % (name, channel))
                run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", source, "-af",
                     "volume=enable='%s':volume=0" % "+".join(mutes), "-c:a", "pcm_s16le", air], log)
            scan_seconds += run([binary, "scan", "--catalog", catalog, "--channel", channel, "--db", database,
                                 "--start", iso(hour * 3600)[:-5] + "Z", air], log)
            air_seconds += 3600

    # The traffic schedule.
    others = sorted(channels)
    spots = []
    for ad in ads:
        variant = ad["variant"]
        if variant == "unscheduled":
            continue
        channel = ad["channel"]
        at = ad["start"]
        if variant in ON_TIME_OFFSETS_S:
            at += ON_TIME_OFFSETS_S[variant]
        elif variant == "late":
            at -= OFF_TIME_S
        elif variant == "early":
            at += OFF_TIME_S
        elif variant == "other-channel":
            channel = others[(others.index(channel) + 1) % len(others)]
        spots.append(dict(channel=channel, at=round(at, 3), cart=ad["cart"], advertiser=ad["advertiser"],
                          title="Spot " + ad["cart"], length=round(ad["length"], 3)))
    traffic = os.path.join(options.work, "traffic.csv")
    with open(traffic, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["channel", "scheduled_at", "cart", "advertiser", "title", "length_s"])
        for spot in spots:
            writer.writerow([spot["channel"], iso(spot["at"]), spot["cart"], spot["advertiser"], spot["title"],
                             "%.3f" % spot["length"]])
    run([binary, "schedule", "import", "--db", database, "--tz", "UTC", traffic], log)
    report = os.path.join(options.work, "reconcile.csv")
    report_seconds = run([binary, "report", "reconcile", "--db", database, "--tz", "UTC", "--from",
                          iso(0)[:10], "--to", iso(len(options.sims) * 3600 + 86400)[:10], "--out", report], log)

    # The expected rows, from the truth alone.
    by_cart = {ad["cart"]: ad for ad in ads}
    expected = {}
    for spot in spots:
        ad = by_cart[spot["cart"]]
        if ad["aired"] is None:
            status = "missed"
        elif ad["channel"] != spot["channel"]:
            status = "wrong-channel"
        elif ad["aired"][1] - ad["aired"][0] < PARTIAL_FRACTION * spot["length"]:
            status = "partial"
        elif ad["aired"][0] - spot["at"] > TOLERANCE_S:
            status = "aired-late"
        elif ad["aired"][0] - spot["at"] < -TOLERANCE_S:
            status = "aired-early"
        else:
            status = "aired"
        expected[(spot["channel"], spot["cart"], iso(spot["at"]))] = (status, ad)
    for ad in ads:
        if ad["variant"] == "unscheduled":
            expected[(ad["channel"], ad["cart"], "")] = ("unscheduled", ad)

    with open(report, newline="") as f:
        rows = list(csv.DictReader(f))
    differences = []
    starts = []
    ends = []
    seen = set()
    counts = {}
    for row in rows:
        key = (row["channel"], row["cart"], row["scheduled_at"])
        counts[row["status"]] = counts.get(row["status"], 0) + 1
        if key not in expected:
            differences.append("unexpected row: %s" % ",".join(row.values()))
            continue
        seen.add(key)
        status, ad = expected[key]
        if row["status"] != status:
            differences.append("%s %s at %s: %s, expected %s" % (key[0], key[1], key[2] or "-", row["status"], status))
            continue
        if ad["aired"] is not None:
            if row["aired_channel"] != ad["channel"]:
                differences.append("%s %s: aired on %s, expected %s" % (key[0], key[1], row["aired_channel"],
                                                                        ad["channel"]))
            starts.append(abs(parse_iso(row["aired_start"]) - ad["aired"][0]))
            ends.append(abs(parse_iso(row["aired_end"]) - ad["aired"][1]))
    for key in expected:
        if key not in seen:
            differences.append("missing row: %s %s at %s (expected %s)" % (key[0], key[1], key[2] or "-",
                                                                           expected[key][0]))

    for line in differences:
        print("DIFFERENCE: " + line)
    print("reconcile day: %d hours of %d channels (%s), %d ads, %d scheduled spots, %d report rows" % (
        len(options.sims), len(channels), ", ".join(options.sims), len(ads), len(spots), len(rows)))
    print("statuses: " + ", ".join("%s %d" % (k, counts[k]) for k in sorted(counts)))
    if starts:
        starts.sort()
        ends.sort()
        print("airing bounds against the truth: start error median %.2f s, max %.2f s; end error median %.2f s, "
              "max %.2f s" % (starts[len(starts) // 2], starts[-1], ends[len(ends) // 2], ends[-1]))
    print("times: catalog of %d ads %.1f s, scan %.1f s for %.0f s of air (%.0fx real time), reconcile %.2f s" % (
        len(ads), catalog_seconds, scan_seconds, air_seconds, air_seconds / max(scan_seconds, 1e-9),
        report_seconds))
    print("differences: %d (files in %s)" % (len(differences), options.work))
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
