#!/bin/sh
# Fuzzes the loader for SECONDS (default 60): builds build-fuzz with clang (libFuzzer, ASan,
# UBSan), seeds it with tests/data/bad/ and cut-down shared traces, runs it. Exit 1 on a finding:
# the input is left in build-fuzz/findings/ (add it to tests/data/bad/ with the fix).
set -eu
SECONDS_TO_RUN=${1:-60}
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${KSCOPE_FUZZ_BUILD:-$ROOT/build-fuzz}
SHARED=${KSCOPE_SHARED_DIR:-$ROOT/../shared}
command -v clang++ >/dev/null || { echo "tests/fuzz/run.sh: needs clang (apt-get install clang)" >&2; exit 2; }
[ -f "$BUILD/build.ninja" ] || CC=clang CXX=clang++ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DKSCOPE_BUILD_GUI=OFF -DBUILD_TESTING=OFF -DKSCOPE_FUZZ=ON -DKSCOPE_SANITIZE=fuzzer-no-link,address,undefined >/dev/null
flock /tmp/kscope-build.lock cmake --build "$BUILD" -j2 --target kscope_fuzz_loader

SEEDS="$BUILD/seeds"
CORPUS="$BUILD/corpus"
mkdir -p "$SEEDS" "$CORPUS" "$BUILD/findings"
cp tests/data/bad/* "$SEEDS/" 2>/dev/null || true
cp resources/sample-run/rank0.pt.trace.json.gz "$SEEDS/sample-rank0.json.gz"
# Cut-down shared traces: the first 16 KB of each, inflated, and the small ones whole.
if [ -d "$SHARED/traces" ]; then
  find "$SHARED/traces" -type f \( -name '*.json' -o -name '*.json.gz' -o -name '*.gz' \) | while read -r f; do
    name=$(echo "$f" | sed "s|$SHARED/traces/||; s|/|_|g")
    { gzip -dc "$f" 2>/dev/null || cat "$f"; } | head -c 16384 > "$SEEDS/cut-$name.json" || true
    [ "$(stat -c %s "$f")" -le 65536 ] && cp "$f" "$SEEDS/whole-$name" || true
  done
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Fork mode goes on after a finding, so one run collects them all; any file in findings/ fails.
rm -f "$BUILD"/findings/*
"$BUILD/tests/fuzz/kscope_fuzz_loader" "$CORPUS" "$SEEDS" -max_total_time="$SECONDS_TO_RUN" -max_len=65536 \
    -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$BUILD/findings/" -print_final_stats=1 \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1
if ls "$BUILD/findings" | grep -qv '^slow-unit-'; then
  echo "tests/fuzz/run.sh: findings in $BUILD/findings:" >&2
  ls -l "$BUILD/findings" >&2
  exit 1
fi
