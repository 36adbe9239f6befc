#!/usr/bin/env bash
# Alternates random-playout runs of two or more playout_bench binaries (an
# old build beside a new one) and prints each one's median throws per
# second: on a shared machine only runs interleaved in time compare.
#
#   bench/playout_race.sh ROUNDS FILTER BINARY...
#   e.g. bench/playout_race.sh 7 'RandomPlayout/finkel$' ../old/build/bench/playout_bench build/bench/playout_bench
set -euo pipefail
trap 'rc=$?; echo "playout_race.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
if [[ $# -lt 3 ]]; then
  echo "usage: $0 ROUNDS FILTER BINARY..." >&2
  exit 2
fi
rounds="$1"
filter="$2"
shift 2
for ((r = 1; r <= rounds; ++r)); do
  for b in "$@"; do
    x="$("$b" --benchmark_filter="$filter" --benchmark_min_time=1 2>&1 |
         grep -o 'items_per_second=[0-9.]*M' | head -1 | tr -dc '0-9.')"
    if [[ -z "$x" ]]; then
      echo "$b: no figure for $filter" >&2
      exit 1
    fi
    echo "$b $x"
  done
done | python3 -c '
import collections, statistics, sys
runs = collections.OrderedDict()
for line in sys.stdin:
    binary, figure = line.split()
    runs.setdefault(binary, []).append(float(figure))
for binary, figures in runs.items():
    print(f"{binary}: median {statistics.median(figures):.1f} M throws/s of {sorted(figures)}")
'
