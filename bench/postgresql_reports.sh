#!/usr/bin/env bash
# The reports from a PostgreSQL play log beside the same reports from SQLite (issue 16), release build: the
# 50-channel log of bench/reports.sh (generated once into $BM_REPORTS_DIR, default /tmp/bm-reports, and reused) is
# copied into a private PostgreSQL server started here (initdb + pg_ctl in a temporary folder, on a free port of
# 127.0.0.1, as the postgres user under root, default settings), then each report is timed from the SQLite file and
# from PostgreSQL (with its snapshot), for one channel's month and for every channel over the whole log. The server
# is stopped at the end. Arguments go to `Benchmarks reports` (--days N --runs N --year-runs N; see ReportsBench.swift).
#
# Before/after figures in one run: BM_BASELINE=FILE names another build's Benchmarks binary (copy
# .build/release/Benchmarks aside before the change); it and this build then run alternately, BM_ROUNDS times
# (default 1) each, on the same server and plays, so both see the same machine.
#
#   bash bench/postgresql_reports.sh --days 91 --year-runs 3
#   BM_BASELINE=/tmp/Benchmarks-before BM_ROUNDS=3 bash bench/postgresql_reports.sh --days 91
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product Benchmarks >/dev/null
BENCH="$PWD/.build/release/Benchmarks"
REPORTS_DIR="${BM_REPORTS_DIR:-${TMPDIR:-/tmp}/bm-reports}"
PGBIN=$(pg_config --bindir)
DIR=$(mktemp -d "${TMPDIR:-/tmp}/bm-postgresql-reports.XXXXXX")
AS=()
if [[ $(id -u) -eq 0 ]]; then
  chown postgres "$DIR"
  AS=(runuser -u postgres --)
fi
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
stop() {
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT
"${AS[@]}" "$PGBIN/initdb" -D "$DIR/data" -U bm -E UTF8 --locale=C --auth=trust >/dev/null
"${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -o \
  "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$DIR" start >/dev/null
until "$PGBIN/pg_isready" -h 127.0.0.1 -p "$PORT" -U bm >/dev/null; do sleep 0.1; done
"${AS[@]}" "$PGBIN/createdb" -h "$DIR" -p "$PORT" -U bm reports
URL="postgresql://bm@127.0.0.1:$PORT/reports"
echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
# The first run generates the SQLite log if needed and copies it into the server; the others reuse both.
COPIED=()
for ((round = 1; round <= ${BM_ROUNDS:-1}; round++)); do
  for binary in ${BM_BASELINE:+"$BM_BASELINE"} "$BENCH"; do
    echo "== round $round: $binary"
    "$binary" reports "$REPORTS_DIR" --reports-only "$@" --postgresql "$URL" "${COPIED[@]}"
    COPIED=(--postgresql-copied)
  done
done
