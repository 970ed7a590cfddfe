#!/usr/bin/env bash
# The first run: see broadcast-monitor monitor a live "broadcast" on a machine with no sound card.
#
#   bash scripts/first-run.sh
#
# Steps:
#   1. setup: scripts/setup.sh (Debian packages, Swift check, release build; its offline demo only without a
#      terminal, as in CI)
#   2. the demo music: the excerpts in Tests/Fixtures/music, by Muldjord (CC BY-SA 3.0, see ATTRIBUTION.md there),
#      and a catalog of three of them
#   3. three simulated radio channels, each several songs back to back with music that is not in the catalog
#      between them, some sped up as stations do (ffmpeg)
#   4. a JACK server: the one that answers, or jackd with the dummy driver (no sound card needed), stopped at the end
#   5. broadcast-monitor run with three JACK channels, and broadcast-monitor feed playing each channel into them in
#      real time (about 90 s). On a terminal you watch the live console (q quits early); without a terminal (CI) the
#      monitor logs one line per event.
#   6. the plays in the play log, and a check that every catalog song that was fed was logged on its channel
#
# Exit status: 0 when every fed catalog song was logged, 1 when one was missed, >1 when a step failed.
# Environment:
#   BM_FIRST_RUN_DIR=DIR   where the catalog, the broadcasts and the play log go
#                          (default ${TMPDIR:-/tmp}/broadcast-monitor-first-run, wiped at each run)
#   BM_FIRST_RUN_LOG=1     log lines instead of the console, even on a terminal
#   BM_SETUP_NO_DEMO=0|1   run setup's offline demo or not (default: only without a terminal)
set -Eeuo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
FIX="$ROOT/Tests/Fixtures/music"
OUT="${BM_FIRST_RUN_DIR:-${TMPDIR:-/tmp}/broadcast-monitor-first-run}"
BIN="$ROOT/.build/release/broadcast-monitor"
CLIENT="bm-first-run"

STEP="start"
step() {
  STEP="$1"
  printf '\n==> first run: %s\n' "$STEP"
}
jack_pid=""
monitor_pid=""
feed_pids=()
cleanup() {
  local rc=$?
  for pid in "${feed_pids[@]}" $monitor_pid; do
    if kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; fi
  done
  for pid in "${feed_pids[@]}" $monitor_pid; do wait "$pid" 2>/dev/null || true; done
  if [[ -n "$jack_pid" ]] && kill -0 "$jack_pid" 2>/dev/null; then
    echo "stopping the JACK server this script started (pid $jack_pid)"
    kill -TERM "$jack_pid" 2>/dev/null || true
    wait "$jack_pid" 2>/dev/null || true
  fi
  if [[ $rc -ne 0 && "$STEP" != "verdict" ]]; then
    printf '\n*** first-run.sh FAILED at step "%s" (exit code %d); files are in %s\n' "$STEP" "$rc" "$OUT" >&2
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

interactive=0
if [[ -t 0 && -t 1 && "${BM_FIRST_RUN_LOG:-0}" != "1" && "${TERM:-dumb}" != "dumb" ]]; then interactive=1; fi

# ---------------------------------------------------------------------------
step "1/6 setup (packages, Swift, release build)"
# On a terminal the live demo below is the demo; without one (CI) setup's offline demo runs too.
if [[ $interactive -eq 1 ]]; then export BM_SETUP_NO_DEMO="${BM_SETUP_NO_DEMO:-1}"; fi
bash scripts/setup.sh
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
SECONDS=0

# ---------------------------------------------------------------------------
step "2/6 demo music and a catalog"
rm -rf "$OUT"
mkdir -p "$OUT"
cat <<EOF2
The music: excerpts of songs by Muldjord (El Senator), from Debian's fretsonfire-songs-muldjord package,
licensed CC BY-SA 3.0 (https://creativecommons.org/licenses/by-sa/3.0/); details in $FIX/ATTRIBUTION.md.
EOF2
"$BIN" catalog add --catalog "$OUT/demo.bmcat" --metadata "$FIX/tracks.csv" \
  "$FIX/catalog-a.ogg" "$FIX/catalog-b.ogg" "$FIX/catalog-c.ogg"
"$BIN" catalog list --catalog "$OUT/demo.bmcat"

# ---------------------------------------------------------------------------
step "3/6 three simulated radio channels"
# Each channel is one WAV of songs back to back. unknown.ogg is music that is not in the catalog.
#   radio1: Armygeddon, unknown music, Chaos God
#   radio2: Internal Degeneration, Armygeddon sped up 3 % (pitch up, as by resampling)
#   radio3: unknown music, Chaos God time-stretched 2 % faster (same pitch), Internal Degeneration
make_channel() { # name inputs filter
  local name=$1 filter=$3
  # shellcheck disable=SC2086
  ffmpeg -nostdin -hide_banner -loglevel error -y $2 -filter_complex "$filter" -map "[out]" \
    -ac 2 -ar 48000 -c:a pcm_s16le "$OUT/$name.wav"
  printf '%s: %s s\n' "$name" "$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$OUT/$name.wav")"
}
F="aformat=sample_rates=22050:channel_layouts=mono"
make_channel radio1 "-i $FIX/catalog-a.ogg -i $FIX/unknown.ogg -i $FIX/catalog-b.ogg" \
  "[0:a]${F}[a];[1:a]${F}[u];[2:a]${F}[b];[a][u][b]concat=n=3:v=0:a=1,aresample=48000[out]"
make_channel radio2 "-i $FIX/catalog-c.ogg -i $FIX/catalog-a.ogg" \
  "[0:a]${F}[c];[1:a]asetrate=22050*1.03,aresample=22050,${F}[a];[c][a]concat=n=2:v=0:a=1,aresample=48000[out]"
make_channel radio3 "-i $FIX/unknown.ogg -i $FIX/catalog-b.ogg -i $FIX/catalog-c.ogg" \
  "[0:a]atrim=duration=12,asetpts=N/SR/TB,${F}[u];[1:a]atempo=1.02,${F}[b];[2:a]${F}[c];[u][b][c]concat=n=3:v=0:a=1,aresample=48000[out]"
cat >"$OUT/expected.csv" <<'EOF2'
channel,title
radio1,Armygeddon
radio1,Chaos God
radio2,Internal Degeneration
radio2,Armygeddon
radio3,Chaos God
radio3,Internal Degeneration
EOF2

# ---------------------------------------------------------------------------
step "4/6 JACK server"
export JACK_NO_AUDIO_RESERVATION=1 # no D-Bus device reservation on a headless machine
export JACK_NO_START_SERVER=1      # clients use the server that runs, never start one themselves
if jack_lsp >/dev/null 2>&1; then
  echo "a JACK server is running: using it"
else
  # Servers killed earlier on this machine keep their slots in JACK's registry of 8 until it is full.
  echo "+ python3 scripts/jack-reclaim-slots.py"
  python3 scripts/jack-reclaim-slots.py || echo "JACK's registry was not checked (above); starting jackd anyway"
  echo "+ jackd -d dummy -r 48000 -p 1024   (no sound card needed; logs in $OUT/jackd.log)"
  jackd -d dummy -r 48000 -p 1024 >"$OUT/jackd.log" 2>&1 &
  jack_pid=$!
  for _ in $(seq 1 50); do
    if jack_lsp >/dev/null 2>&1; then break; fi
    if ! kill -0 "$jack_pid" 2>/dev/null; then
      echo "jackd exited before it answered; its log:" >&2
      cat "$OUT/jackd.log" >&2
      if grep -q "Too many servers already active" "$OUT/jackd.log"; then
        echo "JACK's registry holds 8 running servers: stop one (jack_control, or kill a jackd) and run this again" >&2
      fi
      exit 2
    fi
    sleep 0.2
  done
  jack_lsp >/dev/null 2>&1 || {
    echo "jackd did not answer within 10 s; its log is $OUT/jackd.log" >&2
    exit 2
  }
fi

# ---------------------------------------------------------------------------
step "5/6 monitor the broadcast (about 90 s)"
RUN=("$BIN" run --catalog "$OUT/demo.bmcat" --db "$OUT/plays.sqlite" --jack-client "$CLIENT"
  --channel radio1=jack --channel radio2=jack --channel radio3=jack)

# Feeds the channels once the monitor's ports exist; when they have played out, stops the monitor as SIGTERM does
# (every play on air is closed at the last audio heard).
feed_broadcast() {
  local monitor=$1
  for _ in $(seq 1 100); do
    if jack_lsp 2>/dev/null | grep -q "^$CLIENT:radio3_R$"; then break; fi
    sleep 0.2
  done
  local pids=()
  trap 'kill -TERM "${pids[@]}" 2>/dev/null; exit 143' TERM
  for name in radio1 radio2 radio3; do
    "$BIN" feed --client "feed-$name" --connect "$CLIENT:${name}_L,$CLIENT:${name}_R" "$OUT/$name.wav" \
      >"$OUT/feed-$name.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || echo "a feed failed; see $OUT/feed-*.log" >&2; done
  sleep 3 # the last song's end is heard
  kill -TERM "$monitor" 2>/dev/null || true
}

if [[ $interactive -eq 1 ]]; then
  echo "The console opens now: three channels, plays appear as they are recognized. Up/Down and Enter show a"
  echo "channel in detail, Esc goes back, q quits. It ends by itself when the broadcast is over."
  sleep 3
  # The monitor runs in the foreground on the terminal; a helper feeds it and stops it at the end.
  # The monitor runs on the terminal (its keyboard too: a background command would get /dev/null as input);
  # a helper feeds the channels and stops the monitor when the broadcast is over. Its log goes to a file.
  "${RUN[@]}" </dev/tty 2>"$OUT/monitor.log" &
  monitor_pid=$!
  feed_broadcast "$monitor_pid" &
  feed_pids+=($!)
  wait "$monitor_pid" && monitor_status=0 || monitor_status=$?
  monitor_pid=""
else
  echo "(no terminal: the monitor logs one line per event to $OUT/monitor.log)"
  "${RUN[@]}" --log >"$OUT/monitor.log" 2>&1 &
  monitor_pid=$!
  tail -n +1 -f "$OUT/monitor.log" --pid "$monitor_pid" |
    grep --line-buffered -E 'play (started|ended)|JACK|gap|overrun|stopped' &
  feed_broadcast "$monitor_pid" &
  feed_pids+=($!)
  wait "${feed_pids[0]}" || true
  wait "$monitor_pid" && monitor_status=0 || monitor_status=$?
  monitor_pid=""
  sleep 0.5
fi
for pid in "${feed_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
feed_pids=()
if [[ $monitor_status -ne 0 ]]; then
  echo "broadcast-monitor run exited with status $monitor_status; see $OUT/monitor.log" >&2
  exit 2
fi

# ---------------------------------------------------------------------------
step "6/6 the plays in the play log"
echo "play log: $OUT/plays.sqlite"
sqlite3 -batch -header -column "$OUT/plays.sqlite" \
  "SELECT c.name AS channel, strftime('%H:%M:%f', p.start_ms / 1000.0, 'unixepoch') AS start_utc,
          printf('%.1f', (p.end_ms - p.start_ms) / 1000.0) AS seconds, i.title, i.artist,
          printf('%.1f %%', p.speed * 100) AS speed, printf('%.2f', p.confidence) AS confidence, p.status
   FROM plays p JOIN channels c ON c.id = p.channel_id JOIN catalog_items i ON i.id = p.item_id
   ORDER BY c.name, p.start_ms"
STEP="verdict"
report=$(
  sqlite3 -batch -bail "$OUT/plays.sqlite" \
    "CREATE TEMP TABLE expected(channel TEXT, title TEXT);" \
    ".import --csv --skip 1 '$OUT/expected.csv' expected" \
    "SELECT 'MISSED ' || e.channel || ': ' || e.title FROM expected e WHERE NOT EXISTS (
       SELECT 1 FROM plays p JOIN channels c ON c.id = p.channel_id JOIN catalog_items i ON i.id = p.item_id
       WHERE c.name = e.channel AND i.title = e.title AND p.status = 'closed');
     SELECT 'EXTRA  ' || c.name || ': ' || i.title FROM plays p JOIN channels c ON c.id = p.channel_id
       JOIN catalog_items i ON i.id = p.item_id
       WHERE NOT EXISTS (SELECT 1 FROM expected e WHERE e.channel = c.name AND e.title = i.title);"
)
if [[ -n "$report" ]]; then echo "$report"; fi
expected=$(($(wc -l <"$OUT/expected.csv") - 1))
echo
if grep -q '^MISSED' <<<"$report"; then
  echo "first run: FAILED, a catalog song that was fed was not logged (${SECONDS} s). Files: $OUT" >&2
  exit 1
fi
echo "first run: OK, all $expected catalog songs fed into 3 channels were logged (${SECONDS} s)."
echo "  the play log: $OUT/plays.sqlite (sqlite3 $OUT/plays.sqlite .tables)"
echo "  a report from it: $BIN report airplay --db $OUT/plays.sqlite --by-channel --tz UTC"
echo "  run it yourself: ${RUN[*]}"
