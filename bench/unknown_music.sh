#!/usr/bin/env bash
# Unknown music on the yardstick's simulations (README "Unknown music"): scans both channels of each simulation
# into one fresh play log (the second channel's repeats join the first's clusters), writes `report segments` and
# `report unknown`, and scores the timeline against segments.csv with bench/unknown_music.py.
#
#   CATALOG=/tmp/dev.cat PROFILES="radio hard" SEEDS="1 2 3" bash bench/unknown_music.sh
#
# CATALOG: a catalog of the dev corpus's tracks.csv (`catalog add --metadata`); BM_BIN: the binary (default the
# release build); OUT: output folder (default /tmp/bm-unknown); EVAL_CACHE as for bench/yardstick.sh.
set -Eeuo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN="${BM_BIN:-.build/release/broadcast-monitor}"
CACHE="${EVAL_CACHE:-$HOME/.cache/bmon-eval}"
OUT="${OUT:-/tmp/bm-unknown}"
: "${CATALOG:?set CATALOG to a catalog of the dev corpus}"
mkdir -p "$OUT"
for profile in ${PROFILES:-radio}; do
  for seed in ${SEEDS:-1}; do
    S="$CACHE/sims/dev-$profile-s$seed"
    DB="$OUT/$profile-s$seed.sqlite"
    rm -f "$DB" "$DB"-wal "$DB"-shm
    for ch in ch01 ch02; do
      "$BIN" scan --catalog "$CATALOG" --channel "$ch" --start 2026-01-01T00:00:00Z --db "$DB" "$S/$ch.wav" \
        2> "$OUT/$profile-s$seed-$ch.log"
      tail -1 "$OUT/$profile-s$seed-$ch.log"
    done
    "$BIN" report segments --db "$DB" --tz UTC --out "$OUT/$profile-s$seed-segments.csv" 2> /dev/null
    "$BIN" report unknown --db "$DB" --tz UTC --out "$OUT/$profile-s$seed-unknown.csv" 2> /dev/null
    echo "== $profile seed $seed"
    python3 bench/unknown_music.py "$S/segments.csv" "$OUT/$profile-s$seed-segments.csv" | tee "$OUT/$profile-s$seed-score.txt"
  done
done
