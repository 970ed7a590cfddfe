#!/usr/bin/env bash
# Accuracy yardstick, end to end: simulated radio channels made from real music, with exact ground
# truth, scanned by broadcast-monitor and scored.
#
#   bash bench/yardstick.sh
#   PROFILES="radio" SEEDS="1 2 3" bash bench/yardstick.sh
#
# Needs the shared evaluation scripts in ../shared/eval beside this checkout (or EVAL_DIR); they are
# used in place, never copied into the project. Large files (music packages, corpus, simulations)
# live in $EVAL_CACHE (default ~/.cache/bmon-eval), never in the repository.
#
# Steps: release build; the dev corpus (downloads the Debian music packages with
# scripts/fetch-corpus.sh and runs corpus.py, only if the corpus is missing); one catalog of the
# corpus (timed); then for each profile and seed: the simulation (2 channels x 1 hour, only if
# missing; waits for one that another process is making), a timed scan of each channel,
# from_scan.py and score.py. Ends with a summary table.
#
# Environment:
#   PROFILES="radio hard"   simulation profiles (clean, radio, hard)
#   SEEDS="1 2"             simulation seeds
#   BM_YARDSTICK_OUT=DIR    output folder (default /tmp/bm-yardstick): catalog, scan CSVs and logs,
#                           score-<profile>-s<seed>.txt (and .json), summary.txt
#   EVAL_DIR=DIR            the evaluation scripts (default ../shared/eval beside the checkout)
#   EVAL_CACHE=DIR          corpus and simulation cache (default ~/.cache/bmon-eval)
#   EVAL_DEBS=DIR           downloaded .deb packages (default $EVAL_CACHE/debs)
#   BM_BIN=PATH             binary to measure (default .build/release/broadcast-monitor; no build)
#   BM_YARDSTICK_WAIT=S     longest wait for a simulation another process is making (default 3600)
set -Eeuo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
E="${EVAL_DIR:-$ROOT/../shared/eval}"
export EVAL_CACHE="${EVAL_CACHE:-$HOME/.cache/bmon-eval}"
export EVAL_DEBS="${EVAL_DEBS:-$EVAL_CACHE/debs}"
OUT="${BM_YARDSTICK_OUT:-/tmp/bm-yardstick}"
PROFILES="${PROFILES:-radio hard}"
SEEDS="${SEEDS:-1 2}"
ORIGIN="2026-01-01T00:00:00Z"
CORPUS="dev"
C="$EVAL_CACHE/corpora/$CORPUS"
BIN="${BM_BIN:-$ROOT/.build/release/broadcast-monitor}"
TIMEFORMAT='%R %U %S' # bash `time`: wall, user, system seconds

STEP="start"
step() {
  STEP="$1"
  printf '\n==> yardstick: %s\n' "$STEP"
}
on_error() {
  local rc=$?
  printf '\n*** yardstick.sh FAILED at step "%s" (exit code %d); files are in %s\n' "$STEP" "$rc" "$OUT" >&2
  exit "$rc"
}
trap on_error ERR

if [[ ! -f "$E/score.py" ]]; then
  echo "yardstick: no evaluation scripts at $E (expected ../shared/eval beside the checkout, or set EVAL_DIR)" >&2
  exit 2
fi
E=$(cd "$E" && pwd)
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
for tool in python3 ffprobe; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "yardstick needs $tool (bash scripts/setup.sh installs ffmpeg; python3 comes with Debian)" >&2
    exit 2
  }
done

# corpus.py and simulate.py (not the scorer) need numpy, scipy, sox and espeak-ng.
check_generator_deps() {
  local missing=()
  python3 -c 'import numpy, scipy' 2>/dev/null || missing+=("python: pip install numpy scipy")
  command -v sox >/dev/null 2>&1 || missing+=("sox: apt-get install -y sox libsox-fmt-all")
  command -v espeak-ng >/dev/null 2>&1 || missing+=("espeak-ng: apt-get install -y espeak-ng")
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "making the corpus or a simulation needs tools that are missing:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    return 1
  fi
}

# Is a simulate.py (or corpus.py) of ours running in another process? (read-only look at ps)
sim_running() { # profile seed
  ps -eo args= | awk -v p="$1" -v s="$2" -v c="$CORPUS" '
    /simulate\.py/ {
      pr = "radio"; se = ""; co = ""
      for (i = 1; i <= NF; i++) {
        if ($i == "--profile") pr = $(i + 1)
        if ($i == "--seed") se = $(i + 1)
        if ($i == "--corpus") co = $(i + 1)
      }
      if (pr == p && se == s && co == c) found = 1
    }
    END { exit !found }'
}
corpus_running() {
  pgrep -f 'corpus\.py' >/dev/null
}
sim_complete() { # dir: params.json is written last, after every chNN.wav, truth.csv and segments.csv
  local d="$1" w
  [[ -f "$d/params.json" && -f "$d/truth.csv" && -f "$d/segments.csv" && -f "$d/ch01.wav" ]] || return 1
  for w in "$d"/ch*.wav; do
    [[ "$d/params.json" -nt "$w" ]] || return 1
  done
  ! compgen -G "$d/tmp-*" >/dev/null
}
wait_for() { # description, command...
  local what="$1" waited=0 limit="${BM_YARDSTICK_WAIT:-3600}"
  shift
  while "$@"; do
    if ((waited >= limit)); then
      echo "gave up after ${waited} s waiting for $what" >&2
      return 1
    fi
    if ((waited % 60 == 0)); then
      echo "waiting for $what, made by another process (${waited} s so far)"
    fi
    sleep 15
    waited=$((waited + 15))
  done
}
duration_s() {
  ffprobe -v error -show_entries format=duration -of csv=p=0 "$1"
}

mkdir -p "$OUT"
SECONDS=0

# ---------------------------------------------------------------------------
step "build (release)"
if [[ -n "${BM_BIN:-}" ]]; then
  echo "using BM_BIN=$BIN (not building)"
else
  echo "+ swift build -c release --product broadcast-monitor"
  swift build -c release --product broadcast-monitor
fi
[[ -x "$BIN" ]] || {
  echo "no binary at $BIN" >&2
  false
}

# ---------------------------------------------------------------------------
step "corpus $CORPUS ($C)"
if [[ ! -f "$C/tracks.csv" ]] && corpus_running; then
  wait_for "corpus.py" corpus_running
fi
if [[ -f "$C/tracks.csv" ]]; then
  echo "have $C/tracks.csv ($(($(wc -l <"$C/tracks.csv") - 1)) tracks)"
else
  check_generator_deps
  echo "+ bash scripts/fetch-corpus.sh"
  debs=$(bash scripts/fetch-corpus.sh | tail -n 1)
  echo "+ python3 $E/corpus.py --debs $debs $CORPUS"
  python3 "$E/corpus.py" --debs "$debs" "$CORPUS"
fi

# ---------------------------------------------------------------------------
step "catalog of the corpus"
CAT="$OUT/$CORPUS.bmcat"
rm -f "$CAT"
echo "+ broadcast-monitor catalog add --catalog $CAT --metadata $C/tracks.csv"
if ! { time "$BIN" catalog add --catalog "$CAT" --metadata "$C/tracks.csv" 2>"$OUT/catalog-add.log"; } \
  2>"$OUT/catalog-add.time"; then
  echo "catalog add failed; last lines of $OUT/catalog-add.log:" >&2
  tail -n 20 "$OUT/catalog-add.log" >&2
  false
fi
read -r cat_wall cat_user cat_sys <"$OUT/catalog-add.time"
cat_audio=$(python3 -c 'import csv,sys; print(sum(float(r["duration_s"]) for r in csv.DictReader(open(sys.argv[1]))))' "$C/tracks.csv")
"$BIN" catalog info --catalog "$CAT" | tee "$OUT/catalog-info.txt"
echo "catalog: ${cat_audio} s of audio in ${cat_wall} s wall (user ${cat_user} s, sys ${cat_sys} s)"
printf '%s %s %s %s\n' "$cat_audio" "$cat_wall" "$cat_user" "$cat_sys" >"$OUT/catalog.tsv"

# ---------------------------------------------------------------------------
: >"$OUT/runs.tsv"
for profile in $PROFILES; do
  for seed in $SEEDS; do
    name="$CORPUS-$profile-s$seed"
    S="$EVAL_CACHE/sims/$name"
    R="$OUT/$name"
    mkdir -p "$R"

    step "$name: simulation"
    if sim_running "$profile" "$seed"; then
      wait_for "simulation $name" sim_running "$profile" "$seed"
    fi
    if sim_complete "$S"; then
      echo "have $S"
    else
      check_generator_deps
      echo "+ python3 $E/simulate.py --corpus $CORPUS --seed $seed --channels 2 --hours 1 --profile $profile"
      python3 "$E/simulate.py" --corpus "$CORPUS" --seed "$seed" --channels 2 --hours 1 --profile "$profile"
      sim_complete "$S"
    fi

    step "$name: scan"
    audio=0 wall=0 cpu=0
    csvs=()
    for wav in "$S"/ch*.wav; do
      ch=$(basename "$wav" .wav)
      echo "+ broadcast-monitor scan --catalog $CAT --channel $ch --start $ORIGIN --csv $R/$ch.csv $wav"
      rm -f "$R/$ch.csv"
      if ! { time "$BIN" scan --catalog "$CAT" --channel "$ch" --start "$ORIGIN" --csv "$R/$ch.csv" "$wav" \
        2>"$R/$ch.log"; } 2>"$R/$ch.time"; then
        echo "scan failed; last lines of $R/$ch.log:" >&2
        tail -n 20 "$R/$ch.log" >&2
        false
      fi
      read -r w u s <"$R/$ch.time"
      d=$(duration_s "$wav")
      read -r audio wall cpu < <(python3 -c 'import sys; a=[float(x) for x in sys.argv[1:]]
print(a[0] + a[3], a[1] + a[4], a[2] + a[5] + a[6])' "$audio" "$wall" "$cpu" "$d" "$w" "$u" "$s")
      echo "$ch: ${d} s of audio in ${w} s wall (user ${u} s, sys ${s} s), $(($(wc -l <"$R/$ch.csv") - 1)) plays"
      csvs+=("$R/$ch.csv")
    done

    step "$name: score"
    python3 "$E/from_scan.py" --tracks "$C/tracks.csv" --origin "$ORIGIN" "${csvs[@]}" >"$R/detections.csv"
    python3 "$E/score.py" "$S/truth.csv" "$R/detections.csv" --segments "$S/segments.csv" \
      | tee "$OUT/score-$profile-s$seed.txt"
    python3 "$E/score.py" "$S/truth.csv" "$R/detections.csv" --segments "$S/segments.csv" --json \
      >"$OUT/score-$profile-s$seed.json"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$profile" "$seed" "$audio" "$wall" "$cpu" \
      "$OUT/score-$profile-s$seed.json" >>"$OUT/runs.tsv"
  done
done

# ---------------------------------------------------------------------------
STEP="summary"
python3 - "$OUT/runs.tsv" "$OUT/catalog.tsv" >"$OUT/summary.txt" <<'PY'
import json
import sys


def f(x, nd=3):
    return "n/a" if x is None else "%.*f" % (nd, x)


def get(d, *path):
    for k in path:
        if d is None:
            return None
        d = d.get(k)
    return d


rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
cat_audio, cat_wall, cat_user, cat_sys = (float(x) for x in open(sys.argv[2]).read().split())
head = ["profile", "seed", "TP", "FP", "FN", "P", "R", "F1", "start err med s", "end err med s",
        "latency med s", "scan x RT wall", "scan x RT cpu"]
table = []
for profile, seed, audio, wall, cpu, path in rows:
    r = json.load(open(path))
    audio, wall, cpu = float(audio), float(wall), float(cpu)
    table.append([profile, seed, str(r["tp"]), str(r["fp"]), str(r["fn"]),
                  f(r["precision"]), f(r["recall"]), f(r["f1"]),
                  f(get(r, "start_error_s", "median_abs")), f(get(r, "end_error_s", "median_abs")),
                  f(get(r, "latency_s", "median")),
                  "%.0f" % (audio / wall) if wall > 0 else "n/a", "%.0f" % (audio / cpu) if cpu > 0 else "n/a"])
w = [max(len(x) for x in col) for col in zip(head, *table)]
print("  ".join(h.ljust(n) for h, n in zip(head, w)).rstrip())
for t in table:
    print("  ".join(x.ljust(n) for x, n in zip(t, w)).rstrip())
cpu = cat_user + cat_sys
print("catalog: %.0f s of reference audio in %.1f s wall, %.1f s cpu (x%.0f real time wall, x%.0f cpu)" % (
    cat_audio, cat_wall, cpu, cat_audio / cat_wall if cat_wall else 0, cat_audio / cpu if cpu else 0))
print("errors are medians of |detected - true| over matched plays; latency = detected_at - true start")
PY
printf '\n==> yardstick: summary (%s; %d s in all)\n' "$OUT/summary.txt" "$SECONDS"
cat "$OUT/summary.txt"
