#!/usr/bin/env bash
# Three `broadcast-monitor run` nodes of 16 file channels each (issue 16), release build, writing one PostgreSQL
# play log at once: a private server started here (initdb + pg_ctl in a temporary folder, on a free port of
# 127.0.0.1, as the postgres user under root), stopped at the end. Each channel loops one of the test fixtures
# (Tests/Fixtures/music, 30 s songs), so every channel airs a play every 30 s. After SECONDS (default 100) every node
# is stopped with SIGINT, and the play log is checked against what each node logged: every play a node heard
# ("play started") is in the play log once, written by that node, and no channel has plays from two nodes. The test
# suite runs the same with three channels a node (RunCommand+NodesTests.swift); this is the full size.
#
#   bash bench/nodes.sh [SECONDS] [CHANNELS_PER_NODE]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH"
RUN_SECONDS="${1:-100}"
CHANNELS="${2:-16}"
swift build -c release --product broadcast-monitor >/dev/null
MONITOR="$PWD/.build/release/broadcast-monitor"
MUSIC="$PWD/Tests/Fixtures/music"
. bench/private_postgresql.sh
PIDS=()
stop() {
  for pid in "${PIDS[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  stop_private_postgresql
}
trap stop EXIT
start_private_play_log nodes-bench
"$MONITOR" catalog add --catalog "$WORK/music.bmcat" --metadata "$MUSIC/tracks.csv" \
  "$MUSIC/catalog-a.ogg" "$MUSIC/catalog-b.ogg" "$MUSIC/catalog-c.ogg" >/dev/null 2>&1
FILES=(catalog-a.ogg catalog-b.ogg catalog-c.ogg)
NODES=(north south west)
for node in "${NODES[@]}"; do
  ARGS=()
  for ((i = 1; i <= CHANNELS; i++)); do
    ARGS+=(--channel "$node-$i=file+loop:$MUSIC/${FILES[$((i % 3))]}")
  done
  "$MONITOR" run --catalog "$WORK/music.bmcat" --db "$URL" --node "$node" --spool-dir "$WORK" --log "${ARGS[@]}" \
    >"$WORK/$node.log" 2>&1 &
  PIDS+=($!)
done
echo "3 nodes × $CHANNELS file channels into PostgreSQL on 127.0.0.1:$PGPORT for $RUN_SECONDS s"
sleep "$RUN_SECONDS"
for pid in "${PIDS[@]}"; do kill -INT "$pid"; done
STATUS=0
for pid in "${PIDS[@]}"; do wait "$pid" || { echo "node $pid exited $?"; STATUS=1; }; done
PIDS=()
TOTAL=0
for node in "${NODES[@]}"; do
  heard=$(grep -c 'play started:' "$WORK/$node.log" || true)
  rows=$(psql "SELECT count(*) || ' ' || count(DISTINCT (channel_id, start_ms)) FROM plays WHERE node = '$node'")
  channels=$(psql "SELECT count(DISTINCT channel_id) FROM plays WHERE node = '$node'")
  echo "node $node: $heard plays heard, in the play log: $rows (rows, distinct channel and start), $channels channels"
  [[ "$rows" == "$heard $heard" ]] || { echo "node $node: MISMATCH"; STATUS=1; }
  TOTAL=$((TOTAL + heard))
done
strays=$(psql "SELECT count(*) FROM plays p JOIN channels c ON c.id = p.channel_id WHERE c.name NOT LIKE p.node || '-%'")
echo "plays in total: $TOTAL; plays written by another node than the channel's: $strays"
[[ "$strays" == 0 ]] || STATUS=1
echo "result: $([[ $STATUS == 0 ]] && echo "every play heard is in the play log once" || echo FAILED)"
exit "$STATUS"
