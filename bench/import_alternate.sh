#!/usr/bin/env bash
# Two builds' imports of the same games, alternating, for a paired
# comparison on a machine whose speed drifts (docs/BENCHMARKS.md, "Game
# database"):
#
#   bench/import_alternate.sh ROUNDS OLD_SCRIBE NEW_SCRIBE DB FILE...
#
# Each round imports FILE... into a new SQLite file DB with OLD_SCRIBE,
# then with NEW_SCRIBE, under /usr/bin/time, and prints a line per import:
# the build, wall seconds, user and system CPU, peak RSS, and the file's
# size. The games: bench/database_bench.sh writes them (TSN files of
# 100,000).
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "import_alternate.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
if [[ $# -lt 5 ]]; then
  echo "usage: bench/import_alternate.sh ROUNDS OLD_SCRIBE NEW_SCRIBE DB FILE..." >&2
  exit 2
fi
rounds="$1" old="$2" new="$3" db="$4"
shift 4
if [[ "$db" == postgres* ]]; then
  # A second import into one database finds every game known: each import
  # needs a new server (bench/pg_server.sh) or database.
  echo "import_alternate.sh: DB must be a SQLite file, not $db (each import needs a new database)" >&2
  exit 2
fi
for ((r = 1; r <= rounds; r++)); do
  for build in old new; do
    scribe="$old"
    [[ "$build" == new ]] && scribe="$new"
    rm -f "$db" "$db-wal" "$db-shm"
    /usr/bin/time -o "$db.time" -f "%e s %U u %S s %M KB" "$scribe" db import --db "$db" "$@" >/dev/null
    echo "round $r $build $(cat "$db.time") $(stat -c %s "$db") bytes"
  done
done
rm -f "$db.time"
