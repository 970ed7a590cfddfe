#!/usr/bin/env bash
# Promotion of unknown music on a yardstick simulation (README "Promoting a cluster"): scans both channels with
# clips into a fresh play log, promotes the most aired cluster under the name of the truth recording it mostly is,
# then scores its late plays and a rescan's plays with the promoted catalog against segments.csv
# (bench/promotion.py).
#
#   CATALOG=/tmp/dev.cat PROFILE=radio SEED=1 bash bench/promotion.sh
#
# CATALOG: a catalog of the dev corpus's tracks.csv (`catalog add --metadata`); BM_BIN: the binary (default the
# release build); OUT: output folder (default /tmp/bm-promotion); EVAL_CACHE as for bench/yardstick.sh.
set -Eeuo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN="${BM_BIN:-.build/release/broadcast-monitor}"
CACHE="${EVAL_CACHE:-$HOME/.cache/bmon-eval}"
OUT="${OUT:-/tmp/bm-promotion}"
: "${CATALOG:?set CATALOG to a catalog of the dev corpus}"
S="$CACHE/sims/dev-${PROFILE:-radio}-s${SEED:-1}"
rm -rf "$OUT" && mkdir -p "$OUT"
for ch in ch01 ch02; do
  "$BIN" scan --catalog "$CATALOG" --channel "$ch" --start 2026-01-01T00:00:00Z --db "$OUT/plays.sqlite" \
    --clips "$OUT/clips" "$S/$ch.wav" 2>&1 | tail -1
done
"$BIN" report unknown --db "$OUT/plays.sqlite" --tz UTC --out "$OUT/unknown.csv" 2> /dev/null
"$BIN" report segments --db "$OUT/plays.sqlite" --tz UTC --out "$OUT/segments.csv" 2> /dev/null
cluster=$(sed -n 2p "$OUT/unknown.csv" | cut -d, -f1)
IFS=$'\t' read -r track title artist isrc < <(python3 bench/promotion.py name "$S/segments.csv" "$OUT/segments.csv" \
  "$cluster" "$CACHE/corpora/dev/unknown.csv")
echo "== cluster $cluster is mostly $track ($title)"
cp "$CATALOG" "$OUT/promoted.bmcat"
"$BIN" catalog add --catalog "$OUT/promoted.bmcat" --from-unknown "$cluster" --title "$title" --artist "$artist" \
  --isrc "$isrc" --db "$OUT/plays.sqlite"
"$BIN" report plays --db "$OUT/plays.sqlite" --tz UTC --out "$OUT/plays.csv" 2> /dev/null
echo "== late plays"
python3 bench/promotion.py score "$S/segments.csv" "$track" "$OUT/plays.csv" --isrc "$isrc"
for ch in ch01 ch02; do
  "$BIN" scan --catalog "$OUT/promoted.bmcat" --channel "$ch" --start 2026-01-01T00:00:00Z --csv "$OUT/rescan-$ch.csv" \
    "$S/$ch.wav" 2>&1 | tail -1
done
echo "== rescan with the promoted catalog"
python3 bench/promotion.py score "$S/segments.csv" "$track" "$OUT/rescan-ch01.csv" "$OUT/rescan-ch02.csv" --isrc "$isrc"
