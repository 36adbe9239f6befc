#!/usr/bin/env bash
# End-to-end tests of `scribe annotate` with winning chances (docs/annotation.md,
# "Winning chances"): --table (exact, from a table `scribe solve` writes),
# --depth (a search estimate) and --graph. Output, exit codes, and that the
# plain annotation is unchanged without them.
# Usage: annotate_values_cli_test.sh SCRIBE_BINARY EXAMPLES_DIR
set -uo pipefail
SCRIBE="$1"
EXAMPLES="$2"
GAME="$EXAMPLES/finkel-game.json"
source "$(dirname "$0")/cli_check.sh"

actions=$(grep -o '"roll"' "$GAME" | wc -l)

# Without the new flags: the annotation as before, no values anywhere.
produce "annotate without --depth" "$TMP/plain.tsn" -- "$SCRIBE" annotate "$GAME"
check "without --depth the annotation is written" 0 "^1\. L [0-9]:0-[0-9]+ \{\[%did entered" -- cat "$TMP/plain.tsn"
absent "without --depth no winning chances are written" 0 '\[%(wc|values|evaluator|luck) ' -- cat "$TMP/plain.tsn"
produce "annotate --format=json without --depth" "$TMP/plain.json" -- "$SCRIBE" annotate --format=json "$GAME"
check "without --depth the JSON annotation is written" 0 '"actions":\[\{"index":0' -- cat "$TMP/plain.json"
absent "without --depth the JSON has no values" 0 '"(evaluator|exact|chance_before|light_chance)"' -- cat "$TMP/plain.json"

# --depth: a search estimate, and it says so.
produce "annotate --depth 1 works" "$TMP/values.tsn" -- "$SCRIBE" annotate --depth 1 "$GAME"
check "the record says the values are an estimate" 0 "^\{\[%values estimate\] \[%evaluator search depth 1 " -- cat "$TMP/values.tsn"
check "each side has a summary" 0 "\[%sum-light moves=[0-9]+ decisions=[0-9]+ loss=[0-9]+\.[0-9]{3} doubtful=[0-9]+ mistakes=[0-9]+ blunders=[0-9]+ luck=[-+]?[0-9]+\.[0-9]{3}\] \[%sum-dark " -- cat "$TMP/values.tsn"
equal "every action has its chance before the throw" "$(grep -o '\[%wc [0-9]*\.[0-9]\{3\}\]' "$TMP/values.tsn" | wc -l)" "$actions"
equal "every action has the value of its throw" "$(grep -o '\[%wt [0-9]*\.[0-9]\{3\}\]' "$TMP/values.tsn" | wc -l)" "$actions"
equal "every action has its chance after" "$(grep -o '\[%wca [0-9]*\.[0-9]\{3\}\]' "$TMP/values.tsn" | wc -l)" "$actions"
equal "every action has its luck" "$(grep -o '\[%luck [-+]\{0,1\}[0-9]*\.[0-9]\{3\}\]' "$TMP/values.tsn" | wc -l)" "$actions"
check "a worse move names the best by value" 0 "\[%bestv [0-9]+-[0-9]+ [0-9]+\.[0-9]{3}\] \[%loss [0-9]+\.[0-9]{3}\]" -- cat "$TMP/values.tsn"
check "marks are written" 0 "\[%mark (\?!|\?|\?\?)\]" -- cat "$TMP/values.tsn"
check "the annotated record is still legal" 0 "values.tsn: ok" -- "$SCRIBE" validate "$TMP/values.tsn"
produce "annotate --depth 1 of its own output" "$TMP/values-again.tsn" -- "$SCRIBE" annotate --depth 1 "$TMP/values.tsn"
check "annotating twice with --depth changes nothing" 0 "" -- cmp "$TMP/values.tsn" "$TMP/values-again.tsn"
produce "annotate, without --depth, a record with values" "$TMP/plain-again.tsn" -- "$SCRIBE" annotate "$TMP/values.tsn"
check "annotating again without --depth drops the values" 0 "" -- cmp "$TMP/plain.tsn" "$TMP/plain-again.tsn"
produce "annotate --depth 1 --tiles" "$TMP/tiles.tsn" -- "$SCRIBE" annotate --depth 1 --tiles "$GAME"
check "--tiles writes the best move by value as tiles" 0 "\[%bestv (@|[ABC][0-9]+'*)-([ABC][0-9]+'*|off) " -- cat "$TMP/tiles.tsn"

# JSON: the fields, and exact false.
produce "annotate --depth 1 --format=json" "$TMP/values.json" -- "$SCRIBE" annotate --depth 1 --format=json "$GAME"
check "JSON names the evaluator" 0 "\"evaluator\":\"search depth 1 " -- cat "$TMP/values.json"
check "JSON says the values are not exact" 0 "\"exact\":false" -- cat "$TMP/values.json"
check "JSON has the thresholds" 0 "\"thresholds\":\{\"doubtful\":0\.02,\"mistake\":0\.05,\"blunder\":0\.1\}" -- cat "$TMP/values.json"
check "JSON has both summaries" 0 "\"summary_light\":\{\"throws\":[0-9]+.*\"summary_dark\":\{" -- cat "$TMP/values.json"
equal "JSON has a chance before for every action" "$(grep -o '"chance_before":' "$TMP/values.json" | wc -l)" "$actions"
equal "JSON has light's chance for every ply" \
  "$(grep -o '"light_chance":\[[^]]*\]' "$TMP/values.json" | tr ',' '\n' | wc -l)" "$((actions + 1))"
produce "annotate --depth 2 --format=json" "$TMP/values2.json" -- "$SCRIBE" annotate --depth 2 --format=json "$GAME"
check "a deeper search is another estimate" 0 '"evaluator":"search depth 2 \+ race estimate \(an estimate\)"' -- cat "$TMP/values2.json"
check "a deeper search gives other chances" 1 "" -- \
  cmp -s <(grep -o '"light_chance":\[[^]]*\]' "$TMP/values.json") <(grep -o '"light_chance":\[[^]]*\]' "$TMP/values2.json")

# --graph: light's chance, one point per ply.
produce "annotate --graph writes the graph" "$TMP/graph-record.tsn" -- "$SCRIBE" annotate --depth 1 --graph "$TMP/chances.svg" "$GAME"
check "the graph is an SVG" 0 "^<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" -- cat "$TMP/chances.svg"
if command -v xmllint >/dev/null; then
  check "the graph is well-formed XML" 0 "" -- xmllint --noout "$TMP/chances.svg"
else
  skip "the graph is well-formed XML" "xmllint is missing (apt-get install libxml2-utils)"
fi
equal "the graph has one point per ply" "$(grep -c 'class="ply"' "$TMP/chances.svg")" "$((actions + 1))"
check "the graph's title says estimate, once" 0 "<title>light's winning chance — search depth 1 \+ race estimate \(an estimate\)</title>" -- cat "$TMP/chances.svg"
check "the graph names the players" 0 "\(Ann against Bo\)" -- cat "$TMP/chances.svg"
check "the graph marks the mistakes" 0 "class=\"mark (doubtful|mistake|blunder) (light|dark)\"" -- cat "$TMP/chances.svg"
check "--graph does not change the record written" 0 "" -- cmp "$TMP/values.tsn" "$TMP/graph-record.tsn"

# --table: exact values from a solved table (scribe solve), for its rules only.
produce "play: a game of two pieces" "$TMP/two.json" -- "$SCRIBE" play --ruleset "finkel(pieces=2)" --seed 4
two_actions=$(grep -o '"roll"' "$TMP/two.json" | wc -l)
check "scribe solve writes a small table" 0 "" -- "$SCRIBE" solve --ruleset "finkel(pieces=2)" --out "$TMP/two.tbl" --quiet
produce "annotate --table" "$TMP/exact.tsn" -- "$SCRIBE" annotate --table "$TMP/two.tbl" "$TMP/two.json"
check "the record says the values are exact" 0 "^\{\[%values exact\] \[%evaluator table finkel\(pieces=2\) [0-9a-f]{16} \(exact\)\]" -- cat "$TMP/exact.tsn"
equal "every action has its exact chance" "$(grep -o '\[%wc [0-9]*\.[0-9]\{3\}\]' "$TMP/exact.tsn" | wc -l)" "$two_actions"
produce "table info of the small table" "$TMP/two.info" -- "$SCRIBE" table info "$TMP/two.tbl"
start=$(sed -n 's/^start *\([0-9.]*\)%.*/\1/p' "$TMP/two.info")
first_wc=$(grep -o '\[%wc [0-9.]*\]' "$TMP/exact.tsn" | head -1 | sed 's/\[%wc \(.*\)\]/\1/')
equal "the first chance is the table's value of the start" "$(printf '%.2f' "$first_wc")" "$(printf '%.2f' "$start")"
check "the exact record is still legal" 0 "exact.tsn: ok" -- "$SCRIBE" validate "$TMP/exact.tsn"
produce "annotate --table of its own output" "$TMP/exact-again.tsn" -- "$SCRIBE" annotate --table "$TMP/two.tbl" "$TMP/exact.tsn"
check "annotating twice with --table changes nothing" 0 "" -- cmp "$TMP/exact.tsn" "$TMP/exact-again.tsn"
produce "annotate --depth 1 then --table" "$TMP/replaced.tsn" -- \
  bash -c 'set -o pipefail; "$0" annotate --depth 1 "$1" | "$0" annotate --table "$2" --from tsn -' "$SCRIBE" "$TMP/two.json" "$TMP/two.tbl"
check "exact values replace an estimate" 0 "" -- cmp "$TMP/exact.tsn" "$TMP/replaced.tsn"
check "JSON says the values are exact" 0 "\"exact\":true" -- "$SCRIBE" annotate --table "$TMP/two.tbl" --format=json "$TMP/two.json"
check "JSON names the table" 0 "\"evaluator\":\"table finkel\(pieces=2\) " -- "$SCRIBE" annotate --table "$TMP/two.tbl" --format=json "$TMP/two.json"
check "annotate --table --graph" 0 "^\{\[%values exact\] " -- "$SCRIBE" annotate --table "$TMP/two.tbl" --graph "$TMP/exact.svg" "$TMP/two.json"
check "the graph's title says exact, once" 0 "<title>light's winning chance — table [^ ]+ [0-9a-f]{16} \(exact\)</title>" -- cat "$TMP/exact.svg"
equal "the exact graph has one point per ply" "$(grep -c 'class="ply"' "$TMP/exact.svg")" "$((two_actions + 1))"
check "a table for other rules is refused" 2 "--table: .*the table is for ruleset [0-9a-f]{16} \(finkel\(pieces=2\)\), not [0-9a-f]{16} \(finkel\)" -- \
  "$SCRIBE" annotate --table "$TMP/two.tbl" "$GAME"
check "a missing table is refused" 2 "--table: .*no such file" -- "$SCRIBE" annotate --table "$TMP/none.tbl" "$TMP/two.json"
echo "not a table" > "$TMP/bad.tbl"
check "a file that is not a table is refused" 2 "--table: .*not a usable Scribe table" -- "$SCRIBE" annotate --table "$TMP/bad.tbl" "$TMP/two.json"
check "--table and --depth together are refused" 2 "^--table excludes --depth$" -- "$SCRIBE" annotate --table "$TMP/two.tbl" --depth 1 "$TMP/two.json"

# Usage errors.
check "--graph needs winning chances" 2 "--graph needs winning chances: --table FILE or --depth N" -- "$SCRIBE" annotate --graph "$TMP/x.svg" "$GAME"
check "--depth out of range is refused" 2 "^--depth: Value 99 not in range 0 to 6$" -- "$SCRIBE" annotate --depth 99 "$GAME"
check "--depth must be a number" 2 "^--depth: Value deep not in range 0 to 6$" -- "$SCRIBE" annotate --depth deep "$GAME"
check "an unwritable graph file is refused" 2 "^scribe: annotate: cannot write $TMP/no/such/dir\.svg: No such file or directory$" -- "$SCRIBE" annotate --depth 1 --graph "$TMP/no/such/dir.svg" "$GAME"
# An illegal record is refused as before.
printf '[TSN "1"]\n[Ruleset "finkel"]\n\n1. L 2:0-3\n' > "$TMP/illegal.tsn"
check "an illegal record is refused with --depth too" 1 "^scribe: annotate: $TMP/illegal\.tsn is not a legal record; nothing written$" -- "$SCRIBE" annotate --depth 1 "$TMP/illegal.tsn"

finish
