#!/usr/bin/env bash
# The review page in a real browser: writes the review page of an example
# record (scribe review --html, with a depth estimate) and drives it in
# Debian's headless chromium (tests/e2e/browser/review_page_test.js, with
# puppeteer-core from npm, locked). Checks the board against scribe replay
# at every ply, the keys, the move list, the graph and the key-move tour,
# no network request, no console error, laptop and phone widths.
#
# Usage: review_browser_test.sh SCRIBE_BINARY EXAMPLES_DIR
#   PAGE=file.html    drive this page instead of writing one (e.g. the mock
#                     of tests/e2e/browser/mock/make_mock.js)
#   SCREENSHOT_DIR=d  keep the screenshots there (default: the scratch dir,
#                     removed at exit)
#   UPDATE_DOCS=1     also write the laptop screenshot to docs/review-page.png
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "review_browser_test.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
SCRIBE="$(realpath "$1")"
EXAMPLES="$(realpath "$2")"
HERE="$(cd "$(dirname "$0")" && pwd)"
RECORD="$EXAMPLES/finkel-game.json"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

"$HERE/browser/install.sh"

if [ -n "${PAGE:-}" ]; then
  page="$(realpath "$PAGE")"
else
  page="$TMP/page.html"
  "$SCRIBE" review "$RECORD" --depth 1 --html "$page" > "$TMP/review.txt"
fi
"$SCRIBE" replay --format=json "$RECORD" > "$TMP/replay.json"
rules="$(sed -n 's/^{"ruleset":"\([^"]*\)".*/\1/p' "$TMP/replay.json")"
"$SCRIBE" ruleset show "$rules" > "$TMP/ruleset.txt"

docs=""
if [ "${UPDATE_DOCS:-0}" = 1 ]; then
  docs="$(cd "$HERE/../.." && pwd)/docs/review-page.png"
fi
cd "$HERE/browser"
PAGE="$page" REPLAY_JSON="$TMP/replay.json" RULESET="$TMP/ruleset.txt" \
  SCREENSHOT_DIR="${SCREENSHOT_DIR:-$TMP/screenshots}" DOCS_SCREENSHOT="$docs" \
  node --test review_page_test.js
