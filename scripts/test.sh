#!/usr/bin/env bash
# Runs the test suite (debug build), the dashboard's browser test, then each fuzz harness for a short time
# (scripts/fuzz.sh).
#
#   bash scripts/test.sh                       # everything, the fuzz harnesses FUZZ_SECONDS (20) each
#   bash scripts/test.sh --filter MatcherTests # extra arguments go to `swift test`; no browser test or fuzzing then
#   FUZZ_SECONDS=0 bash scripts/test.sh        # the tests only
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

fuzz_build_pid=""
if [[ $# -eq 0 && ${FUZZ_SECONDS:-20} -gt 0 ]]; then
  # The fuzz harnesses are built meanwhile at the lowest priority, on what the build and the tests leave idle (the
  # tests wait on servers, JACK's real-time pace and subprocesses much of the time). In a process group of its own
  # (set -m), so that a failing test run stops it too, but in this session: a new session (setsid) is a scheduler
  # autogroup of its own, where its nice value counts for nothing against the tests.
  mkdir -p .build
  echo "+ nice -n 19 bash scripts/fuzz.sh --build (in the background, log in .build/fuzz-build.log)"
  set -m
  nice -n 19 bash scripts/fuzz.sh --build >.build/fuzz-build.log 2>&1 &
  fuzz_build_pid=$!
  set +m
  trap 'kill -- -"$fuzz_build_pid" 2>/dev/null || true' EXIT
fi

echo "+ swift build --build-tests"
swift build --build-tests
echo "+ swift test $*"
swift test "$@"
if [[ $# -eq 0 ]]; then
  # The dashboard in headless Chromium against a live monitor fed through JACK (Tests/Browser/dashboard_test.py).
  if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
    echo "dashboard browser test SKIPPED: Debian's chromium and chromium-driver are not installed (bash scripts/setup.sh)"
  elif [[ ! -x .build/test-venv/bin/python ]]; then
    echo "dashboard browser test: .build/test-venv (Selenium) is missing: run bash scripts/setup.sh" >&2
    exit 1
  else
    echo "+ .build/test-venv/bin/python Tests/Browser/dashboard_test.py"
    .build/test-venv/bin/python Tests/Browser/dashboard_test.py
  fi
fi
if [[ -n $fuzz_build_pid ]]; then
  fuzz_build_status=0
  wait "$fuzz_build_pid" || fuzz_build_status=$?
  cat .build/fuzz-build.log
  if [[ $fuzz_build_status -ne 0 ]]; then
    echo "the fuzz harnesses did not build (exit $fuzz_build_status; above)" >&2
    exit 1
  fi
  echo "+ bash scripts/fuzz.sh all ${FUZZ_SECONDS:-20}"
  bash scripts/fuzz.sh all "${FUZZ_SECONDS:-20}"
fi
