#!/usr/bin/env bash
# `scribe solve` interrupted (SIGINT, as Ctrl-C sends, and SIGTERM): it stops,
# exits 130 with a message, and leaves no table behind (nor its temporary
# file); a table already there under that name stands. How fast it stops is a
# benchmark's (bench/solve_stop_probe.sh), not this test's: a bound of 1 s
# failed to hold with both cores busy (885 ms measured, load average 27). The
# time is printed here for the record only.
# Usage: solve_interrupt_cli_test.sh SCRIBE_BINARY
set -uo pipefail
SCRIBE="$1"
source "$(dirname "$0")/cli_check.sh"

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# interrupt NAME SIGNAL: starts solving finkel (minutes of work), sends the
# signal after a second, and checks how it ended.
interrupt() {
  local name="$1" signal="$2" out="$TMP/finkel-$2.tbl"
  echo "an earlier table" >"$out.old"
  cp "$out.old" "$out"
  "$SCRIBE" solve --ruleset finkel --out "$out" --quiet >"$TMP/out" 2>"$TMP/err" &
  local pid=$!
  sleep 1.5
  local sent
  sent="$(now_ms)"
  kill "-$signal" "$pid"
  wait "$pid"
  local rc=$?
  local took=$(($(now_ms) - sent))
  equal "$name: exit 130" "$rc" 130
  check "$name: says so" 0 "^scribe: solve: interrupted; no table written$" -- cat "$TMP/err"
  echo "     $name: stopped in $took ms (not a check: bench/solve_stop_probe.sh)"
  equal "$name: the earlier table stands" "$(cmp -s "$out" "$out.old" && echo same)" same
  equal "$name: no temporary file" "$(ls "$TMP" | grep -c '\.tmp$')" 0
}

interrupt "solve, SIGINT" INT
interrupt "solve, SIGTERM" TERM

finish
