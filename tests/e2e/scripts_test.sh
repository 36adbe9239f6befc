#!/usr/bin/env bash
# The project's shell scripts say what failed: every script under scripts/,
# bench/ and tests/e2e/ that runs under `set -e` has an ERR trap naming the
# line and the command (a pipeline whose grep finds nothing, or a step whose
# output went to /dev/null, must not end a script silently); and steps that
# used to fail silently now show their output.
# Usage: scripts_test.sh SCRIBE_BINARY ROOT
set -uo pipefail
SCRIBE="$(realpath "$1")"
ROOT="$(realpath "$2")"
source "$(dirname "$0")/cli_check.sh"

# Every set -e script has the trap.
missing=()
while IFS= read -r -d '' f; do
  grep -qE '^set -[a-zA-Z]*e' "$f" || continue
  grep -qE "^trap '.*' ERR$" "$f" || missing+=("${f#"$ROOT"/}")
done < <(find "$ROOT/scripts" "$ROOT/bench" "$ROOT/tests/e2e" -name node_modules -prune -o -name '*.sh' -print0)
equal "every set -e script has an ERR trap that names the failing step" "${missing[*]:-}" ""

# A failing scribe solve in the solve benchmark: its output is shown.
cat > "$TMP/fake-scribe" <<'SH'
#!/bin/sh
echo "boom: the solver broke" >&2
exit 3
SH
chmod +x "$TMP/fake-scribe"
check "solve_bench.sh: a failing solve is named, with its output" 1 "solve --ruleset finkel\(pieces=2\) failed" -- \
  env RUNS=1 bash "$ROOT/bench/solve_bench.sh" "$TMP/fake-scribe" "finkel(pieces=2)"
check "solve_bench.sh: the solver's own message is shown" 1 "boom: the solver broke" -- \
  env RUNS=1 bash "$ROOT/bench/solve_bench.sh" "$TMP/fake-scribe" "finkel(pieces=2)"

# The validate benchmark's corpus check: an illegal game in it is shown,
# not swallowed by /dev/null.
mkdir -p "$TMP/build/cli" "$TMP/corpus"
ln -s "$SCRIBE" "$TMP/build/cli/scribe"
printf '[Ruleset "finkel"]\n\n1. 4: 0-9 3: 0-3\n' > "$TMP/corpus/ur.tsn"
echo '[Event "x"]' > "$TMP/corpus/chess.pgn"
check "validate_compare.sh: a corpus that is not clean says which finding" 1 \
  "not clean; the first findings:" -- env CORPUS_DIR="$TMP/corpus" bash "$ROOT/bench/validate_compare.sh" "$TMP/build"
check "validate_compare.sh: the finding itself is printed" 1 "ur.tsn:[0-9]+:[0-9]+: error\[" -- \
  env CORPUS_DIR="$TMP/corpus" bash "$ROOT/bench/validate_compare.sh" "$TMP/build"
finish
