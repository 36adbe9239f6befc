#!/usr/bin/env bash
# End-to-end tests of `scribe suggest` and `scribe match` (docs/suggest.md):
# output, exit codes, determinism, and bad input refused with a message.
# Usage: analysis_cli_test.sh SCRIBE_BINARY
set -uo pipefail
SCRIBE="$1"
source "$(dirname "$0")/cli_check.sh"

# finkel, light to move: pieces on 4 (a rosette), 8 (the middle rosette)
# and 10; dark on 1, 4, 9 and 12, one borne off.
POS="3:...1...1.1....:1/3:1..1....1..1..:0 L"
START="7:..............:0/7:..............:0 L"

# --- suggest -----------------------------------------------------------------
check "suggest: the start, a forced move" 0 "light throws 2: 1 legal move \(forced\)" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2
check "suggest: the move as TSN writes it, a chance with 3 decimals" 0 "^  1\. 0-2 +[0-9]{1,3}\.[0-9]{3}%$" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --position "$START"
check "suggest: the position string is echoed" 0 "^finkel  $POS$" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --position "$POS"
check "suggest: says the values are an estimate and the depth (default 2)" 0 \
  "light's winning chances: search depth 2 .*estimate" -- "$SCRIBE" suggest --ruleset finkel --roll 2 --position "$POS"
check "suggest: --depth names its depth" 0 "^light's winning chances: search depth 3 \+ race estimate \(an estimate\)$" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --position "$POS" --depth 3
check "suggest: --depth 0 is the leaf estimate alone" 0 \
  "^light's winning chances: search depth 0 \+ race estimate \(an estimate\)$" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --position "$POS" --depth 0
# The depth is searched, not only named: another depth, other chances.
produce "suggest --depth 0" "$TMP/depth0" -- "$SCRIBE" suggest --ruleset finkel --roll 2 --position "$POS" --depth 0
produce "suggest --depth 3" "$TMP/depth3" -- "$SCRIBE" suggest --ruleset finkel --roll 2 --position "$POS" --depth 3
check "suggest: depth 3 and depth 0 give other chances" 1 "" -- \
  cmp -s <(grep -E '^ +[0-9]+\. ' "$TMP/depth0") <(grep -E '^ +[0-9]+\. ' "$TMP/depth3")
check "suggest: every legal move, a capture marked x" 0 "^light throws 2: 3 legal moves, best first$" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --position "$POS"
check "suggest: a capture is marked x" 0 "[0-9]+\. 10-12x " -- "$SCRIBE" suggest --ruleset finkel --roll 2 --position "$POS"
check "suggest: another throw is marked *" 0 "[0-9]+\. 10-14\* " -- "$SCRIBE" suggest --ruleset finkel --roll 4 --position "$POS"
check "suggest: tile names with --tiles" 0 "[0-9]+\. @-A2 " -- \
  "$SCRIBE" suggest --ruleset finkel --roll 3 --position "$POS" --tiles
produce "suggest: a throw of 3" "$TMP/roll3" -- "$SCRIBE" suggest --ruleset finkel --roll 3 --position "$POS"
out="$(cat "$TMP/roll3")"
chances="$(grep -E '^ +[0-9]+\. ' <<<"$out" | awk '{print $3}' | tr -d '%')"
equal "suggest: best first (chances descending)" "$chances" "$(sort -gr <<<"$chances")"
equal "suggest: ranks 1..n" "$(grep -cE '^ +[0-9]+\. ' <<<"$out")" "4"
check "suggest: a throw of 0 passes" 0 "no move \(a throw of 0\), light passes" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 0 --position "$POS"
check "suggest: the pass has a chance" 0 "^  pass +[0-9]{1,3}\.[0-9]{3}%$" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 0 --position "$POS"
check "suggest: dark to move" 0 "^dark throws 1: 4 legal moves, best first$" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 1 --position "3:...1...1.1....:1/3:1..1....1..1..:0 D"
check "suggest: stacking rules (turnover)" 0 "^  1\. 0-1\+ +[0-9]{1,3}\.[0-9]{3}%$" -- \
  "$SCRIBE" suggest --ruleset turnover --roll 1
check "suggest: a ruleset with overrides" 0 "^finkel\(pieces=3\)  " -- \
  "$SCRIBE" suggest --ruleset "finkel(pieces=3)" --roll 1

json="$("$SCRIBE" suggest --ruleset finkel --roll 2 --position "$POS" --format json)"
check "suggest json: not exact" 0 '"exact": false' -- echo "$json"
check "suggest json: the depth" 0 '"depth": 2' -- echo "$json"
check "suggest json: the best move first" 0 '"rank": 1,' -- echo "$json"
check "suggest json: moves in TSN" 0 '"move": "10-12x"' -- echo "$json"
check "suggest json: the chance as a number" 0 '"chance": 0\.[0-9]+' -- echo "$json"
check "suggest json: the position after" 0 '"position_after": "[^"]+ D"' -- echo "$json"
check "suggest json: a pass has its chance" 0 '"pass_chance": 0\.[0-9]+' -- \
  "$SCRIBE" suggest --ruleset finkel --roll 0 --format json

# Bad input: exit 2 with a message.
check "suggest: a bad position" 2 "scribe: suggest: --position: .*<light>/<dark> <to-move>" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --position "junk"
check "suggest: a position of the wrong length" 2 "board part has 13 squares; the path has 14" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --position "3:...1...1.1...:1/3:1..1....1..1..:0 L"
check "suggest: a finished game" 2 "the game is over \(light has borne off every piece\)" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --position "0:..............:7/7:..............:0 L"
check "suggest: a throw the dice cannot give" 2 "--roll 7: the dice of finkel cannot throw it \(they throw 0, 1, 2, 3, 4\)" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 7
check "suggest: a negative throw" 2 \
  "^scribe: suggest: --roll -1: the dice of finkel cannot throw it \(they throw 0, 1, 2, 3, 4\)$" -- "$SCRIBE" suggest --ruleset finkel --roll -1
check "suggest: a throw that is not a number" 2 "^Could not convert: --roll = two$" -- "$SCRIBE" suggest --ruleset finkel --roll two
check "suggest: turnover's dice never throw 2" 2 "cannot throw it \(they throw 0, 1, 4, 5\)" -- \
  "$SCRIBE" suggest --ruleset turnover --roll 2
check "suggest: an unknown ruleset" 2 "scribe: ruleset: .*unknown ruleset" -- \
  "$SCRIBE" suggest --ruleset no-such-rules --roll 2
check "suggest: --roll is required" 2 "^--roll is required$" -- "$SCRIBE" suggest --ruleset finkel
check "suggest: a depth too deep" 2 "^--depth: Value 9 not in range 0 to 6$" -- "$SCRIBE" suggest --ruleset finkel --roll 2 --depth 9
check "suggest: a missing table" 2 "scribe: suggest: --table: $TMP/none.tbl: no such file" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --table "$TMP/none.tbl"
echo "not a table" > "$TMP/junk.tbl"
check "suggest: a file that is not a table" 2 "scribe: suggest: --table: .*not a usable Scribe table" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --table "$TMP/junk.tbl"
check "suggest: --table and --depth together" 2 "^--table excludes --depth$" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --table "$TMP/junk.tbl" --depth 2

# Exact values from a solved table (a small ruleset solves in a moment).
SMALL="finkel(pieces=2)"
SPOS="1:...1..........:0/1:......1.......:0 L"
if "$SCRIBE" solve --ruleset "$SMALL" --out "$TMP/small.tbl" --quiet > "$TMP/solve.log" 2>&1; then
  check "suggest --table: exact values" 0 "light's winning chances: table .*\(exact\)" -- \
    "$SCRIBE" suggest --ruleset "$SMALL" --roll 2 --position "$SPOS" --table "$TMP/small.tbl"
  check "suggest --table: ranked moves" 0 "^  1\. 4-6 +48\.[0-9]{3}%$" -- \
    "$SCRIBE" suggest --ruleset "$SMALL" --roll 2 --position "$SPOS" --table "$TMP/small.tbl"
  check "suggest --table json: exact" 0 '"exact": true' -- \
    "$SCRIBE" suggest --ruleset "$SMALL" --roll 2 --position "$SPOS" --table "$TMP/small.tbl" --format json
  absent "suggest --table json: no depth" 0 '"depth"' -- \
    "$SCRIBE" suggest --ruleset "$SMALL" --roll 2 --table "$TMP/small.tbl" --format json
  check "suggest: a table for other rules is refused" 2 "the table is for ruleset [0-9a-f]{16} .* not [0-9a-f]{16}" -- \
    "$SCRIBE" suggest --ruleset finkel --roll 2 --table "$TMP/small.tbl"
  check "match: perfect plays by the table" 0 "^light perfect +[0-9]+ wins " -- \
    "$SCRIBE" match --ruleset "$SMALL" --light perfect --dark random --games 200 --table "$TMP/small.tbl"
  check "match: perfect against perfect" 0 "^dark  perfect +[0-9]+ wins " -- \
    "$SCRIBE" match --ruleset "$SMALL" --light perfect --dark perfect --games 20 --table "$TMP/small.tbl"
  check "match: a table for other rules is refused" 2 "scribe: match: --table: .*the table is for ruleset" -- \
    "$SCRIBE" match --ruleset finkel --light perfect --dark random --games 2 --table "$TMP/small.tbl"
else
  echo "FAIL scribe solve could not make a small table: $(tail -n 5 "$TMP/solve.log")"; failed=$((failed + 1))
fi

# --- table count: the size of a solve before it is tried -----------------------
check "table count: finkel, as the index counts it" 0 "^positions    137,870,097 " -- \
  "$SCRIBE" table count --ruleset finkel
check "table count: finkel fits" 0 "^solvable     yes: scribe solve --ruleset finkel" -- \
  "$SCRIBE" table count --ruleset finkel
check "table count: skiriuk, which the index cannot rank" 0 "^positions    10,474,772,403 " -- \
  "$SCRIBE" table count --ruleset skiriuk
check "table count: skiriuk, and why not" 0 "^index        cannot index .*: a path visits a square twice" -- \
  "$SCRIBE" table count --ruleset skiriuk
check "table count: turnover's stacks" 0 "^values       2245\.76 GiB while solving" -- \
  "$SCRIBE" table count --ruleset turnover
check "table count: masters against a smaller --max-memory" 0 "^solvable     no: a solve needs 3\.2 GiB at its peak, more than --max-memory 1\.0 GiB" -- \
  "$SCRIBE" table count --ruleset masters --max-memory 1
check "table count: masters' peak, part by part" 0 "^solve memory 3\.25 GiB at the peak: the values, and the largest pair's order 0\.44 GiB, changes 0\.44 GiB, policies 0\.50 GiB$" -- \
  "$SCRIBE" table count --ruleset masters
check "table count: more than the values alone is counted" 0 "^solvable     no: a solve needs 3\.2 GiB at its peak, more than --max-memory 2\.0 GiB" -- \
  "$SCRIBE" table count --ruleset masters --max-memory 2
check "table count: the largest ruleset accepted (stacks of 15 pieces) counts without overflow" 0 \
  "^positions    2,411,870,474,436,677,057 " -- "$SCRIBE" table count --ruleset "turnover(pieces=15)"
check "table count: one piece more is refused by the ruleset" 2 "pieces: 16 is out of range: 1 to 15" -- \
  "$SCRIBE" table count --ruleset "turnover(pieces=16)"
check "table count: an unknown ruleset" 2 '^scribe: ruleset: unknown ruleset "no-such-rules"; the presets are: finkel, ' -- "$SCRIBE" table count --ruleset no-such-rules

# --- match -------------------------------------------------------------------
check "match: the header says how the games start" 0 \
  "^finkel, 200 games, seed 5 \(light starts the odd games, dark the even ones\)$" -- \
  "$SCRIBE" match --ruleset finkel --light heuristic --dark random --games 200 --seed 5
check "match: each bot's wins, rate and 95% interval" 0 \
  "^light heuristic +[0-9]+ wins +[0-9.]+%  95% CI \[[0-9.]+%, [0-9.]+%\]  \(started 100\)$" -- \
  "$SCRIBE" match --ruleset finkel --light heuristic --dark random --games 200 --seed 5
check "match: the average game length" 0 "^average game length: [0-9]+\.[0-9] throws \([0-9]+\.[0-9] moves\)$" -- \
  "$SCRIBE" match --ruleset finkel --light heuristic --dark random --games 200 --seed 5
produce "match: seed 42" "$TMP/match-a" -- "$SCRIBE" match --ruleset finkel --light random --dark heuristic --games 300 --seed 42
produce "match: seed 42 again" "$TMP/match-b" -- "$SCRIBE" match --ruleset finkel --light random --dark heuristic --games 300 --seed 42
produce "match: seed 43" "$TMP/match-c" -- "$SCRIBE" match --ruleset finkel --light random --dark heuristic --games 300 --seed 43
check "match: same seed, same result" 0 "" -- cmp "$TMP/match-a" "$TMP/match-b"
check "match: another seed, other games" 1 "" -- cmp -s "$TMP/match-a" "$TMP/match-c"
heuristic_wins="$(grep '^dark ' "$TMP/match-a" | awk '{print $3}')"
if [ "${heuristic_wins:-0}" -gt 250 ]; then echo "ok   match: heuristic beats random ($heuristic_wins/300)"; passed=$((passed + 1));
else echo "FAIL match: heuristic won only $heuristic_wins/300 against random"; failed=$((failed + 1)); fi
check "match: search bots play" 0 "^light search:1 +[0-9]+ wins " -- \
  "$SCRIBE" match --ruleset finkel --light search:1 --dark random --games 20
check "match: a throw-off where the rules have one" 0 "turnover, 50 games, seed 1 \(a throw-off decides who starts each game\)" -- \
  "$SCRIBE" match --ruleset turnover --light heuristic --dark random --games 50
check "match: search with stacking (turnover)" 0 "^light search:1 +[0-9]+ wins " -- \
  "$SCRIBE" match --ruleset turnover --light search:1 --dark random --games 4
json="$("$SCRIBE" match --ruleset finkel --light heuristic --dark random --games 100 --seed 3 --format json)"
check "match json: the bots" 0 '"bot": "heuristic"' -- echo "$json"
check "match json: the interval" 0 '"ci95_low": 0\.[0-9]+' -- echo "$json"
check "match json: the opening" 0 '"opening": "alternate"' -- echo "$json"
check "match json: the mean length" 0 '"mean_throws": [0-9.]+' -- echo "$json"
check "match json: wins add up" 0 '"unfinished": 0' -- echo "$json"

# Thousands of games per second (random against heuristic): 3000 games in
# well under the limit even on a busy machine (1.7 s measured with both cores
# held by busy loops and a load average of 17).
start=$(date +%s%N)
produce "match: 3000 quick games" "$TMP/match-3000" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark heuristic --games 3000
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$elapsed_ms" -lt 15000 ]; then echo "ok   match: 3000 games in $elapsed_ms ms"; passed=$((passed + 1));
else echo "FAIL match: 3000 games took $elapsed_ms ms"; failed=$((failed + 1)); fi
equal "match: 3000 games, every one won by a side" 3000 \
  "$(awk '/^(light|dark) / {n += $3} END {print n + 0}' "$TMP/match-3000")"

check "match: perfect needs a table" 2 "scribe: match: the perfect bot plays by a solved table: give one with --table FILE" -- \
  "$SCRIBE" match --ruleset finkel --light perfect --dark random --games 2
check "match: an unknown bot" 2 "scribe: match: --light: unknown bot \"gnubg\"; expected perfect, search:N" -- \
  "$SCRIBE" match --ruleset finkel --light gnubg --dark random --games 2
check "match: search without a depth" 2 "scribe: match: --dark: bot \"search\": a search bot needs its depth" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark search --games 2
check "match: a search too deep" 2 "--light: bot \"search:7\": the search depth must be a whole number from 0 to 6" -- \
  "$SCRIBE" match --ruleset finkel --light search:7 --dark random --games 2
check "match: no games" 2 "^--games: Value 0 not in range 1 to 100000000$" -- "$SCRIBE" match --ruleset finkel --light random --dark random --games 0
check "match: --games is required" 2 "^--games is required$" -- "$SCRIBE" match --ruleset finkel --light random --dark random
check "match: an unknown ruleset" 2 '^scribe: ruleset: unknown ruleset "nope"; the presets are: finkel, ' -- \
  "$SCRIBE" match --ruleset nope --light random --dark random --games 2
check "match: a missing table" 2 "scribe: match: --table: .*no such file" -- \
  "$SCRIBE" match --ruleset finkel --light perfect --dark random --games 2 --table "$TMP/none.tbl"

finish
