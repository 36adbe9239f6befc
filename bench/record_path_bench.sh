#!/usr/bin/env bash
# The record commands of two scribe binaries side by side, in one run:
# annotate, validate and convert of the bundled game and of a file of many
# games, timed with hyperfine (median of RUNS, default 9) and counted in
# instructions with valgrind (deterministic, where the machine's load makes
# times noisy). Issue 9's "parse once, referee once" is measured with it.
#
#   bench/record_path_bench.sh BEFORE_SCRIBE AFTER_SCRIBE
#
# Needs hyperfine (and valgrind for the instruction counts; skipped
# without it).
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "record_path_bench.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before="$(realpath "$1")"
after="$(realpath "$2")"
runs="${RUNS:-9}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cp "$root/examples/finkel-game.json" "$work/game.json"
# 300 random finkel games in one TSN file (about 580 KB).
for seed in $(seq 1 300); do
  "$before" play --ruleset finkel --seed "$seed" > "$work/one.json"
  "$before" convert --to tsn "$work/one.json"
  echo
done > "$work/games.tsn"

commands=(
  "annotate game.json"
  "annotate --format=json game.json"
  "annotate games.tsn"
  "validate games.tsn"
  "convert --to json games.tsn"
  "replay --format=json game.json"
)
cd "$work"
# quietly LOG COMMAND...: the command's output to LOG, shown when it fails
# (a benchmark that says nothing when a step breaks measures nothing).
quietly() {
  local log="$1"
  shift
  if ! "$@" >"$log" 2>&1; then
    echo "record_path_bench.sh: failed: $*; its output ($log):" >&2
    tail -n 20 "$log" >&2
    return 1
  fi
}
# The instructions callgrind counts for one command.
instructions() {
  quietly callgrind.log valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@"
  sed -n 's/.*refs: *//p' callgrind.log | tr -d ,
}
echo "| command | before (median ms) | after (median ms) | after/before | instructions before | instructions after |"
echo "|---|---|---|---|---|---|"
for c in "${commands[@]}"; do
  quietly hyperfine.log hyperfine -N --warmup 2 --runs "$runs" --export-json times.json "$before $c" "$after $c"
  read -r tb ta < <(python3 -c "
import json; r = json.load(open('times.json'))['results']
print('%.2f %.2f' % (r[0]['median'] * 1000, r[1]['median'] * 1000))")
  ib=- ia=-
  if command -v valgrind > /dev/null; then
    ib=$(instructions $before $c)
    ia=$(instructions $after $c)
  fi
  ratio=$(python3 -c "print('%.2f' % ($ta / $tb))")
  echo "| \`scribe $c\` | $tb | $ta | $ratio | $ib | $ia |"
done

# How often one annotate of the bundled game (as JSON and as TSN) parses the
# text and referees the record.
if command -v valgrind > /dev/null; then
  "$before" convert --to tsn game.json > game.tsn
  echo
  echo "| command | calls before | calls after |"
  echo "|---|---|---|"
  for c in "annotate game.json" "annotate game.tsn" "convert --to rgn game.tsn"; do
    quietly callgrind.log valgrind --tool=callgrind --callgrind-out-file=cg.before $before $c
    quietly callgrind.log valgrind --tool=callgrind --callgrind-out-file=cg.after $after $c
    echo "| \`scribe $c\` | $("$root/bench/call_counts.py" cg.before) | $("$root/bench/call_counts.py" cg.after) |"
  done
fi
