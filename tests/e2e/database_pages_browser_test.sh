#!/usr/bin/env bash
# The game database's pages in a real browser: imports the bundled corpus
# (examples/corpus: 150 games of six players) into a new database, writes
# its pages (scribe db pages: the explorer two plies deep, every player,
# their latest games reviewed with a depth-1 search) and drives them in
# Debian's headless chromium (tests/e2e/browser/database_pages_test.js,
# puppeteer-core from npm, locked): no console error, no network request,
# every link resolves, the explorer's and the players' numbers equal the
# CLI's JSON.
#
# Usage: database_pages_browser_test.sh SCRIBE_BINARY EXAMPLES_DIR
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "database_pages_browser_test.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
SCRIBE="$(realpath "$1")"
EXAMPLES="$(realpath "$2")"
HERE="$(cd "$(dirname "$0")" && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

"$HERE/browser/install.sh"
"$SCRIBE" db import --db "$TMP/games.db" "$EXAMPLES/corpus" >"$TMP/import.txt"
"$SCRIBE" db pages --db "$TMP/games.db" --out "$TMP/pages" --plies 2 --games 4 --depth 1 >"$TMP/pages.txt"
cat "$TMP/pages.txt"
cd "$HERE/browser"
PAGES="$TMP/pages" SCRIBE="$SCRIBE" DB="$TMP/games.db" node --test database_pages_test.js
