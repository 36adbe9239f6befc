#!/usr/bin/env bash
# The game database at scale (docs/BENCHMARKS.md, "Game database"):
#
#   bench/database_bench.sh [GAMES] [WORKDIR] [DB]
#
# Writes GAMES (default 100000) random finkel games (about 157 actions each,
# `scribe play`) as TSN files of up to 100,000 games, with 20 players,
# 4 events and dates over two years, then imports them into DB (default a
# SQLite file in WORKDIR; a postgresql:// URL for PostgreSQL) under
# /usr/bin/time -v (games/s, peak RSS), prints the database's size, and
# runs bench/database_bench.cc's searches on it (medians of 5).
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "database_bench.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
games="${1:-100000}"
work="${2:-/tmp/scribe-db-bench}"
build="${BUILD:-build}"
scribe="$build/cli/scribe"
mkdir -p "$work"
db="${3:-$work/games.db}"
per=100000
files=()
for ((start = 0; start < games; start += per)); do
  n=$(( games - start < per ? games - start : per ))
  f="$work/games-$start-$n.tsn"
  files+=("$f")
  [[ -s "$f" ]] && continue
  echo "writing $f" >&2
  "$scribe" play --ruleset finkel --seed $((start + 1)) --games "$n" > "$work/tmp.json"
  "$scribe" convert --to tsn "$work/tmp.json" |
    awk -v base="$start" '
      /^\[TSN / { g++; id = base + g }
      /^\[Light / { printf "[Event \"League %d\"]\n[Date \"%04d-%02d-%02d\"]\n", id % 4, 2025 + int(id / 500000) % 2, 1 + int(id / 40000) % 12, 1 + id % 28;
                    printf "[Light \"p%d\"]\n", id % 20; next }
      /^\[Dark / { printf "[Dark \"p%d\"]\n", (id * 7 + 3) % 20; next }
      { print }' > "$f"
  rm -f "$work/tmp.json"
done
if [[ "$db" != postgres* ]]; then rm -f "$db" "$db-wal" "$db-shm"; fi
echo "importing ${#files[@]} file(s), $games games into $db" >&2
/usr/bin/time -v "$scribe" db import --db "$db" "${files[@]}" 2> "$work/import.time"
grep -E "Elapsed|Maximum resident" "$work/import.time"
if [[ "$db" != postgres* ]]; then
  ls -l "$db"
  du -b "$db"* | sort
fi
"$build/bench/database_bench" --db "$db" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
