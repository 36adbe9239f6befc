#!/usr/bin/env bash
# An import with reviews against `scribe review` of the same games
# (docs/BENCHMARKS.md, "Game database", tenth session): GAMES random games
# of RULESET (`scribe play`, seed 1) as one TSN file, then, alternating in
# one hyperfine run (RUNS each), `scribe review --table TABLE` of the
# file, `scribe db import --table TABLE` of it into a new SQLite file, and
# as baselines the import without reviews and `scribe validate`; medians,
# the import's ratio to the review, and each command's peak RSS.
#
#   bench/import_review_bench.sh TABLE [GAMES] [RULESET] [SCRIBE...]
#
# TABLE is the ruleset's solved table (scribe solve --ruleset RULESET
# --out TABLE). With several SCRIBE builds (a before and an after), each
# one's four commands are in the same run.
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "import_review_bench.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
table="$1"
games="${2:-10000}"
ruleset="${3:-finkel}"
shift $(( $# < 3 ? $# : 3 ))
builds=("$@")
[ "${#builds[@]}" -gt 0 ] || builds=(build/cli/scribe)
runs="${RUNS:-10}"
out="${BENCH_OUT:-bench-out/import-review}"
mkdir -p "$out"
file="$out/games-$games.tsn"
if [ ! -s "$file" ]; then
  "${builds[0]}" play --ruleset "$ruleset" --seed 1 --games "$games" > "$out/games.json"
  "${builds[0]}" convert --to tsn "$out/games.json" > "$file"
  rm -f "$out/games.json"
fi
db="$out/import.db"
commands=()
for s in "${builds[@]}"; do
  commands+=("$s review --table $table $file"
             "$s db import --db $db --table $table $file"
             "$s db import --db $db $file"
             "$s validate $file")
done
hyperfine -N --runs "$runs" --prepare "rm -f $db $db-wal $db-shm" --export-json "$out/times.json" "${commands[@]}" > /dev/null
python3 - "$out/times.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
median = {r["command"]: statistics.median(r["times"]) for r in results}
for r in results:
    print(f'{median[r["command"]]:8.3f} s  (min {min(r["times"]):.3f}, max {max(r["times"]):.3f})  {r["command"]}')
for r in results:
    c = r["command"]
    if " db import " in c and " --table " in c:
        review = c.split(" db import ")[0] + " review --table " + c.split(" --table ")[1]
        print(f'import with reviews / review: {median[c] / median[review]:.3f}  ({c.split(" ")[0]})')
PY
for s in "${builds[@]}"; do
  for c in "review --table $table $file" "db import --db $db --table $table $file"; do
    rm -f "$db" "$db-wal" "$db-shm"
    /usr/bin/time -f "%M KB peak  %e s  $s $c" "$s" $c > /dev/null 2> "$out/time.txt" || { cat "$out/time.txt"; exit 1; }
    tail -n 1 "$out/time.txt"
  done
done
