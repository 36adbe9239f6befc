#!/usr/bin/env bash
# The review of a collection (docs/BENCHMARKS.md, "The review of a
# collection"): GAMES random finkel games (scribe play, seeds 1..GAMES),
# reviewed with the full finkel table, as one folder of files and as one
# file of records; text and JSON; 2 threads and 1; peak memory; and, for
# the first 1,000 games, the pages.
#   bench/review_bench.sh TABLE [GAMES] [SCRIBE]
# TABLE is the solved finkel table (scribe solve --ruleset finkel --out F).
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "review_bench.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
TABLE="$1"
GAMES="${2:-10000}"
SCRIBE="${3:-build/cli/scribe}"
OUT="${BENCH_OUT:-bench-out/review}"
mkdir -p "$OUT/games"

# The games, made once.
if [ "$(ls "$OUT/games" | wc -l)" -ne "$GAMES" ]; then
  rm -rf "$OUT/games" && mkdir -p "$OUT/games"
  "$SCRIBE" play --ruleset finkel --seed 1 --games "$GAMES" >"$OUT/all.json"
  # One file per game too: line k + 1 of the array is game k.
  python3 - "$OUT" <<'PY'
import sys
out = sys.argv[1]
lines = [l.rstrip(",\n") for l in open(f"{out}/all.json") if l.startswith("{")]
for k, line in enumerate(lines, 1):
    open(f"{out}/games/g{k:05d}.json", "w").write(line + "\n")
PY
fi
echo "games: $GAMES, actions: $(cat "$OUT"/games/*.json | grep -o '"roll"' | wc -l)"

hyperfine --warmup 1 --runs 5 --export-markdown "$OUT/hyperfine.md" \
  -n "folder, text, 2 threads" "$SCRIBE review $OUT/games --table $TABLE --threads 2 >/dev/null" \
  -n "folder, json, 2 threads" "$SCRIBE review $OUT/games --table $TABLE --threads 2 --format=json >/dev/null" \
  -n "one file, text, 2 threads" "$SCRIBE review $OUT/all.json --table $TABLE --threads 2 >/dev/null" \
  -n "folder, text, 1 thread" "$SCRIBE review $OUT/games --table $TABLE --threads 1 >/dev/null" \
  -n "validate the folder (baseline)" "$SCRIBE validate $OUT/games >/dev/null"
cat "$OUT/hyperfine.md"

for threads in 2 1; do
  /usr/bin/time -f "peak RSS, folder, $threads threads: %M KB (%e s)" \
    "$SCRIBE" review "$OUT/games" --table "$TABLE" --threads "$threads" >/dev/null
done

# Pages: the first 1,000 games.
mkdir -p "$OUT/thousand" && rm -rf "$OUT/site"
# (Not ls | head: past 1000 games, head's exit ends ls with SIGPIPE, and
# under pipefail the script with it.)
mapfile -t names < <(ls "$OUT/games")
for f in "${names[@]:0:1000}"; do cp "$OUT/games/$f" "$OUT/thousand/$f"; done
/usr/bin/time -f "pages for 1000 games: %e s, peak RSS %M KB" \
  "$SCRIBE" review "$OUT/thousand" --table "$TABLE" --html "$OUT/site" >/dev/null
echo "pages: $(ls "$OUT/site" | wc -l) files, $(du -sh "$OUT/site" | cut -f1)"
