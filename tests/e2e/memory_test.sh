#!/usr/bin/env bash
# Memory is bounded per call: 8 calls at once of the largest record input
# each method accepts keep scribed (default flags) under 1 GiB of resident
# memory (tests/e2e/node_client/memory_test.js says how the inputs are
# made). The figures it prints are docs/BENCHMARKS.md's "Memory per call".
#
#   tests/e2e/memory_test.sh SCRIBED SCRIBE
#
# About 30 seconds (ctest label e2e).
set -euo pipefail
trap 'rc=$?; echo "memory_test.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
scribed="$(realpath "${1:?usage: memory_test.sh SCRIBED SCRIBE}")"
scribe="$(realpath "${2:?usage: memory_test.sh SCRIBED SCRIBE}")"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 100 finkel games, one JSON record a line: the inputs repeat them.
for seed in $(seq 100); do
  "$scribe" play --ruleset finkel --seed "$seed" | tr -d '\n'
  echo
done >"$work/games.jsonl"

"$here/node_client/install.sh"
node "$here/node_client/memory_test.js" "$scribed" "$work/games.jsonl"
