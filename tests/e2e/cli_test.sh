#!/usr/bin/env bash
# End-to-end tests of the scribe command as a user runs it: output and exit
# codes. Usage: cli_test.sh SCRIBE_BINARY DATA_DIR EXAMPLES_DIR
set -uo pipefail
SCRIBE="$1"
DATA="$2"
EXAMPLES="$3"
source "$(dirname "$0")/cli_check.sh"

check "rulesets lists every preset" 0 "sawah-tablet \(alias aseb\)" -- "$SCRIBE" rulesets
for p in finkel finkel-blank4 masters blitz sawah sawah-tablet sawah-marks turnover murray skiriuk; do
  check "rulesets lists $p" 0 "^$p " -- "$SCRIBE" rulesets
done
check "ruleset show prints the digest" 0 "^# digest: [0-9a-f]{16}$" -- "$SCRIBE" ruleset show finkel
check "ruleset show prints every parameter" 0 "^safe_shared: false$" -- "$SCRIBE" ruleset show finkel
check "ruleset show with overrides" 0 "^pieces: 5$" -- "$SCRIBE" ruleset show "finkel(pieces=5,capture_extra_roll=true)"
check "an alias has its preset's parameters" 0 "^pieces: 5$" -- "$SCRIBE" ruleset show aseb
check "unknown ruleset is refused" 2 "unknown ruleset" -- "$SCRIBE" ruleset show no-such-rules
check "tablet-betting is declined with the reason" 2 "not a complete ruleset" -- "$SCRIBE" ruleset show tablet-betting
check "a bad override lists every problem" 2 "pieces: 0 is out of range" -- "$SCRIBE" ruleset show "finkel(pieces=0,foo=1)"
check "a bad override names the unknown key" 2 "unknown key \"foo\"" -- "$SCRIBE" ruleset show "finkel(pieces=0,foo=1)"

# A ruleset file of the user's own, with a base.
cat > "$TMP/five.textproto" <<'RULES'
base: "finkel"
id: "five"
pieces: 5
capture_extra_roll: true
RULES
check "a ruleset file loads" 0 "^capture_extra_roll: true$" -- "$SCRIBE" ruleset show "$TMP/five.textproto"
printf 'base: "finkel"\npeices: 5\nboard: BOARD_MARS\n' > "$TMP/bad.textproto"
check "a broken ruleset file names the line" 2 "line 2:1: unknown key \"peices\"" -- "$SCRIBE" ruleset show "$TMP/bad.textproto"

# play: legal, deterministic, every preset.
for p in finkel finkel-blank4 masters blitz sawah sawah-tablet sawah-marks turnover murray skiriuk; do
  produce "play $p" "$TMP/$p.json" -- "$SCRIBE" play --ruleset "$p" --seed 11
  check "play $p gives a valid record" 0 ": ok$" -- "$SCRIBE" validate "$TMP/$p.json"
  check "play $p gives a finished game" 0 "\"winner\":\"(LIGHT|DARK)\"" -- "$SCRIBE" replay --format=json "$TMP/$p.json"
done
produce "play --seed 5" "$TMP/a.json" -- "$SCRIBE" play --ruleset finkel --seed 5
produce "play --seed 5 again" "$TMP/b.json" -- "$SCRIBE" play --ruleset finkel --seed 5
produce "play --seed 6" "$TMP/c.json" -- "$SCRIBE" play --ruleset finkel --seed 6
check "the same seed gives the same game" 0 "" -- cmp "$TMP/a.json" "$TMP/b.json"
check "another seed gives another game" 1 "" -- cmp -s "$TMP/a.json" "$TMP/c.json"
check "play writes from 0 for an entering piece" 0 "\"from\":0" -- cat "$TMP/a.json"
check "turnover play carries its throw-off" 0 "\"opening\":\[\{\"light\":" -- cat "$TMP/turnover.json"

# replay
check "replay text says who won" 0 "^winner: (light|dark)$" -- "$SCRIBE" replay "$EXAMPLES/finkel-game.json"
check "replay json has every field" 0 "\"index\":0,\"player\":\"LIGHT\",\"roll\":[0-4],\"legal\":" -- "$SCRIBE" replay --format=json "$EXAMPLES/finkel-game.json"
check "replay json gives positions" 0 "\"position\":\{\"light\":\[" -- "$SCRIBE" replay --format=json "$EXAMPLES/finkel-game.json"

# validate: exit codes and findings
check "the example is valid" 0 "finkel-game.json: ok" -- "$SCRIBE" validate "$EXAMPLES/finkel-game.json"
echo '{"ruleset": "finkel", "actions": [{"roll": 2, "from": 0, "to": 3}]}' > "$TMP/wrong.json"
check "a wrong move is a finding with its action" 1 "error\[move-roll-mismatch\].*expected one of 0->2.*action 0" -- "$SCRIBE" validate "$TMP/wrong.json"
echo '{"ruleset": "finkel", "actions": [{"roll": 2}]}' > "$TMP/pass.json"
check "a pass with a legal move is a finding" 1 "error\[pass-with-legal-move\]" -- "$SCRIBE" validate "$TMP/pass.json"
printf '{"ruleset": "finkel",\n "actions": [\n' > "$TMP/truncated.json"
check "a truncated file is a finding with line and column" 1 "truncated.json:3:1: error\[json-syntax\]" -- "$SCRIBE" validate "$TMP/truncated.json"
printf '\x00\xff garbage' > "$TMP/garbage.json"
check "garbage is a finding, not a crash" 1 "error\[json-syntax\]" -- "$SCRIBE" validate "$TMP/garbage.json"
echo '[{"ruleset": "finkel", "actions": []}, 42, {"ruleset": "nope"}]' > "$TMP/array.json"
check "an array: each bad record is found" 1 "error\[not-a-record\].*record 1" -- "$SCRIBE" validate "$TMP/array.json"
check "an array: the unknown ruleset too" 1 "error\[ruleset-unknown\].*record 2" -- "$SCRIBE" validate "$TMP/array.json"
check "validate json output" 1 "^\{\"files\":\[\{\"file\":\".*wrong.json\",\"valid\":false,\"findings\":\[\{\"action_index\":0,\"code\":\"move-roll-mismatch\"" -- "$SCRIBE" validate --format=json "$TMP/wrong.json"
check "valid json output says valid" 0 "\"valid\":true" -- "$SCRIBE" validate --format=json "$EXAMPLES/finkel-game.json"
check "a missing file is exit 2" 2 "cannot open" -- "$SCRIBE" validate "$TMP/does-not-exist.json"
check "a directory: every record file in it is judged" 1 "wrong.json: error\[move-roll-mismatch\]" -- "$SCRIBE" validate "$TMP"
check "a directory: the good files too" 1 "a.json: ok" -- "$SCRIBE" validate "$TMP"
check "no file is a usage error" 2 "^FILE is required$" -- "$SCRIBE" validate
check "an unknown command is a usage error" 2 "^A subcommand is required$" -- "$SCRIBE" frobnicate
check "validate under a ruleset file" 0 ": ok$" -- "$SCRIBE" validate --ruleset finkel "$EXAMPLES/finkel-game.json"

# TSN: conversion both ways, canonical output, validation with positions
produce "convert --to tsn" "$TMP/game.tsn" -- "$SCRIBE" convert --to tsn "$EXAMPLES/finkel-game.json"
check "convert to TSN writes the tags" 0 "^\[Ruleset \"finkel\"\]$" -- cat "$TMP/game.tsn"
check "convert to TSN writes one turn per line" 0 "^3\. L [0-9]:[0-9]+-[0-9]+\* [0-9]:" -- cat "$TMP/game.tsn"
check "a TSN record validates" 0 "game.tsn: ok" -- "$SCRIBE" validate "$TMP/game.tsn"
produce "convert --to tsn of TSN" "$TMP/again.tsn" -- "$SCRIBE" convert --to tsn "$TMP/game.tsn"
check "TSN written from TSN is the same bytes" 0 "" -- cmp "$TMP/game.tsn" "$TMP/again.tsn"
produce "convert --to json of TSN" "$TMP/back.json" -- "$SCRIBE" convert --to json "$TMP/game.tsn"
produce "convert --to json of JSON" "$TMP/direct.json" -- "$SCRIBE" convert --to json "$EXAMPLES/finkel-game.json"
check "convert --to json writes the record" 0 '^\{"ruleset":"finkel",.*"actions":\[\{"roll":' -- cat "$TMP/direct.json"
check "JSON -> TSN -> JSON loses nothing" 0 "" -- cmp "$TMP/back.json" "$TMP/direct.json"
produce "convert --to tsn --tiles" "$TMP/tiles.tsn" -- "$SCRIBE" convert --to tsn --tiles "$EXAMPLES/finkel-game.json"
check "TSN with tile names" 0 "^1\. L [0-9]:@-A[1-4]" -- cat "$TMP/tiles.tsn"
produce "convert --to json of tile names" "$TMP/tiles.json" -- "$SCRIBE" convert --to json "$TMP/tiles.tsn"
check "tile names read back to the same record" 0 "" -- cmp "$TMP/tiles.json" "$TMP/direct.json"
sed 's/^2\. D/2. L/' "$TMP/game.tsn" > "$TMP/side.tsn"
check "a turn written for the wrong side: line and column" 1 "side.tsn:9:1: error\[wrong-side\]|side.tsn:9:[0-9]+: error\[wrong-side\]" -- "$SCRIBE" validate "$TMP/side.tsn"
printf '[Ruleset "finkel"]\n\n1. L 3:0-3\n2. D 2:0-5\n' > "$TMP/bad-move.tsn"
check "an illegal TSN move: line, column, expected moves" 1 "bad-move.tsn:4:6: error\[move-roll-mismatch\].*expected one of 0->2" -- "$SCRIBE" validate "$TMP/bad-move.tsn"
printf '[Ruleset "finkel"]\n\n1. L 3:0-3\n2. D 2 0-5\n\n[Ruleset "finkel"]\n\n1. L 3:0-3\n' > "$TMP/two.tsn"
check "a syntax error skips to the next game" 1 "two.tsn:4:7: error\[tsn-syntax\].*record 0" -- "$SCRIBE" validate "$TMP/two.tsn"
check "convert refuses an illegal record" 1 "nothing written" -- "$SCRIBE" convert --to json "$TMP/bad-move.tsn"

# annotate: what every move did and how it ranks, as TSN or JSON
produce "annotate" "$TMP/annotated.tsn" -- "$SCRIBE" annotate "$EXAMPLES/finkel-game.json"
check "annotate writes TSN with annotations" 0 "^1\. L [0-9]:0-[0-9]+ \{\[%did entered" -- cat "$TMP/annotated.tsn"
check "annotate gives every move its rank and the race" 0 "\[%rank [0-9]+/[0-9]+\].*\[%race [0-9]+-[0-9]+\]" -- cat "$TMP/annotated.tsn"
check "annotated TSN is still a legal record" 0 "annotated.tsn: ok" -- "$SCRIBE" validate "$TMP/annotated.tsn"
produce "convert --to json of annotated TSN" "$TMP/annotated.json" -- "$SCRIBE" convert --to json "$TMP/annotated.tsn"
sed 's/,"comment":"[^"]*"//g' "$TMP/annotated.json" > "$TMP/annotated-moves.json"
check "annotated TSN keeps the moves" 0 "" -- cmp "$TMP/annotated-moves.json" "$TMP/direct.json"
produce "annotate of annotated TSN" "$TMP/annotated-again.tsn" -- "$SCRIBE" annotate "$TMP/annotated.tsn"
check "annotating twice changes nothing" 0 "" -- cmp "$TMP/annotated.tsn" "$TMP/annotated-again.tsn"
check "annotate --tiles writes tile names" 0 "^1\. L [0-9]:@-A[1-4] \{" -- "$SCRIBE" annotate --tiles "$EXAMPLES/finkel-game.json"
check "annotate json" 0 "^\{\"ruleset\":\"finkel\",\"ruleset_digest\":\"[0-9a-f]{16}\",\"first_player\":\"LIGHT\",\"start_race_light\":105" -- "$SCRIBE" annotate --format=json "$EXAMPLES/finkel-game.json"
check "annotate json says what a move did" 0 "\"did\":\[\"entered\",\"forced\"\],\"captured\":0,\"alternatives\":1,\"rank\":1" -- "$SCRIBE" annotate --format=json "$EXAMPLES/finkel-game.json"
check "annotate marks captures" 0 "\"did\":\[\"captured\"" -- "$SCRIBE" annotate --format=json "$TMP/finkel.json"
check "annotate turnover says placed" 0 "\[%did [a-z,-]*placed" -- "$SCRIBE" annotate "$TMP/turnover.json"
check "annotate reads TSN" 0 "\"actions\":\[\{\"index\":0" -- "$SCRIBE" annotate --format=json "$TMP/game.tsn"
check "annotate refuses an illegal record" 1 "nothing written" -- "$SCRIBE" annotate "$TMP/bad-move.tsn"
check "annotate with --ruleset" 0 "\[%race" -- "$SCRIBE" annotate --ruleset finkel "$EXAMPLES/finkel-game.json"
check "annotate rejects an unknown format" 2 "^--format: xml not in \{tsn,json\}$" -- "$SCRIBE" annotate --format=xml "$EXAMPLES/finkel-game.json"

# replay --board and --svg
check "replay --board draws the start" 0 "^A \| \* \|   \|   \|   \|       \| \* \|   \|   light  waiting 7  off 0$" -- "$SCRIBE" replay --board "$EXAMPLES/finkel-game.json"
check "replay --board draws after every action" 0 "^dark to throw$" -- "$SCRIBE" replay --board "$EXAMPLES/finkel-game.json"
boards=$("$SCRIBE" replay --board "$EXAMPLES/finkel-game.json" | grep -c '^B |')
actions=$("$SCRIBE" replay --format=json "$EXAMPLES/finkel-game.json" | grep -o '"index":' | wc -l)
check "replay --board: one board per action and the start" 0 "" -- test "$boards" -eq $((actions + 1))
produce "replay --format=json" "$TMP/replay-plain.json" -- "$SCRIBE" replay --format=json "$EXAMPLES/finkel-game.json"
produce "replay --format=json --svg" "$TMP/replay-svg.json" -- \
  "$SCRIBE" replay --format=json --svg "$TMP/final.svg" "$EXAMPLES/finkel-game.json"
check "replay --format=json is unchanged by --svg" 0 "" -- cmp "$TMP/replay-plain.json" "$TMP/replay-svg.json"
check "replay --svg writes an SVG" 0 "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" -- cat "$TMP/final.svg"
check "the SVG has five rosettes" 0 "^5$" -- grep -c 'class="rosette"' "$TMP/final.svg"
if command -v xmllint >/dev/null; then
  check "the SVG is well-formed XML" 0 "" -- xmllint --noout "$TMP/final.svg"
else
  skip "the SVG is well-formed XML" "xmllint is missing (apt-get install libxml2-utils)"
fi
produce "replay --svg --at 0" /dev/null -- "$SCRIBE" replay --svg "$TMP/start.svg" --at 0 "$EXAMPLES/finkel-game.json"
check "replay --svg --at 0 draws the start" 0 "the start, light to throw" -- cat "$TMP/start.svg"
check "the start has every piece waiting" 0 "^14$" -- grep -c 'class="piece [a-z]* waiting"' "$TMP/start.svg"
produce "replay --svg --at 3" /dev/null -- "$SCRIBE" replay --svg "$TMP/three.svg" --at 3 "$EXAMPLES/finkel-game.json"
check "replay --svg --at 3" 0 "after 3 actions" -- cat "$TMP/three.svg"
check "replay --at past the end is refused" 2 "the record has [0-9]+ actions" -- "$SCRIBE" replay --svg "$TMP/x.svg" --at 100000 "$EXAMPLES/finkel-game.json"
check "replay --at needs --svg" 2 "^--at requires --svg$" -- "$SCRIBE" replay --at 3 "$EXAMPLES/finkel-game.json"
produce "replay --svg of turnover" /dev/null -- "$SCRIBE" replay --svg "$TMP/turnover.svg" "$TMP/turnover.json"
check "turnover's SVG explains turned-over pieces" 0 "five dots are turned over" -- cat "$TMP/turnover.svg"

# perft
check "perft depth 0 is 1" 0 "^1$" -- "$SCRIBE" perft --ruleset finkel --depth 0
check "perft depth 1 counts one branch per roll value" 0 "^5$" -- "$SCRIBE" perft --ruleset finkel --depth 1

finish
