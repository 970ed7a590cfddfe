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
. bench/private_postgresql.sh
trap stop_private_postgresql EXIT
start_private_postgresql postgresql-reports
create_private_database reports
URL="$PGSERVER/reports"
# The first run generates the SQLite log if needed and copies it into the server; the others reuse both.
COPIED=()
for ((round = 1; round <= ${BM_ROUNDS:-1}; round++)); do
  for binary in ${BM_BASELINE:+"$BM_BASELINE"} "$BENCH"; do
    echo "== round $round: $binary"
    "$binary" reports "$REPORTS_DIR" --reports-only "$@" --postgresql "$URL" "${COPIED[@]}"
    COPIED=(--postgresql-copied)
  done
done
