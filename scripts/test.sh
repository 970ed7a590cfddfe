#!/usr/bin/env bash
# Runs the test suite (debug build).
#
#   bash scripts/test.sh                       # everything
#   bash scripts/test.sh --filter MatcherTests # extra arguments go to `swift test`
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

echo "+ swift build --build-tests"
swift build --build-tests
echo "+ swift test $*"
swift test "$@"
