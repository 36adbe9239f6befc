#!/usr/bin/env bash
# scripts/make_corpus.sh: the corpus in examples/corpus is what the script
# makes (same seed, same files, byte for byte), and every game in it is
# legal. When a change to the bots changes the games, make it again:
#   scripts/make_corpus.sh --small examples/corpus
# Usage: corpus_script_test.sh SCRIBE_BINARY ROOT
set -uo pipefail
SCRIBE="$(realpath "$1")"
ROOT="$(realpath "$2")"
source "$(dirname "$0")/cli_check.sh"

check "make_corpus.sh --small: runs" 0 "make_corpus.sh: 150 games in [0-9]+ s$" -- \
  bash "$ROOT/scripts/make_corpus.sh" --small "$TMP/corpus" "$SCRIBE"
check "make_corpus.sh --small: the files of examples/corpus, byte for byte" 0 "" -- \
  diff -r -x '*.md' "$ROOT/examples/corpus" "$TMP/corpus"
check "examples/corpus: every game legal" 0 "finkel-2026-03\.tsn: ok$" -- "$SCRIBE" validate "$ROOT/examples/corpus"
absent "examples/corpus: no finding" 0 "error\[" -- "$SCRIBE" validate "$ROOT/examples/corpus"
equal "examples/corpus: six players" \
  "$(grep -h -E '^\[(Light|Dark) ' "$ROOT"/examples/corpus/*.tsn | cut -d'"' -f2 | sort -u | paste -sd ' ')" \
  "Ann Bo Cy Di Ed Fay"
equal "examples/corpus: two events" \
  "$(grep -h '^\[Event ' "$ROOT"/examples/corpus/*.tsn | cut -d'"' -f2 | sort -u | paste -sd '|')" \
  "Ur club league|Winter cup"
check "make_corpus.sh: a missing scribe is said" 2 "no scribe binary at $TMP/none" -- \
  bash "$ROOT/scripts/make_corpus.sh" --small "$TMP/x" "$TMP/none"
finish
