#!/usr/bin/env bash
# Makes a corpus of finkel games among six named players of mixed strengths
# (computer opponents, `scribe match --records`), over several months and
# two or three events, one TSN file per month: finkel-YYYY-MM.tsn, each in
# date order. Made for the game database (import, search, player pages and
# ratings over time). The same arguments make the same files, byte for byte:
# every match has its own seed, counted up from --seed in a fixed order.
#
# Usage: scripts/make_corpus.sh [--small] [--seed N] OUT_DIR [SCRIBE]
#   --small   the corpus in examples/corpus: 3 months, 150 games (~300 KB)
#             (default: 6 months, 2520 games, ~5 MB, about 15 s on one core)
#   SCRIBE    the scribe binary (default: build/cli/scribe)
#
# The players (the bot each plays as; docs/suggest.md has their strengths):
#   Ann  search:2    the strongest
#   Bo   heuristic
#   Cy   search:1
#   Di   search:0
#   Ed   random      the weakest, by far
#   Fay  random, then search:0, then search:2: a player who gets better
#        (in thirds of the months), for ratings to follow
# The events:
#   Ur club league  every month, a round robin in 5 rounds (days 3, 9, 15,
#                   21, 27); each pair plays N games with each colour
#   Winter cup      14 February; each pair M games with each colour
#   Spring open     18 April (not in --small); the same
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "make_corpus.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR

small=0
seed=1
while [ $# -gt 0 ]; do
  case "$1" in
    --small) small=1; shift ;;
    --seed) seed="$2"; shift 2 ;;
    -*) echo "make_corpus.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/make_corpus.sh [--small] [--seed N] OUT_DIR [SCRIBE]" >&2
  exit 2
fi
out="$1"
scribe="${2:-$(dirname "$0")/../build/cli/scribe}"
if [ ! -x "$scribe" ]; then
  echo "make_corpus.sh: no scribe binary at $scribe (build it: cmake --build build --target scribe)" >&2
  exit 2
fi

if [ "$small" = 1 ]; then
  months=(2026-01 2026-02 2026-03)
  fay=(random search:0 search:2)
  league_games=1
  cup_games=2
  cups=("2026-02-14|Winter cup")
else
  months=(2026-01 2026-02 2026-03 2026-04 2026-05 2026-06)
  fay=(random random search:0 search:0 search:2 search:2)
  league_games=10
  cup_games=12
  cups=("2026-02-14|Winter cup" "2026-04-18|Spring open")
fi
players=(Ann Bo Cy Di Ed Fay)

# The bot NAME plays as in month number $2 (0-based).
bot_of() {
  case "$1" in
    Ann) echo search:2 ;;
    Bo) echo heuristic ;;
    Cy) echo search:1 ;;
    Di) echo search:0 ;;
    Ed) echo random ;;
    Fay) echo "${fay[$2]}" ;;
  esac
}

# The fixtures, one a line: DATE|MONTH_INDEX|EVENT|A|B|GAMES (each colour).
fixtures="$(mktemp)"
work="$(mktemp -d)"
trap 'rm -rf "$fixtures" "$work"' EXIT
days=(03 09 15 21 27)
for m in "${!months[@]}"; do
  # A round robin of six by the circle method: player 5 meets player r,
  # and (r+k) meets (r-k) mod 5, k = 1, 2.
  for r in 0 1 2 3 4; do
    date="${months[$m]}-${days[$r]}"
    echo "$date|$m|Ur club league|${players[5]}|${players[$r]}|$league_games" >> "$fixtures"
    for k in 1 2; do
      echo "$date|$m|Ur club league|${players[$(((r + k) % 5))]}|${players[$(((r - k + 5) % 5))]}|$league_games" \
        >> "$fixtures"
    done
  done
  for cup in "${cups[@]}"; do
    date="${cup%%|*}"
    [ "${date:0:7}" = "${months[$m]}" ] || continue
    for a in 0 1 2 3 4 5; do
      for b in $(seq $((a + 1)) 5); do
        echo "$date|$m|${cup#*|}|${players[$a]}|${players[$b]}|$cup_games" >> "$fixtures"
      done
    done
  done
done

# Date order (stable: a day's fixtures keep the order written), then one
# match per colour, each appended to its month's file.
start=$SECONDS
games=0
while IFS='|' read -r date m event a b n; do
  for side in 0 1; do
    if [ "$side" = 0 ]; then light="$a" dark="$b"; else light="$b" dark="$a"; fi
    file="$work/finkel-${date:0:7}.tsn"
    if ! "$scribe" match --ruleset finkel --light "$(bot_of "$light" "$m")" --dark "$(bot_of "$dark" "$m")" \
        --games "$n" --seed "$seed" --records "$work/one.tsn" --light-name "$light" --dark-name "$dark" \
        --event "$event" --date "$date" --games-per-day "$n" > "$work/match.log" 2>&1; then
      echo "make_corpus.sh: the match $light - $dark of $date (seed $seed) failed:" >&2
      cat "$work/match.log" >&2
      exit 1
    fi
    # One empty line between games, as TSN writes them.
    if [ -s "$file" ]; then echo >> "$file"; fi
    cat "$work/one.tsn" >> "$file"
    seed=$((seed + 1))
    games=$((games + n))
  done
done < <(sort -s -t '|' -k1,1 "$fixtures")

mkdir -p "$out"
for f in "$work"/finkel-*.tsn; do
  mv "$f" "$out/"
  echo "$out/$(basename "$f"): $(grep -c '^\[TSN ' "$out/$(basename "$f")") games"
done
echo "make_corpus.sh: $games games in $((SECONDS - start)) s"
