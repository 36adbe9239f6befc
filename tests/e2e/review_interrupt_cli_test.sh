#!/usr/bin/env bash
# `scribe review` interrupted (SIGINT, as Ctrl-C sends, and SIGTERM) in the
# middle of a collection: the analysis (review/pipeline.h) polls the stop,
# so the command ends with 130 and says so, prints no report, and the pages
# already written stay whole. Uninterrupted, the same review prints its
# report and exits 0 (so the 130 is the signal's, not a failure's).
# Usage: review_interrupt_cli_test.sh SCRIBE_BINARY
set -uo pipefail
SCRIBE="$1"
source "$(dirname "$0")/cli_check.sh"

# 60 finkel games, reviewed by a search 2 throws deep: many seconds of work
# on one thread.
"$SCRIBE" play --ruleset finkel --seed 11 --games 60 >"$TMP/games.json"
equal "games to review" "$?" 0

interrupt() {
  local name="$1" signal="$2" pages="$TMP/pages-$2"
  "$SCRIBE" review --depth 2 --threads 1 --html "$pages" "$TMP/games.json" >"$TMP/out" 2>"$TMP/err" &
  local pid=$!
  # Until the first page is written: the review is under way.
  for _ in $(seq 1 600); do
    [ -n "$(ls "$pages" 2>/dev/null | grep -v '^index.html$')" ] && break
    sleep 0.1
  done
  kill "-$signal" "$pid"
  wait "$pid"
  local rc=$?
  equal "$name: exit 130" "$rc" 130
  check "$name: says so" 0 "^scribe: review: interrupted; no report printed$" -- cat "$TMP/err"
  equal "$name: no report on standard output" "$(wc -c <"$TMP/out")" 0
  equal "$name: no index page (the collection was not finished)" "$(test -e "$pages/index.html" && echo yes)" ""
  local written
  written="$(ls "$pages" | wc -l)"
  equal "$name: fewer pages than games" "$([ "$written" -ge 1 ] && [ "$written" -lt 60 ] && echo yes)" yes
  # Every page written is whole.
  local whole=yes p
  for p in "$pages"/*.html; do tail -c 200 "$p" | grep -q '</html>' || whole="no: $p"; done
  equal "$name: the pages written are whole" "$whole" yes
}

interrupt "review, SIGINT" INT
interrupt "review, SIGTERM" TERM

# Uninterrupted, a smaller review of the same kind ends normally.
head_games() { python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))[:2], sys.stdout)' "$1"; }
head_games "$TMP/games.json" >"$TMP/two.json"
check "review, not interrupted: the report" 0 "^2 games reviewed; chances from search depth 1" -- "$SCRIBE" review --depth 1 "$TMP/two.json"

finish
