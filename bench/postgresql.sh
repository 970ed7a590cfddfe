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
. bench/private_postgresql.sh
trap stop_private_postgresql EXIT
start_private_postgresql postgresql-bench
URL="$PGSERVER/postgres"
echo "settings: fsync on, synchronous_commit on (the defaults)"
.build/release/Benchmarks postgresql "$URL" --nodes 1 "$@"
.build/release/Benchmarks postgresql "$URL" --nodes 3 "$@"
# The 1,000-channel deployment: 16 nodes of 63 channels, each play with the 42 progress updates of a 3.5-minute song.
.build/release/Benchmarks postgresql "$URL" --nodes 16 --channels 63 --updates 42 --plays 100
# The reports from PostgreSQL beside SQLite: BM_PG_REPORT_DAYS=365 for the whole-year bench (5.4 M plays; the
# SQLite log is generated into $BM_REPORTS_DIR as bench/reports.sh does, then copied into a fresh database).
if [[ "${BM_PG_REPORT_DAYS:-0}" -gt 0 ]]; then
  create_private_database reports
  .build/release/Benchmarks reports "${BM_REPORTS_DIR:-${TMPDIR:-/tmp}/bm-reports}" --days "$BM_PG_REPORT_DAYS" \
    --runs 1 --inserts 10 --postgresql "$PGSERVER/reports"
fi
