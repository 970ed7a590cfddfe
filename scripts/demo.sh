#!/usr/bin/env bash
# The broadcast-monitor demo: catalog three songs, "broadcast" them with the kind of changes radio
# makes (speed-up, time-stretch, noise), scan the broadcast and check that every play was logged.
#
#   bash scripts/demo.sh
#
# Uses the committed excerpts in Tests/Fixtures/music (CC BY-SA 3.0, see ATTRIBUTION.md there).
# All output goes to ${TMPDIR:-/tmp}/broadcast-monitor-demo (wiped at each run).
#
# Environment:
#   BM_BIN=PATH           the broadcast-monitor binary (default .build/release/broadcast-monitor)
#   BM_DEMO_NO_BUILD=1    do not run `swift build` first (scripts/setup.sh has just built it)
#   BM_DEMO_STRICT=0      print the results but do not fail when a play is missed
#
# Exit status: 0 when all three catalog plays are found with the right titles and nothing else
# is reported, 1 otherwise (unless BM_DEMO_STRICT=0), >1 when a step fails.
set -Eeuo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
FIX="$ROOT/Tests/Fixtures/music"
OUT="${TMPDIR:-/tmp}/broadcast-monitor-demo"
BIN="${BM_BIN:-$ROOT/.build/release/broadcast-monitor}"
START="2026-01-01T00:00:00Z"

STEP="start"
step() {
  STEP="$1"
  printf '\n--> demo: %s\n' "$STEP"
}
on_error() {
  local rc=$?
  printf '\n*** demo.sh FAILED at step "%s" (exit code %d); files are in %s\n' "$STEP" "$rc" "$OUT" >&2
  exit "$rc"
}
trap on_error ERR
run() {
  printf '+ %s\n' "$*"
  "$@"
}

if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
for tool in ffmpeg sqlite3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "demo.sh needs $tool: run bash scripts/setup.sh first" >&2
    exit 2
  fi
done

if [[ "${BM_DEMO_NO_BUILD:-0}" != "1" && -z "${BM_BIN:-}" ]]; then
  step "build (release)"
  run swift build -c release --product broadcast-monitor
fi
if [[ ! -x "$BIN" ]]; then
  echo "no broadcast-monitor binary at $BIN: run bash scripts/setup.sh first" >&2
  exit 2
fi

rm -rf "$OUT"
mkdir -p "$OUT"
SECONDS=0

# ---------------------------------------------------------------------------
step "1. build a catalog of three songs (with metadata from tracks.csv)"
run "$BIN" catalog add --catalog "$OUT/demo.bmcat" --metadata "$FIX/tracks.csv" \
  "$FIX/catalog-a.ogg" "$FIX/catalog-b.ogg" "$FIX/catalog-c.ogg"
run "$BIN" catalog list --catalog "$OUT/demo.bmcat"

# ---------------------------------------------------------------------------
step "2. make a simulated broadcast"
# Timeline (seconds from the start of the recording):
#   0   -   3      noise only (dead air)
#   3   -  15      unknown.ogg, first 12 s: music that is NOT in the catalog
#   15  -  45      catalog-a.ogg as is                                  (30 s)
#   45  -  73.85   catalog-b.ogg sped up 4 % by resampling: pitch +4 %  (30 s / 1.04)
#   73.85 - 102.98 catalog-c.ogg time-stretched 3 %, pitch kept         (30 s / 1.03)
#   102.98 - 106   noise only
# Pink noise about 23 dB below the music runs through all of it; the result is a 44.1 kHz stereo
# WAV, so the monitor also has to resample.
run ffmpeg -nostdin -hide_banner -loglevel error -y \
  -i "$FIX/unknown.ogg" -i "$FIX/catalog-a.ogg" -i "$FIX/catalog-b.ogg" -i "$FIX/catalog-c.ogg" \
  -filter_complex "
    anullsrc=r=22050:cl=mono,atrim=duration=3[lead];
    [0:a]atrim=duration=12,asetpts=N/SR/TB,aformat=sample_rates=22050:channel_layouts=mono[u];
    [1:a]aformat=sample_rates=22050:channel_layouts=mono[a];
    [2:a]asetrate=22050*1.04,aresample=22050,aformat=sample_rates=22050:channel_layouts=mono[b];
    [3:a]atempo=1.03,aformat=sample_rates=22050:channel_layouts=mono[c];
    anullsrc=r=22050:cl=mono,atrim=duration=3[tail];
    [lead][u][a][b][c][tail]concat=n=6:v=0:a=1,volume=0.7[prog];
    anoisesrc=r=22050:color=pink:amplitude=0.1:seed=20260101[noise];
    [prog][noise]amix=inputs=2:duration=first:normalize=0,aresample=44100[out]" \
  -map "[out]" -ac 2 -ar 44100 -c:a pcm_s16le "$OUT/broadcast.wav"
duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$OUT/broadcast.wav")
echo "broadcast: $OUT/broadcast.wav (${duration} s, 44.1 kHz stereo)"

# ---------------------------------------------------------------------------
step "3. scan the broadcast (channel demo, recording started at $START)"
run "$BIN" scan --catalog "$OUT/demo.bmcat" --channel demo --start "$START" \
  --db "$OUT/plays.sqlite" --csv "$OUT/plays.csv" "$OUT/broadcast.wav"
if [[ ! -s "$OUT/plays.csv" ]]; then
  echo "scan wrote no CSV at $OUT/plays.csv" >&2
  false
fi
echo
echo "== $OUT/plays.csv"
cat "$OUT/plays.csv"

# ---------------------------------------------------------------------------
step "4. identify a 10 s clip recorded off air, and a song that is not in the catalog"
run ffmpeg -nostdin -hide_banner -loglevel error -y -ss 22 -t 10 -i "$OUT/broadcast.wav" "$OUT/clip.wav"
match_status=0
run "$BIN" match --catalog "$OUT/demo.bmcat" "$OUT/clip.wav" | tee "$OUT/match-clip.txt" || match_status=$?
echo "(exit status $match_status; expected 0 and Armygeddon, ISRC ZZBMF2600001)"
unknown_status=0
run "$BIN" match --catalog "$OUT/demo.bmcat" "$FIX/unknown.ogg" | tee "$OUT/match-unknown.txt" ||
  unknown_status=$?
echo "(exit status $unknown_status; expected 1, no match)"

# ---------------------------------------------------------------------------
step "5. compare with what was broadcast"
cat <<'EOF'
Expected plays (times from the start of the recording, about ±1 s):
  ZZBMF2600001  Armygeddon             15.0 -  45.0 s  (as is)
  ZZBMF2600002  Chaos God              45.0 -  73.8 s  (sped up 4 %, pitch up)
  ZZBMF2600003  Internal Degeneration  73.8 - 103.0 s  (time-stretched 3 %, same pitch)
and nothing else: 3 - 15 s is music that is not in the catalog (unknown.ogg).
EOF
echo
# The CSV is read with sqlite3 so that quoted fields are handled properly.
if ! report=$(
  sqlite3 -batch -bail :memory: \
    ".import --csv '$OUT/plays.csv' plays" \
    ".mode list" \
    ".separator ' '" \
    "CREATE TABLE expected(isrc TEXT, title TEXT, s REAL, e REAL);
     INSERT INTO expected VALUES ('ZZBMF2600001', 'Armygeddon', 15.0, 45.0),
       ('ZZBMF2600002', 'Chaos God', 45.0, 73.846), ('ZZBMF2600003', 'Internal Degeneration', 73.846, 102.972);
     CREATE TABLE got AS SELECT upper(trim(isrc)) AS isrc,
       round((julianday(start) - julianday('$START')) * 86400.0, 2) AS s,
       round((julianday(\"end\") - julianday('$START')) * 86400.0, 2) AS e FROM plays;
     CREATE TABLE pairs AS SELECT x.isrc, x.title, x.s AS xs, x.e AS xe, g.s AS gs, g.e AS ge FROM expected x
       JOIN got g ON g.isrc = x.isrc
       AND min(g.e, x.e) - max(g.s, x.s) >= 0.5 * min(g.e - g.s, x.e - x.s) AND g.e > g.s;
     SELECT 'FOUND  ' || isrc || '  ' || title || printf('  at %.1f - %.1f s (start error %+.1f s, end error %+.1f s)',
       gs, ge, gs - xs, ge - xe) FROM pairs;
     SELECT 'MISSED ' || isrc || '  ' || title FROM expected WHERE isrc NOT IN (SELECT isrc FROM pairs);
     SELECT 'EXTRA  ' || coalesce(nullif(isrc, ''), '(no isrc)') || printf('  at %.1f - %.1f s', s, e) FROM got g
       WHERE NOT EXISTS (SELECT 1 FROM pairs p WHERE p.isrc = g.isrc AND p.gs = g.s AND p.ge = g.e);"
); then
  echo "could not read $OUT/plays.csv (it needs the columns isrc, start and end)" >&2
  false
fi
echo "$report"

problems=0
if grep -qE '^(MISSED|EXTRA)' <<<"$report"; then problems=1; fi
if [[ $match_status -ne 0 ]] || ! grep -qiE 'ZZBMF2600001|Armygeddon' "$OUT/match-clip.txt"; then
  echo "MATCH  the off-air clip (22-32 s, with noise) was not identified as Armygeddon"
  problems=1
fi
if [[ $unknown_status -ne 1 ]]; then
  echo "MATCH  unknown.ogg: expected exit status 1 (no match), got $unknown_status"
  problems=1
fi

STEP="verdict"
echo
if [[ $problems -eq 0 ]]; then
  echo "demo: OK, all three plays found and nothing else (${SECONDS} s). Files: $OUT"
  echo "      the play log is also in $OUT/plays.sqlite (try: sqlite3 $OUT/plays.sqlite .tables)"
elif [[ "${BM_DEMO_STRICT:-1}" == "0" ]]; then
  echo "demo: finished with differences from the expected plays (BM_DEMO_STRICT=0). Files: $OUT"
else
  echo "demo: FAILED, the results differ from the expected plays (see above). Files: $OUT" >&2
  exit 1
fi
