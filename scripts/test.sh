#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite:
#  1. the release build and every test but the container's: unit tests
#     (rules, properties, reference games, perft, records, the service in
#     process), the command line end to end, the review page in headless
#     chromium, and the real server driven by a Node gRPC client, under
#     overload, behind nginx, against its Kubernetes manifests;
#  2. the unit tests again, built by clang with AddressSanitizer and
#     UndefinedBehaviorSanitizer (and assertions on), in the build the fuzz
#     targets come from: one sanitizer build serves both;
#  3. every fuzz target under the sanitizers (FUZZ_SECONDS each, default 20);
#  4. the container: the image is built with podman (its build runs the
#     command-line tests) and a client reaches the server inside it.
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "test.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs="$(nproc 2>/dev/null || echo 2)"
start=$SECONDS

echo "== release build and all tests but the container's"
scripts/build.sh build
tests/e2e/node_client/install.sh
tests/e2e/browser/install.sh
ctest --test-dir build --output-on-failure -j "$jobs" -LE container

echo "== unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
scripts/fuzz.sh --build
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-fuzz --output-on-failure -j "$jobs" -L unit

echo "== fuzz targets under AddressSanitizer and UndefinedBehaviorSanitizer"
scripts/fuzz.sh "${FUZZ_SECONDS:-20}"

echo "== the container image and a client reaching the server in it"
ctest --test-dir build --output-on-failure -L container

echo "== the whole suite passed in $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s"
