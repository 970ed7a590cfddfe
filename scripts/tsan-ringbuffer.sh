#!/usr/bin/env bash
# Runs the RingBuffer tests under ThreadSanitizer, with a larger two-thread stress run than the default unit test
# (20 M samples). Set BM_RING_STRESS_SAMPLES to change the count; TSan slows the run down several times.
# Usage: scripts/tsan-ringbuffer.sh        (from anywhere inside the package)
set -euo pipefail
cd "$(dirname "$0")/.."
export BM_RING_STRESS_SAMPLES="${BM_RING_STRESS_SAMPLES:-50000000}"
# halt_on_error makes a data race fail the run instead of only printing a report.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
echo "tsan-ringbuffer: BM_RING_STRESS_SAMPLES=$BM_RING_STRESS_SAMPLES TSAN_OPTIONS=$TSAN_OPTIONS"
exec swift test --sanitize=thread --scratch-path .build/tsan --filter RingBufferTests
