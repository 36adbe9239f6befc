#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite:
#  1. the release build and every test (unit, properties, reference games,
#     perft regressions, command-line tests);
#  2. the unit tests again, built with AddressSanitizer and
#     UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs="$(nproc 2>/dev/null || echo 2)"

echo "== release build and all tests"
scripts/build.sh build
ctest --test-dir build --output-on-failure -j "$jobs"

echo "== unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCRIBE_SANITIZE=ON -DSCRIBE_BENCHMARKS=OFF
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -L unit
