#!/usr/bin/env bash
# Failover: two `broadcast-monitor run` nodes with `database.standby: true` and the same CHANNELS stream channels
# (default 4), release build, writing one PostgreSQL play log, while the node that monitors them is killed twice:
#
#   1. node left starts and claims every channel; node right starts and waits for them;
#   2. left is killed with SIGKILL at about 45 s; right takes every channel over; left is started again then, as a
#      standby (started at once, as systemd's RestartSec of 2 s does, it finds its channels still its own and takes
#      them back before the standby's next check, every 10 s: the quicker recovery, and no takeover to measure);
#   3. right is killed with SIGKILL 50 s later and not started again; left takes every channel over, and after
#      nodeDown.forSeconds (30) raises node_down for right, naming the takeover;
#   4. 50 s later right, which is not coming back, is retired (`db retire --node right`) while left runs: left no
#      longer sees it down and closes node_down at its next check;
#   5. left is stopped with SIGINT.
#
# Air: each channel is a mount of a private icecast2 (a temporary folder, a free port) whose source, `ffmpeg -re`,
# plays the three test songs (Tests/Fixtures/music, 30 s each) back to back, round after round, from its own
# offset; the play log is a
# private PostgreSQL server's (bench/private_postgresql.sh). The monitors go on airing through the kills, as a
# station's streams do. Checked afterwards, in the play log:
#   - takeover: seconds from each kill until the other node holds every channel (`channel_owners`);
#   - doubled: two rows of one item on one channel starting less than 60 s apart (one airing counted twice: a
#     channel airs each song once a round, every 90 s);
#   - holes: more than 5 s between a channel's consecutive plays, outside the outages (kill to takeover + 15 s);
#   - continued: plays that span a kill's outage (the rest of the airing, heard by the node that took over,
#     continued the killed node's play);
#   - open: plays still open at the end; gaps: each channel's `gap` spanning each kill;
#   - node_down: the alert for right, its detail naming the takeover by left, open before the retire and closed
#     after it (seconds from the retire until it closed).
# Exit status 1 when doubled, holes, open, gaps, node_down or the retire are not as they should be.
#
#   bash bench/failover.sh [CHANNELS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH"
CHANNELS="${1:-4}"
for tool in icecast2 ffmpeg pg_config; do
  command -v "$tool" >/dev/null || { echo "failover: $tool is not installed (bash scripts/setup.sh installs it)"; exit 1; }
done
swift build -c release --product broadcast-monitor >/dev/null
MONITOR="$PWD/.build/release/broadcast-monitor"
MUSIC="$PWD/Tests/Fixtures/music"
. bench/private_postgresql.sh
PIDS=()
declare -A NODE_PID=()
ICEDIR=""
stop() {
  for pid in "${PIDS[@]}" "${NODE_PID[@]}"; do kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  stop_private_postgresql
  [[ -z "$ICEDIR" ]] || rm -rf "$ICEDIR"
}
trap stop EXIT
start_private_play_log failover-bench
# Beside the server's folder, which only its postgres user may enter: as root, icecast2 drops to its own user.
ICEDIR=$(mktemp -d "${TMPDIR:-/tmp}/bm-failover-icecast.XXXXXX")
chmod 755 "$ICEDIR"
mkdir -p "$ICEDIR/log"

"$MONITOR" catalog add --catalog "$WORK/music.bmcat" --metadata "$MUSIC/tracks.csv" \
  "$MUSIC/catalog-a.ogg" "$MUSIC/catalog-b.ogg" "$MUSIC/catalog-c.ogg" >/dev/null 2>&1
ffmpeg -nostdin -v error -i "$MUSIC/catalog-a.ogg" -i "$MUSIC/catalog-b.ogg" -i "$MUSIC/catalog-c.ogg" \
  -filter_complex "[0:a]aformat=sample_rates=44100:channel_layouts=stereo[a];[1:a]aformat=sample_rates=44100:channel_layouts=stereo[b];[2:a]aformat=sample_rates=44100:channel_layouts=stereo[c];[a][b][c]concat=n=3:v=0:a=1" \
  "$WORK/songs.wav"
# Eight rounds of the three songs, 12 minutes: `ffmpeg -re -stream_loop` loses its real-time pace after the first
# round and sends the stream ahead of the clock, so the air is one file long enough for the whole run.
ffmpeg -nostdin -v error -stream_loop 7 -i "$WORK/songs.wav" -c copy "$WORK/air.wav"

# A private icecast2: as root it drops to the icecast2 user, which must write its logs.
ICECAST_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PASSWORD="failover-$RANDOM"
SECURITY="<chroot>0</chroot>"
if [[ $(id -u) -eq 0 ]]; then
  SECURITY+="<changeowner><user>icecast2</user><group>icecast</group></changeowner>"
  chmod 777 "$ICEDIR/log"
fi
cat >"$ICEDIR/icecast.xml" <<EOF
<icecast>
  <location>failover</location><admin>failover@localhost</admin>
  <limits><clients>100</clients><sources>$((CHANNELS + 2))</sources><source-timeout>10</source-timeout>
    <burst-size>65536</burst-size></limits>
  <authentication><source-password>$PASSWORD</source-password>
    <admin-user>admin</admin-user><admin-password>$PASSWORD</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>$ICECAST_PORT</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <fileserve>0</fileserve>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>$ICEDIR/log</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security>$SECURITY</security>
</icecast>
EOF
icecast2 -c "$ICEDIR/icecast.xml" >"$ICEDIR/icecast.out" 2>&1 &
PIDS+=($!)
# Waits up to SECONDS for COMMAND to succeed, or exits naming WHAT.
wait_for() { # SECONDS WHAT COMMAND...
  local deadline=$((SECONDS + $1)) what=$2
  shift 2
  until "$@"; do
    ((SECONDS < deadline)) || { echo "failover: $what did not happen within the time allowed"; exit 1; }
    sleep 0.2
  done
}
wait_for 15 "icecast2 answering (its output: $ICEDIR/icecast.out)" curl -s -o /dev/null "http://127.0.0.1:$ICECAST_PORT/"
CHANNEL_LIST=""
for ((i = 1; i <= CHANNELS; i++)); do
  ffmpeg -nostdin -hide_banner -v error -re -ss "$((i * 7))" -i "$WORK/air.wav" -c:a libmp3lame \
    -b:a 128k -f mp3 -content_type audio/mpeg "icecast://source:$PASSWORD@127.0.0.1:$ICECAST_PORT/ch$i.mp3" \
    2>"$WORK/source-ch$i.log" &
  PIDS+=($!)
  CHANNEL_LIST+="{name: \"ch$i\", source: \"http://127.0.0.1:$ICECAST_PORT/ch$i.mp3\"},"
done
mount_up() { [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$ICECAST_PORT/ch$1.mp3") == 200 ]]; }
for ((i = 1; i <= CHANNELS; i++)); do wait_for 30 "the source of ch$i (its log: $WORK/source-ch$i.log)" mount_up "$i"; done

for node in left right; do
  cat >"$WORK/$node.json5" <<EOF
{
  catalogPath: "$WORK/music.bmcat",
  database: {url: "$URL", node: "$node", standby: true},
  spoolDirectory: "$WORK",
  alerts: {nodeDown: {forSeconds: 30}},
  channels: [$CHANNEL_LIST],
}
EOF
done
start_node() { # NODE
  "$MONITOR" run --config "$WORK/$1.json5" --log >>"$WORK/$1.log" 2>&1 &
  NODE_PID[$1]=$!
}
owned_by() { psql "SELECT count(*) FROM channel_owners WHERE node = '$1'" 2>/dev/null || true; }
now() { date +%s.%N; }
# Seconds until NODE holds every channel, from EPOCH; at most 120.
takeover_seconds() {
  local deadline=$((SECONDS + 120))
  until [[ $(owned_by "$1") == "$CHANNELS" ]]; do
    ((SECONDS < deadline)) || { echo "never"; return; }
    sleep 0.1
  done
  python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.1f}')" "$(now)" "$2"
}

echo "$CHANNELS stream channels, nodes left and right (standby), PostgreSQL on 127.0.0.1:$PGPORT, icecast2 on :$ICECAST_PORT"
START=$(now)
start_node left
[[ $(takeover_seconds left "$START") != never ]] || { echo "left never claimed its channels"; exit 1; }
start_node right
sleep 45
KILL1=$(now)
kill -KILL "${NODE_PID[left]}"
wait "${NODE_PID[left]}" 2>/dev/null || true
TAKEOVER1=$(takeover_seconds right "$KILL1")
# Started again only now: a node restarted at once (systemd's 2 s) finds its channels still its own and takes them
# back before the standby's next check (every 10 s).
start_node left
echo "left killed; right held every channel after $TAKEOVER1 s; left started again, as a standby"
sleep 50
KILL2=$(now)
kill -KILL "${NODE_PID[right]}"
wait "${NODE_PID[right]}" 2>/dev/null || true
unset 'NODE_PID[right]'
TAKEOVER2=$(takeover_seconds left "$KILL2")
echo "right killed for good; left held every channel after $TAKEOVER2 s"
sleep 50
STATUS=0
node_down_for_right() {
  psql "SELECT count(*) FROM alerts WHERE kind = 'node_down' AND detail LIKE 'Node right %taken over by node left%'
    AND end_ms IS $1 NULL"
}
NODE_DOWN=$(node_down_for_right "")
RETIRE=$(now)
if ! "$MONITOR" db retire --db "$URL" --node right >"$WORK/retire.log" 2>&1; then
  echo "db retire --node right failed:"
  cat "$WORK/retire.log"
  STATUS=1
fi
CLOSED_AFTER=never
deadline=$((SECONDS + 60))
while ((SECONDS < deadline)); do
  if [[ $(node_down_for_right NOT) == 1 ]]; then
    CLOSED_AFTER=$(python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.1f}')" "$(now)" "$RETIRE")
    break
  fi
  sleep 0.2
done
echo "right retired; left closed node_down $CLOSED_AFTER s after"
kill -INT "${NODE_PID[left]}"
wait "${NODE_PID[left]}" 2>/dev/null || { echo "left exited $?"; STATUS=1; }
unset 'NODE_PID[left]'

ms() { python3 -c "import sys; print(int(float(sys.argv[1]) * 1000))" "$1"; }
K1=$(ms "$KILL1")
K2=$(ms "$KILL2")
outage() { # KILL_MS TAKEOVER_SECONDS: the outage's end, 15 s after the takeover (a stream's connect, a match)
  python3 -c "import sys; print(int(sys.argv[1]) + int((float(sys.argv[2]) + 15) * 1000))" "$1" "$2"
}
O1=$(outage "$K1" "${TAKEOVER1/never/120}")
O2=$(outage "$K2" "${TAKEOVER2/never/120}")
PLAYS=$(psql "SELECT count(*) FROM plays")
DOUBLED=$(psql "SELECT count(*) FROM plays p JOIN plays q ON q.channel_id = p.channel_id AND q.item_id = p.item_id
  AND q.id > p.id AND abs(q.start_ms - p.start_ms) < 60000")
HOLES=$(psql "
  WITH ordered AS (SELECT channel_id, start_ms, lag(end_ms) OVER (PARTITION BY channel_id ORDER BY start_ms) AS prev_end
    FROM plays)
  SELECT count(*) || ' ' || count(*) FILTER (WHERE NOT (prev_end < $O1 AND start_ms > $K1)
    AND NOT (prev_end < $O2 AND start_ms > $K2))
  FROM ordered WHERE start_ms - prev_end > 5000")
CONTINUED=$(psql "SELECT count(*) FILTER (WHERE start_ms < $K1 AND end_ms > $O1) || ' '
  || count(*) FILTER (WHERE start_ms < $K2 AND end_ms > $O2) FROM plays")
OPEN=$(psql "SELECT count(*) FROM plays WHERE status = 'open'")
GAPS=$(psql "SELECT count(DISTINCT channel_id) FILTER (WHERE start_ms <= $K1 AND end_ms >= $K1) || ' '
  || count(DISTINCT channel_id) FILTER (WHERE start_ms <= $K2 AND end_ms >= $K2) FROM events WHERE kind = 'gap'")
printf '| takeover, kill 1 / kill 2 | plays | doubled | holes (all / outside outages) | continued across kill 1 / 2 | open | channels with a gap over kill 1 / 2 | node_down for right, open before the retire | closed after the retire |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
printf '| %s / %s s | %s | %s | %s | %s | %s | %s | %s | %s s |\n' "$TAKEOVER1" "$TAKEOVER2" "$PLAYS" "$DOUBLED" \
  "${HOLES/ / \/ }" "${CONTINUED/ / \/ }" "$OPEN" "${GAPS/ / \/ }" "$NODE_DOWN" "$CLOSED_AFTER"
[[ "$DOUBLED" == 0 ]] || { echo "an airing counted twice"; STATUS=1; }
[[ "${HOLES#* }" == 0 ]] || { echo "a hole outside the outages"; STATUS=1; }
[[ "$OPEN" == 0 ]] || { echo "plays left open"; STATUS=1; }
[[ "$GAPS" == "$CHANNELS $CHANNELS" ]] || { echo "a kill's downtime not written on every channel"; STATUS=1; }
[[ "$NODE_DOWN" == 1 ]] || { echo "node_down for right not open before the retire, naming the takeover"; STATUS=1; }
[[ "$CLOSED_AFTER" != never ]] || { echo "node_down for right still open 60 s after the retire"; STATUS=1; }
[[ "$TAKEOVER1" != never && "$TAKEOVER2" != never ]] || { echo "a takeover never came"; STATUS=1; }
if ((STATUS != 0)); then
  KEPT="/tmp/bm-failover-$(date +%s)"
  cp -r "$WORK" "$KEPT"
  echo "the nodes' logs and configurations are kept in $KEPT"
fi
exit "$STATUS"
