#!/usr/bin/env bash
# How fast `scribe solve` stops on SIGINT at its worst moments: right after
# a layer pair is done, when the next pair's positions are being sorted
# (the largest pair's sort is the longest stretch of work between two
# sweeps), and in the middle of sweeps. Each probe starts a solve, waits
# for the progress line it names (or a time), sends SIGINT at once and
# prints the milliseconds from the signal to the exit.
#
#   bench/solve_stop_probe.sh [SCRIBE] [RULESET] [PROBE ...]
# A PROBE is "after:PATTERN" (a progress line, e.g. "after:layers (1,1)")
# or "at:SECONDS". Defaults: finkel(pieces=5), after every pair of the last
# two totals and at 5 s.
set -euo pipefail
set -E
trap 'rc=$?; echo "solve_stop_probe.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
scribe="${1:-build/cli/scribe}"
ref="${2:-finkel(pieces=5)}"
shift 2 || shift $#
if [ "$#" -eq 0 ]; then
  set -- "after:layers (0,2)+(2,0)" "after:layers (1,1)" "after:layers (0,1)+(1,0)" "at:5"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
now_ns() { date +%s%N; }
printf '%-32s %10s %s\n' probe stop_ms exit
for probe in "$@"; do
  "$scribe" solve --ruleset "$ref" --out "$tmp/t.tbl" 2>"$tmp/err" >/dev/null &
  pid=$!
  case "$probe" in
    after:*) pattern="${probe#after:}"
             until grep -qF "$pattern" "$tmp/err" || ! kill -0 "$pid" 2>/dev/null; do sleep 0.002; done ;;
    at:*) sleep "${probe#at:}" ;;
    *) echo "solve_stop_probe.sh: a probe is after:PATTERN or at:SECONDS, not $probe" >&2; exit 2 ;;
  esac
  sent="$(now_ns)"
  kill -INT "$pid" 2>/dev/null || true
  rc=0
  wait "$pid" || rc=$?
  printf '%-32s %10d %s\n' "$probe" $(( ($(now_ns) - sent) / 1000000 )) "$rc"
done
