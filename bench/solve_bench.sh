#!/usr/bin/env bash
# Solve times and memory: runs `scribe solve` on each ruleset RUNS times
# (default 3) and prints one line per run (wall seconds as the solver
# reports it, peak resident memory from /usr/bin/time, sweeps, the start
# value) and the median per ruleset, with the load average before each run.
#
#   bench/solve_bench.sh [SCRIBE] [RULESET ...]
# Environment: RUNS (default 3), THREADS (default 2), OUT_DIR (tables,
# default a temporary directory removed at the end; set it to keep them),
# SOLVE_ARGS (more options for every solve, split at spaces, e.g.
# "--flat-start" or "--policy-sweeps 0").
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "solve_bench.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
scribe="${1:-build/cli/scribe}"
shift || true
if [ "$#" -eq 0 ]; then
  set -- "finkel(pieces=2)" "finkel(pieces=3)" "finkel(pieces=4)" "finkel(pieces=5)" \
         "finkel(pieces=6)" "finkel" "blitz" "sawah-tablet" "masters"
fi
runs="${RUNS:-3}"
threads="${THREADS:-2}"
read -r -a solve_args <<<"${SOLVE_ARGS:-}"
if [ -n "${OUT_DIR:-}" ]; then
  out_dir="$OUT_DIR"
  mkdir -p "$out_dir"
else
  out_dir="$(mktemp -d)"
  trap 'rm -rf "$out_dir"' EXIT
fi
printf '%-20s %4s %10s %10s %8s %10s %s\n' ruleset run seconds peak_MiB sweeps start load
for ref in "$@"; do
  secs=()
  for run in $(seq 1 "$runs"); do
    load="$(cut -d' ' -f1 /proc/loadavg)"
    table="$out_dir/$(echo "$ref" | tr -c 'a-z0-9-' '_').tbl"
    # (The output is the report: a failing solve shows it, not only its end.)
    if ! report="$(/usr/bin/time -f 'peak_kib %M' "$scribe" solve --ruleset "$ref" --out "$table" \
                   --threads "$threads" --quiet ${solve_args[@]+"${solve_args[@]}"} 2>&1)"; then
      echo "solve_bench.sh: scribe solve --ruleset $ref failed:" >&2
      echo "$report" >&2
      exit 1
    fi
    s="$(awk '/^solve time/ {print $3}' <<<"$report")"
    peak="$(awk '/^peak_kib/ {printf "%.0f", $2 / 1024}' <<<"$report")"
    sweeps="$(awk '/^sweeps/ {print $2}' <<<"$report")"
    start="$(awk '/^start/ {print $2}' <<<"$report")"
    printf '%-20s %4d %10s %10s %8s %10s %s\n' "$ref" "$run" "$s" "$peak" "$sweeps" "$start" "$load"
    secs+=("$s")
  done
  median="$(printf '%s\n' "${secs[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
  printf '%-20s %4s %10s\n' "$ref" median "$median"
done
