#!/usr/bin/env bash
# Play log and report figures (issue 4), release build: a year of plays for 50 channels (about 5.4 million rows)
# generated once into $BM_REPORTS_DIR/year.sqlite (default /tmp/bm-reports, about 700 MB; reused while its
# sizes match), then each report timed for one channel and one month (goal < 1 s) and for all channels and the
# whole year (goal < 30 s), insert throughput with the monitor's durability (WAL, synchronous=FULL, one synced
# transaction per play), and the writer's commit latency while a whole-year report reads the file.
# Arguments go to `Benchmarks reports` (--channels N --days N --runs N --inserts N).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product Benchmarks >/dev/null
DIR="${BM_REPORTS_DIR:-${TMPDIR:-/tmp}/bm-reports}"
.build/release/Benchmarks reports "$DIR" "$@"
