#!/usr/bin/env bash
# Speed and memory benchmarks (release build), printing their figures:
#   scan speed (× real time on one core, decoding included), catalog import speed, index size per hour,
#   the load time of a synthetic catalog of BM_BENCH_HOURS hours (default 1000), and the time of adding 100 tracks
#   to an empty catalog and to that one.
# Uses the dev corpus and a simulation from the accuracy yardstick when they exist in $EVAL_CACHE
# (bench/yardstick.sh builds them); otherwise the committed fixtures.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product broadcast-monitor >/dev/null
swift build -c release --product Benchmarks >/dev/null
BIN=.build/release
CACHE="${EVAL_CACHE:-$HOME/.cache/bmon-eval}"
OUT="${TMPDIR:-/tmp}/bm-bench"
mkdir -p "$OUT"
CORPUS="$CACHE/corpora/dev"
SIM="$CACHE/sims/dev-radio-s1/ch01.wav"
if [[ -f "$CORPUS/tracks.csv" ]]; then
  REFS=("$CORPUS"/catalog/*)
  METADATA="$CORPUS/tracks.csv"
else
  echo "bench: no dev corpus in $CORPUS (run bench/yardstick.sh first); using the fixtures"
  REFS=(Tests/Fixtures/music/catalog-*.ogg)
  METADATA=Tests/Fixtures/music/tracks.csv
fi
echo "== catalog import (reference fingerprinting, decoding included)"
"$BIN/Benchmarks" import "${REFS[@]}"
rm -f "$OUT/bench.bmcat"
"$BIN/broadcast-monitor" catalog add --catalog "$OUT/bench.bmcat" --metadata "$METADATA" "${REFS[@]}" 2>/dev/null
"$BIN/broadcast-monitor" catalog info --catalog "$OUT/bench.bmcat"
echo "== scan"
if [[ ! -f "$SIM" ]]; then
  SIM="$OUT/fixture-broadcast.wav"
  ffmpeg -nostdin -v error -y -i Tests/Fixtures/music/unknown.ogg -i Tests/Fixtures/music/catalog-a.ogg \
    -i Tests/Fixtures/music/catalog-b.ogg -filter_complex concat=n=3:v=0:a=1 -ar 44100 -ac 2 "$SIM"
fi
"$BIN/Benchmarks" scan "$OUT/bench.bmcat" "$SIM" "${BM_BENCH_RUNS:-5}"
echo "== catalog load"
"$BIN/Benchmarks" catalog-load "${BM_BENCH_HOURS:-1000}" 3
echo "== adding to a catalog"
"$BIN/Benchmarks" catalog-edit "${BM_BENCH_HOURS:-1000}" 100
