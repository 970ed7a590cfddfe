#!/usr/bin/env bash
# Builds the fuzz harnesses (fuzz/Harnesses/, libFuzzer through `swiftc -sanitize=fuzzer,address`) and runs each
# for a fixed time from its committed seed corpus (fuzz/corpus/TARGET/), printing executions and crashes.
#
#   bash scripts/fuzz.sh                  # every harness, 20 s each
#   bash scripts/fuzz.sh catalog 600      # one harness for 10 minutes
#   bash scripts/fuzz.sh all 600          # every harness, 10 minutes each, one per core at a time (FUZZ_JOBS)
#   bash scripts/fuzz.sh --build          # build only
#   bash scripts/fuzz.sh --seeds          # write the seed corpus again (fuzz/corpus/), from the harnesses' seeds;
#                                         # regression-* files (inputs that once found a defect) are kept
#
# Targets: catalog (a catalog file, its checksum sealed again after each mutation, then loaded and used),
# config (a monitor.json5), csv (a metadata CSV), wav (a WAV file, decoded and fingerprinted), playlog (an SQLite
# play log, opened, migrated and recovered), http (a request to the HTTP API's router: method, path, query,
# headers). Exit status 1 when any harness crashed, hung (FUZZ_TIMEOUT_SECONDS)
# or ran out of memory (FUZZ_RSS_LIMIT_MB, FUZZ_MALLOC_LIMIT_MB); the input that did it is kept in .build/fuzz/findings/TARGET/, to replay with
# `.build/fuzz/bin/TARGET FILE`.
#
# The C libraries' module maps (Sources/C*/module.modulemap) are all given to swiftc, and each names the library it
# links (libmicrohttpd and libsystemd for the executable's HTTP server among them).
#
# The code under test is compiled here with swiftc, one module at a time, rather than by SwiftPM: every module
# must carry the fuzzer's coverage instrumentation, the harness must link the configuration and CSV readers that
# live in the executable target (compiled here as a module without its main.swift), and libFuzzer brings its own
# `main`. Nothing of this touches Package.swift or the SwiftPM build.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swiftc >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swiftc ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

TARGETS=(catalog config csv wav playlog http)
DEFAULT_SECONDS=20
# A single input running longer than this is a hang (a loop that never ends on some file), reported as a crash.
FUZZ_TIMEOUT_SECONDS=${FUZZ_TIMEOUT_SECONDS:-20}
# More memory than this is a finding too: a file must not make the monitor allocate without bound. The process's
# RSS (address sanitizer's own overhead and libFuzzer's corpus inside it), and any one allocation: a WAV header of
# 65,535 channels once asked for 2 GB in one piece.
FUZZ_RSS_LIMIT_MB=${FUZZ_RSS_LIMIT_MB:-2560}
FUZZ_MALLOC_LIMIT_MB=${FUZZ_MALLOC_LIMIT_MB:-1024}

OUT=.build/fuzz
MODULES=$OUT/modules
OBJECTS=$OUT/objects
BIN=$OUT/bin
mkdir -p "$MODULES" "$OBJECTS" "$BIN"

# Optimized, but with the standard library's debug preconditions (bounds of unsafe buffer pointers among them) kept:
# a read past a buffer traps here, where the product's -Ounchecked build would read on.
SWIFT_FLAGS=(
  -O -assert-config Debug -g -sanitize=fuzzer,address -swift-version 6 -parse-as-library -enable-testing
  -package-name broadcast_monitor -I "$MODULES"
)
for map in Sources/C*/module.modulemap; do SWIFT_FLAGS+=(-Xcc "-fmodule-map-file=$map"); done
# Headers outside the default search path, as SwiftPM finds them through the targets' pkgConfig (libpq's).
for flag in $(pkg-config --cflags-only-I libpq); do SWIFT_FLAGS+=(-Xcc "$flag"); done

# module_sources NAME: the Swift files of a module.
module_sources() {
  case "$1" in
    TestSupport) find Tests/TestSupport -name '*.swift' | sort ;;
    *) find "Sources/$1" -name '*.swift' | sort ;;
  esac
}

# build_module NAME DEPENDENCY...: compiles a module (whole-module) to one object and its .swiftmodule, unless both
# are newer than its sources, its dependencies' objects and the flags they were built with.
build_module() {
  local name=$1
  shift
  local object=$OBJECTS/$name.o
  local sources
  mapfile -t sources < <(module_sources "$name")
  local inputs=("${sources[@]}" "$OUT/flags")
  for dependency in "$@"; do inputs+=("$OBJECTS/$dependency.o"); done
  if [[ -f $object ]]; then
    local stale=0
    for input in "${inputs[@]}"; do [[ $input -nt $object ]] && stale=1 && break; done
    [[ $stale -eq 0 ]] && return 0
  fi
  echo "+ swiftc $name (${#sources[@]} files)"
  swiftc "${SWIFT_FLAGS[@]}" -wmo -num-threads 0 -module-name "$name" -emit-module \
    -emit-module-path "$MODULES/$name.swiftmodule" -c "${sources[@]}" -o "$object"
  touch "$object" # swiftc leaves an object whose contents did not change as it was
}

build() {
  # The flags are an input of every module: a change in them builds everything again.
  if [[ "$(cat "$OUT/flags" 2>/dev/null)" != "$(swiftc --version 2>&1) ${SWIFT_FLAGS[*]}" ]]; then
    echo "$(swiftc --version 2>&1) ${SWIFT_FLAGS[*]}" >"$OUT/flags"
  fi
  build_module Common
  build_module RingBuffer
  build_module JackInput RingBuffer
  # A whole-module compile uses one core: modules that do not depend on each other are compiled side by side.
  local matcher
  build_module Matcher Common &
  matcher=$!
  build_module Reports Common
  wait "$matcher"
  local support
  build_module TestSupport Common Matcher &
  support=$!
  build_module MonitorKit Common Matcher Reports JackInput RingBuffer
  wait "$support"
  local objects=("$OBJECTS"/{Common,RingBuffer,JackInput,Matcher,Reports,MonitorKit,TestSupport}.o)
  local links=()
  for target in "${TARGETS[@]}"; do
    local harness=fuzz/Harnesses/$target.swift binary=$BIN/$target
    local stale=1
    if [[ -f $binary ]]; then
      stale=0
      for input in "$harness" fuzz/Harnesses/Common/*.swift "${objects[@]}"; do
        [[ $input -nt $binary ]] && stale=1 && break
      done
    fi
    [[ $stale -eq 0 ]] && continue
    echo "+ swiftc fuzz/Harnesses/$target.swift"
    swiftc "${SWIFT_FLAGS[@]}" -module-name "Fuzz_$target" "$harness" fuzz/Harnesses/Common/*.swift \
      "${objects[@]}" -use-ld=lld -o "$binary" &
    links+=($!)
  done
  for link in "${links[@]}"; do wait "$link"; done
}

# run TARGET SECONDS: fuzzes one target; prints its executions and crashes; returns 1 on a finding.
run() {
  local target=$1 seconds=$2
  local work=$OUT/work/$target findings=$OUT/findings/$target log=$OUT/logs/$target.log
  # The corpus libFuzzer grows is a scratch copy: the committed seeds stay as they are.
  rm -rf "$work"
  mkdir -p "$work" "$findings" "$(dirname "$log")"
  cp fuzz/corpus/"$target"/* "$work"/
  # The start goes straight to the terminal (descriptor 3); the rest is printed once every harness has ended.
  echo "+ $BIN/$target: $seconds s from $(find fuzz/corpus/"$target" -type f | wc -l) seeds" >&3
  local status=0
  # Each run starts from a fresh random seed; FUZZ_SEED makes it repeatable.
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=0 SWIFT_BACKTRACE=enable=no FUZZ_SCRATCH_DIR="$OUT/scratch" \
    "$BIN/$target" "$work" -max_total_time="$seconds" -timeout="$FUZZ_TIMEOUT_SECONDS" \
    -rss_limit_mb="$FUZZ_RSS_LIMIT_MB" -malloc_limit_mb="$FUZZ_MALLOC_LIMIT_MB" -print_final_stats=1 \
    -artifact_prefix="$findings/" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} >"$log" 2>&1 || status=$?
  local runs crashes
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [[ -z $runs ]]; then
    # libFuzzer prints no final statistics when it stops on a crash: take its last progress line.
    runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  fi
  crashes=$(find "$findings" -type f -newer "$work" | wc -l)
  printf '%-8s executions: %s  crashes: %s  (log: %s)\n' "$target" "${runs:-0}" "$crashes" "$log"
  if [[ $status -ne 0 || $crashes -ne 0 ]]; then
    grep -E -A 30 'ERROR: libFuzzer|Fatal error|ERROR: AddressSanitizer|==ERROR' "$log" | head -60 >&2 || tail -40 "$log" >&2
    echo "$target: finding kept in $findings/ (replay: $BIN/$target FILE)" >&2
    return 1
  fi
}

case "${1:-all}" in
  --build)
    build
    exit 0
    ;;
  --seeds)
    build
    for target in "${TARGETS[@]}"; do
      # Inputs that once found a defect (regression-*) stay.
      mkdir -p "fuzz/corpus/$target"
      find "fuzz/corpus/$target" -type f ! -name 'regression-*' -delete
      FUZZ_WRITE_SEEDS="fuzz/corpus/$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
        "$BIN/$target" -runs=0 >/dev/null 2>&1
      echo "fuzz/corpus/$target: $(ls "fuzz/corpus/$target" | tr '\n' ' ')"
    done
    exit 0
    ;;
  all) selected=("${TARGETS[@]}") ;;
  *)
    if [[ ! " ${TARGETS[*]} " == *" $1 "* ]]; then
      echo "unknown fuzz target '$1'; one of: ${TARGETS[*]}, or all" >&2
      exit 64
    fi
    selected=("$1")
    ;;
esac
seconds=${2:-$DEFAULT_SECONDS}
build
# libFuzzer runs on one core: the harnesses run FUZZ_JOBS at a time (default: one per core), each for the full
# time, and their reports are printed in order once all have ended.
jobs_limit=${FUZZ_JOBS:-$(nproc)}
reports=$OUT/reports
exec 3>&1
rm -rf "$reports"
mkdir -p "$reports"
running=0
for target in "${selected[@]}"; do
  if [[ $running -ge $jobs_limit ]]; then
    wait -n || true
    running=$((running - 1))
  fi
  (
    status=0
    run "$target" "$seconds" >"$reports/$target.out" 2>&1 || status=$?
    echo "$status" >"$reports/$target.status"
  ) &
  running=$((running + 1))
done
wait
failed=0
for target in "${selected[@]}"; do
  cat "$reports/$target.out"
  [[ "$(cat "$reports/$target.status" 2>/dev/null)" == 0 ]] || failed=1
done
exit "$failed"
