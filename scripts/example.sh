#!/usr/bin/env bash
# Sets up, builds, and runs Scribe's main job on a bundled example: replays
# a game record throw by throw, says what every move did, validates it, and
# prints its review for the players (accuracy, luck, key moves); then keeps
# the bundled corpus (examples/corpus: 150 games of six players) in a game
# database (a SQLite file, nothing to set up) and shows a search, the
# explorer at the start and a player's page, and writes the database as
# web pages (open the index it names in a browser).
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "example.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")/.."
scripts/setup.sh
# The build's output (compiler errors included: ninja prints them on
# standard output) goes to a log, shown when the build fails.
log="${TMPDIR:-/tmp}/scribe-example-build.log"
if ! scripts/build.sh build >"$log" 2>&1; then
  echo "example.sh: the build failed; the end of its log ($log):" >&2
  tail -n 30 "$log" >&2
  exit 1
fi
build/cli/scribe replay examples/finkel-game.json
build/cli/scribe validate examples/finkel-game.json
build/cli/scribe review examples/finkel-game.json
db="${TMPDIR:-/tmp}/scribe-example-games.db"
rm -f "$db" "$db-wal" "$db-shm"
build/cli/scribe db import --db "$db" examples/corpus
build/cli/scribe db search --db "$db" --player Ann --sort date --per-page 5
build/cli/scribe db explore --db "$db"
build/cli/scribe db player --db "$db" Fay
pages="${TMPDIR:-/tmp}/scribe-example-pages"
rm -rf "$pages"
build/cli/scribe db pages --db "$db" --out "$pages" --players 3 --games 3
