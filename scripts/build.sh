#!/usr/bin/env bash
# Configures and builds into the folder given (default: build).
# Extra arguments go to CMake, e.g. scripts/build.sh build-debug -DCMAKE_BUILD_TYPE=Debug
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "build.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")/.."
dir="${1:-build}"
shift || true
jobs="$(nproc 2>/dev/null || echo 2)"
source scripts/ccache_env.sh
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${SCRIBE_LAUNCHER[@]}" "$@" >/dev/null
cmake --build "$dir" -j "$jobs"
