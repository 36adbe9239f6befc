#!/usr/bin/env bash
# `scribe validate` on a TSN corpus against pgn-extract checking a chess
# PGN corpus of about as many plies, in one hyperfine run; prints the
# medians, plies per second and the ratio (docs/BENCHMARKS.md, "Validation
# from TSN").
#
# Usage: bench/validate_compare.sh [BUILD_DIR]      (default build)
# Environment: RUNS (20), UR_GAMES (3000), CHESS_GAMES (3500), SEED (1),
# CORPUS_DIR (a fresh temporary directory; corpora there are reused).
# Needs hyperfine and pgn-extract (Debian packages) and python3.
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "validate_compare.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
RUNS="${RUNS:-20}"
UR_GAMES="${UR_GAMES:-3000}"
CHESS_GAMES="${CHESS_GAMES:-3500}"
SEED="${SEED:-1}"
DIR="${CORPUS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/scribe-validate.XXXXXX")}"
PGN_EXTRACT="$(command -v pgn-extract || echo /usr/games/pgn-extract)"
mkdir -p "$DIR"

if [ ! -s "$DIR/ur.tsn" ]; then
  "$BUILD/bench/validate_bench" --games="$UR_GAMES" --write_corpus="$DIR/ur.tsn" | tee "$DIR/ur.txt"
fi
if [ ! -s "$DIR/chess.pgn" ]; then
  python3 "$ROOT/bench/random_chess_pgn.py" --games "$CHESS_GAMES" --seed "$SEED" \
    > "$DIR/chess.pgn" 2> "$DIR/chess.txt"
  cat "$DIR/chess.txt"
fi
# Both corpora must be clean: every record legal, every move legal.
if ! "$BUILD/cli/scribe" validate "$DIR/ur.tsn" > "$DIR/validate.txt" 2>&1; then
  echo "validate_compare.sh: $DIR/ur.tsn is not clean; the first findings:" >&2
  grep -v ': ok$' "$DIR/validate.txt" | head -n 10 >&2 || true
  exit 1
fi
if [ -n "$("$PGN_EXTRACT" -r -s --quiet "$DIR/chess.pgn" 2>&1)" ]; then
  echo "pgn-extract found errors in $DIR/chess.pgn" >&2
  exit 1
fi

echo "load: $(uptime)"
hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$DIR/hyperfine.json" \
  -n "scribe validate ur.tsn" "$BUILD/cli/scribe validate $DIR/ur.tsn" \
  -n "pgn-extract -r -s --quiet chess.pgn" "$PGN_EXTRACT -r -s --quiet $DIR/chess.pgn" \
  -n "pgn-extract -s -o /dev/null chess.pgn" "$PGN_EXTRACT -s -o /dev/null $DIR/chess.pgn"
echo "load: $(uptime)"

python3 - "$DIR" <<'EOF'
import json, re, sys
d = sys.argv[1]
ur = int(re.search(r"(\d+) plies", open(d + "/ur.txt").read()).group(1))
chess = int(re.search(r"(\d+) plies", open(d + "/chess.txt").read()).group(1))
rate = {}
for r in json.load(open(d + "/hyperfine.json"))["results"]:
    plies = chess if r["command"].startswith("pgn-extract") else ur
    rate[r["command"]] = plies / r["median"]
    cpu = r["user"] + r["system"]
    print("%-40s median %8.1f ms  %6.2f M plies/s;  CPU (user+sys, mean) %8.1f ms  %6.2f M plies/s"
          % (r["command"], r["median"] * 1e3, rate[r["command"]] / 1e6, cpu * 1e3, plies / cpu / 1e6))
first = next(iter(rate))
for name, value in rate.items():
    if name != first:
        print("ratio (median wall time) %s / %s: %.1f" % (first, name, rate[first] / value))
EOF
echo "corpora and hyperfine.json in $DIR"
