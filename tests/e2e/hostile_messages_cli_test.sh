#!/usr/bin/env bash
# Messages point at the cause (tests/data/hostile/): a ruleset file that is
# missing or unreadable says so; a wrong Digest tag is found at the tag;
# replay's findings have their line and column as validate's do; a missing
# turn line is one finding in RGN and TSN, not a cascade; numbers are
# quoted as written; converting a legal record under a ruleset file works;
# seeds out of range are refused.
#   hostile_messages_cli_test.sh SCRIBE DATA_DIR EXAMPLES_DIR
set -uo pipefail
SCRIBE="$1"
H="$2/hostile"
EXAMPLES="$3"
GAME="$EXAMPLES/finkel-game.json"
RULESET_FILE="$EXAMPLES/five-piece-tournament.textproto"
source "$(dirname "$0")/cli_check.sh"

# --- A ruleset file that cannot be read ---------------------------------------

for command in "validate" "replay" "annotate" "convert --to tsn"; do
  check "$command --ruleset, a missing file" 2 \
    "^scribe: ruleset: $TMP/none\.textproto: cannot open: No such file or directory$" -- \
    "$SCRIBE" $command --ruleset "$TMP/none.textproto" "$GAME"
done
check "ruleset show, a missing file in this folder" 2 "^scribe: ruleset: \./none\.textproto: cannot open: No such file" -- \
  "$SCRIBE" ruleset show ./none.textproto
check "play --ruleset, a folder" 2 "^scribe: ruleset: $TMP: is a directory$" -- "$SCRIBE" play --ruleset "$TMP"
absent "a missing file is not called an unknown preset" 2 "unknown ruleset" -- \
  "$SCRIBE" validate --ruleset "$TMP/none.textproto" "$GAME"
if [ "$(id -u)" -ne 0 ]; then
  cp "$RULESET_FILE" "$TMP/locked.textproto" && chmod 000 "$TMP/locked.textproto"
  check "--ruleset, an unreadable file" 2 "^scribe: ruleset: $TMP/locked\.textproto: cannot open: Permission denied$" -- \
    "$SCRIBE" validate --ruleset "$TMP/locked.textproto" "$GAME"
else
  skip "--ruleset, an unreadable file" "root reads a file of mode 000; run the test as another user"
fi
check "a preset is still a preset" 0 ": ok$" -- "$SCRIBE" validate --ruleset finkel "$GAME"

# --- Findings where the cause is written --------------------------------------

check "a wrong Digest tag, at the tag" 1 \
  '^.*digest-wrong\.tsn:3:1: error\[ruleset-digest-mismatch\]: the record says the rules have digest 0000000000000000' -- \
  "$SCRIBE" validate "$H/digest-wrong.tsn"
check "replay: a wrong Digest tag, at the tag" 1 'digest-wrong\.tsn:3:1: error\[ruleset-digest-mismatch\]' -- \
  "$SCRIBE" replay "$H/digest-wrong.tsn"
for format in text json; do
  check "replay --format=$format: a finding at its line and column" 1 \
    'illegal-move\.tsn:5:6: error\[move-roll-mismatch\]: dark.s move 0->3 with a throw of 2' -- \
    "$SCRIBE" replay --format=$format "$H/illegal-move.tsn"
done
# The same lines as validate's.
"$SCRIBE" validate "$H/illegal-move.tsn" > "$TMP/validate.out" 2>&1
equal "validate of an illegal move: exit 1" "$?" 1
"$SCRIBE" replay "$H/illegal-move.tsn" 2> "$TMP/replay.err" > /dev/null
equal "replay of an illegal move: exit 1" "$?" 1
check "replay's findings are validate's" 0 'illegal-move\.tsn:5:6: error\[move-roll-mismatch\]' -- \
  bash -c 'cmp "$0" "$1" && cat "$1"' "$TMP/validate.out" "$TMP/replay.err"

# missing NAME FILE PATTERN [ARGS]: exactly one finding, matching PATTERN.
missing() {
  local name="$1" file="$2" pattern="$3"
  shift 3
  check "$name: the finding" 1 "$pattern" -- "$SCRIBE" validate "$@" "$file"
  equal "$name: one finding, no cascade" 1 "$("$SCRIBE" validate "$@" "$file" | grep -c 'error\[')"
}
missing "RGN, a turn line left out" "$H/missing-turn.rgn" \
  'missing-turn\.rgn:6:4: error\[turn-number\]: light.s turn 2 is numbered 3; expected "2\."' --ruleset finkel
missing "TSN, two turn lines left out" "$H/missing-turns.tsn" \
  'missing-turns\.tsn:10:6: error\[turn-number\]: turn 5 follows turn 2; expected 3'

# --- Numbers quoted as written ------------------------------------------------

check "TSN: a 20-digit turn number" 1 \
  'number-turn\.tsn:5:1: error\[tsn-syntax\]: the turn number 99999999999999999999 is too large' -- \
  "$SCRIBE" validate "$H/number-turn.tsn"
check "TSN: a 20-digit square" 1 \
  'number-square\.tsn:4:10: error\[tsn-syntax\]: square 99999999999999999999 is past the end of the path' -- \
  "$SCRIBE" validate "$H/number-square.tsn"
check "TSN: a 23-digit throw" 1 \
  'number-throw\.tsn:4:6: error\[tsn-syntax\]: the throw 99999999999999999999999 is more than any dice give' -- \
  "$SCRIBE" validate "$H/number-throw.tsn"
check "RGN: a 20-digit turn number" 1 \
  'number-turn\.rgn:3:1: error\[rgn-syntax\]: the turn number 99999999999999999999 is too large' -- \
  "$SCRIBE" validate --ruleset finkel "$H/number-turn.rgn"
check "RGN: a 20-digit throw" 1 \
  'number-throw\.rgn:3:4: error\[rgn-syntax\]: the throw 99999999999999999999 is more than any dice give' -- \
  "$SCRIBE" validate --ruleset finkel "$H/number-throw.rgn"
check "RGN: a tile with 11 digits" 1 'number-tile\.rgn:3:6: error\[rgn-move\]: "A99999999999" is not a tile' -- \
  "$SCRIBE" validate --ruleset finkel "$H/number-tile.rgn"
check "JSON: a throw in an exponent" 1 'actions\[0\]\.roll: 1e23 is out of range' -- \
  "$SCRIBE" validate "$H/number-roll.json"
check "JSON: a 20-digit square" 1 'actions\[0\]\.to: 99999999999999999999 is out of range' -- \
  "$SCRIBE" validate "$H/number-square.json"
# 2^64 - 1 is not read as -1.
check "JSON: 2^64 - 1" 1 'actions\[0\]\.roll: 18446744073709551615 is out of range' -- \
  "$SCRIBE" validate "$H/number-uint64.json"
check "RoyalUr JSON: a throw in an exponent" 1 \
  'royalur-number-roll\.json:1:503: error\[royalur-json\]: "states\[1\]\.roll\.value" must be an integer, found number 1e23' -- \
  "$SCRIBE" validate "$H/royalur-number-roll.json"
check "RoyalUr JSON: 2^64 - 1 is not the piece -1" 1 \
  'royalur-number-dest\.json:1:521: error\[royalur-json\]: states\[1\]\.move\.dest must be a piece .*found number 18446744073709551615' -- \
  "$SCRIBE" validate "$H/royalur-number-dest.json"
check "position string: a 20-digit count" 1 \
  'light.s waiting count "99999999999999999999" is not a number from 0 to 15' -- \
  "$SCRIBE" validate "$H/number-position.json"

# --- Converting under a ruleset file ------------------------------------------

produce "play --ruleset FILE" "$TMP/five.json" -- "$SCRIBE" play --ruleset "$RULESET_FILE" --seed 5
check "convert --to tsn --ruleset FILE of a legal record" 0 '^\[Ruleset "five-piece-tournament"\]$' -- \
  "$SCRIBE" convert --to tsn --ruleset "$RULESET_FILE" "$TMP/five.json"
check "convert --to json --ruleset FILE of a legal record" 0 '^\{"ruleset":"five-piece-tournament",' -- \
  "$SCRIBE" convert --to json --ruleset "$RULESET_FILE" "$TMP/five.json"
for to in rgn royalur-json; do
  # RoyalUr cannot express these rules: said so, never "illegal record".
  check "convert --to $to --ruleset FILE: why it cannot" 1 "^scribe: convert: .*RoyalUr" -- \
    "$SCRIBE" convert --to "$to" --ruleset "$RULESET_FILE" "$TMP/five.json"
  absent "convert --to $to --ruleset FILE: never illegal" 1 "[Ii][Ll][Ll][Ee][Gg][Aa][Ll]" -- \
    "$SCRIBE" convert --to "$to" --ruleset "$RULESET_FILE" "$TMP/five.json"
done

# --- Seeds ---------------------------------------------------------------------

for seed in -1 18446744073709551616 99999999999999999999 +5 1e3 ""; do
  for command in play match; do
    extra=()
    [ "$command" = match ] && extra=(--light random --dark random --games 2)
    check "$command --seed '$seed' is refused" 2 \
      "^--seed: \"${seed//+/\\+}\" is not a seed \(a whole number from 0 to 18446744073709551615\)$" -- \
      "$SCRIBE" $command --ruleset finkel "${extra[@]}" --seed "$seed"
  done
done
check "play --seed 18446744073709551615, the largest" 0 '"Seed":"18446744073709551615"' -- \
  "$SCRIBE" play --ruleset finkel --seed 18446744073709551615
check "play --seed 0" 0 '"Seed":"0"' -- "$SCRIBE" play --ruleset finkel --seed 0

finish
