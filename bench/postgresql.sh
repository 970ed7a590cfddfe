#!/usr/bin/env bash
# PostgreSQL play log figures (issue 16), release build: plays recorded per second by 1 node and by 3 nodes at once
# (16 channels each), and by 16 nodes of 63 channels (the 1,000-channel deployment, with its progress updates),
# into a private PostgreSQL server started here (initdb + pg_ctl in a temporary folder, on a free port of
# 127.0.0.1, as the postgres user under root) with its default durability (fsync on, synchronous commits), and
# stopped at the end. Arguments go to each `Benchmarks postgresql` run (--plays N --updates N).
#
#   bash bench/postgresql.sh [--plays 2000]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product Benchmarks >/dev/null
BIN=$(pg_config --bindir)
DIR=$(mktemp -d "${TMPDIR:-/tmp}/bm-postgresql-bench.XXXXXX")
AS=()
if [[ $(id -u) -eq 0 ]]; then
  chown postgres "$DIR"
  AS=(runuser -u postgres --)
fi
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
stop() {
  "${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT
"${AS[@]}" "$BIN/initdb" -D "$DIR/data" -U bm -E UTF8 --locale=C --auth=trust >/dev/null
"${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -o \
  "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$DIR" start >/dev/null
until "$BIN/pg_isready" -h 127.0.0.1 -p "$PORT" -U bm >/dev/null; do sleep 0.1; done
URL="postgresql://bm@127.0.0.1:$PORT/postgres"
echo "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT (fsync on, synchronous_commit on)"
.build/release/Benchmarks postgresql "$URL" --nodes 1 "$@"
.build/release/Benchmarks postgresql "$URL" --nodes 3 "$@"
# The 1,000-channel deployment: 16 nodes of 63 channels, each play with the 42 progress updates of a 3.5-minute song.
.build/release/Benchmarks postgresql "$URL" --nodes 16 --channels 63 --updates 42 --plays 100
# The reports from PostgreSQL beside SQLite: BM_PG_REPORT_DAYS=365 for the whole-year bench (5.4 M plays; the
# SQLite log is generated into $BM_REPORTS_DIR as bench/reports.sh does, then copied into a fresh database).
if [[ "${BM_PG_REPORT_DAYS:-0}" -gt 0 ]]; then
  "${AS[@]}" "$BIN/createdb" -h "$DIR" -p "$PORT" -U bm reports
  .build/release/Benchmarks reports "${BM_REPORTS_DIR:-${TMPDIR:-/tmp}/bm-reports}" --days "$BM_PG_REPORT_DAYS" \
    --runs 1 --inserts 10 --postgresql "postgresql://bm@127.0.0.1:$PORT/reports"
fi
