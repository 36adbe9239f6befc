#!/usr/bin/env bash
# The import's instructions, counted by callgrind: deterministic where wall
# times on a shared machine move by a fifth between runs of one binary
# (docs/BENCHMARKS.md, "Game database", fifth session).
#
#   bench/import_instructions.sh GAMES_TSN [COUNT] [SCRIBE...]
#
# Imports the first COUNT (default 10000) games of GAMES_TSN (a file that
# bench/database_bench.sh writes) into a new SQLite file with each scribe
# binary given (default build/cli/scribe), under valgrind's callgrind, and
# prints each binary's total instructions.
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "import_instructions.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
games="${1:?usage: bench/import_instructions.sh GAMES_TSN [COUNT] [SCRIBE...]}"
count="${2:-10000}"
shift $(( $# >= 2 ? 2 : 1 ))
binaries=("$@")
[[ ${#binaries[@]} -gt 0 ]] || binaries=(build/cli/scribe)
command -v valgrind > /dev/null || { echo "import_instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A game is two paragraphs (its tags, its turns).
awk -v n="$((2 * count))" 'BEGIN { RS = ""; ORS = "\n\n" } NR <= n' "$games" > "$work/games.tsn"
for scribe in "${binaries[@]}"; do
  rm -f "$work"/db*
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$scribe" db import --db "$work/db" "$work/games.tsn" \
    > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
  printf '%s\t%s instructions\t%s\n' "$scribe" "$(grep -o 'Collected : [0-9]*' "$work/log" | grep -o '[0-9]*$')" \
    "$(grep 'records:' "$work/log")"
done
