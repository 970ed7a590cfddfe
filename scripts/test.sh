#!/usr/bin/env bash
# Runs the test suite (debug build), then each fuzz harness for a short time (scripts/fuzz.sh).
#
#   bash scripts/test.sh                       # everything, the fuzz harnesses FUZZ_SECONDS (20) each
#   bash scripts/test.sh --filter MatcherTests # extra arguments go to `swift test`; no fuzzing then
#   FUZZ_SECONDS=0 bash scripts/test.sh        # the tests only
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

echo "+ swift build --build-tests"
swift build --build-tests
echo "+ swift test $*"
swift test "$@"
if [[ $# -eq 0 && ${FUZZ_SECONDS:-20} -gt 0 ]]; then
  echo "+ bash scripts/fuzz.sh all ${FUZZ_SECONDS:-20}"
  bash scripts/fuzz.sh all "${FUZZ_SECONDS:-20}"
fi
