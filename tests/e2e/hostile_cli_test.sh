#!/usr/bin/env bash
# The command line against careless and hostile use: outputs that cannot be
# written, inputs of every kind (pipes, /dev/stdin, /dev/zero, a byte order
# mark, an empty file), text from a record that would drive the terminal,
# the progress bar on a terminal, and what the docs promise.
# Usage: hostile_cli_test.sh SCRIBE_BINARY DATA_DIR EXAMPLES_DIR
set -uo pipefail
SCRIBE="$1"
DATA="$2"
EXAMPLES="$3"
HOSTILE="$DATA/hostile"
GAME="$EXAMPLES/finkel-game.json"
source "$(dirname "$0")/cli_check.sh"

# --- Write errors are errors --------------------------------------------------

# full NAME COMMAND ARGS...: `scribe COMMAND ARGS > /dev/full` exits 2 and
# says that standard output could not be written, and why.
full() {
  local name="$1" command="$2"
  shift 2
  check "/dev/full: $name" 2 "^scribe: $command: cannot write standard output: No space left on device$" -- \
    bash -c '"$0" "$@" > /dev/full' "$SCRIBE" "$@"
}
SMALL="finkel(pieces=2)"
"$SCRIBE" solve --ruleset "$SMALL" --out "$TMP/small.tbl" --quiet > "$TMP/solve.log" 2>&1 ||
  { echo "FAIL scribe solve could not make a small table: $(tail -n 5 "$TMP/solve.log")"; failed=$((failed + 1)); }
full "rulesets" rulesets rulesets
full "ruleset show" "ruleset show" ruleset show finkel
full "play" play play --ruleset finkel --seed 3
full "perft" perft perft --ruleset finkel --depth 2
full "validate" validate validate "$GAME"
full "validate --format=json" validate validate --format=json "$GAME"
for to in tsn json rgn royalur-json; do full "convert --to $to" convert convert --to "$to" "$GAME"; done
full "replay" replay replay "$GAME"
full "replay --format=json" replay replay --format=json "$GAME"
full "annotate" annotate annotate "$GAME"
full "annotate --format=json --depth 1" annotate annotate --format=json --depth 1 "$GAME"
full "suggest" suggest suggest --ruleset finkel --roll 2
full "suggest --format json" suggest suggest --ruleset finkel --roll 2 --format json
full "match" match match --ruleset finkel --light random --dark random --games 4
full "match --format json" match match --ruleset finkel --light random --dark random --games 4 --format json
full "solve's report" solve solve --ruleset "$SMALL" --out "$TMP/again.tbl" --quiet
full "table info" "table info" table info "$TMP/small.tbl"
full "--help" help --help
# More than one buffer's worth: the first failed write is the one reported.
full "replay --board, a long output" replay replay --board "$GAME"
check "/dev/full: replay --svg" 2 "^scribe: replay: cannot write /dev/full: No space left on device$" -- \
  "$SCRIBE" replay --svg /dev/full "$GAME"
check "/dev/full: annotate --graph" 2 "^scribe: annotate: cannot write /dev/full: No space left on device$" -- \
  bash -c '"$0" annotate --depth 0 --graph /dev/full "$1" > /dev/null' "$SCRIBE" "$GAME"
check "a file in a folder that does not exist" 2 "^scribe: replay: cannot write $TMP/none/x.svg: No such file" -- \
  "$SCRIBE" replay --svg "$TMP/none/x.svg" "$GAME"
check "what can be written still is" 0 "^winner: light$" -- "$SCRIBE" replay "$GAME"

# --- Inputs people use --------------------------------------------------------

check "- reads standard input" 0 "^-: ok$" -- bash -c '"$0" validate - < "$1"' "$SCRIBE" "$GAME"
check "/dev/stdin from a file" 0 "^/dev/stdin: ok$" -- bash -c '"$0" validate /dev/stdin < "$1"' "$SCRIBE" "$GAME"
check "/dev/stdin from a pipe" 0 "^/dev/stdin: ok$" -- bash -c 'cat "$1" | "$0" validate /dev/stdin' "$SCRIBE" "$GAME"
check "process substitution: validate" 0 "^/dev/fd/[0-9]+: ok$" -- bash -c '"$0" validate <(cat "$1")' "$SCRIBE" "$GAME"
check "process substitution: replay" 0 "^winner: light$" -- bash -c '"$0" replay <(cat "$1")' "$SCRIBE" "$GAME"
check "process substitution: convert" 0 '^\[Ruleset "finkel"\]$' -- \
  bash -c '"$0" convert --to tsn <(cat "$1")' "$SCRIBE" "$GAME"
check "process substitution: annotate" 0 '^\[Ruleset "finkel"\]$' -- bash -c '"$0" annotate <(cat "$1")' "$SCRIBE" "$GAME"
check "a pipe into -: convert" 0 '"ruleset":"finkel"' -- \
  bash -c 'set -o pipefail; "$0" convert --to tsn "$1" | "$0" convert --to json -' "$SCRIBE" "$GAME"
check "/dev/zero hits the size limit" 2 "^scribe: /dev/zero: more than the 536870912 bytes allowed$" -- \
  timeout 120 "$SCRIBE" validate /dev/zero
check "a pipe past the limit is refused" 2 "^scribe: -: more than the 536870912 bytes allowed$" -- \
  timeout 120 bash -c 'head -c 600M /dev/zero | "$0" convert --to json -' "$SCRIBE"
check "a directory is not a file" 2 "is a directory" -- "$SCRIBE" replay "$HOSTILE"

for f in bom.tsn bom.json bom-royalur.json; do
  check "a byte order mark: validate $f" 0 "^.*/$f: ok$" -- "$SCRIBE" validate "$HOSTILE/$f"
  check "a byte order mark: convert $f" 0 '"ruleset":"finkel"' -- "$SCRIBE" convert --to json "$HOSTILE/$f"
  check "a byte order mark: $f on standard input (told by content)" 0 "^-: ok$" -- \
    bash -c '"$0" validate - < "$1"' "$SCRIBE" "$HOSTILE/$f"
done
check "a byte order mark: validate bom.rgn" 0 "bom.rgn: ok$" -- "$SCRIBE" validate --ruleset finkel "$HOSTILE/bom.rgn"
check "a byte order mark: replay bom.rgn" 0 "^winner: " -- "$SCRIBE" replay --ruleset finkel "$HOSTILE/bom.rgn"
check "a byte order mark: bom.rgn on standard input" 0 "^-: ok$" -- \
  bash -c '"$0" validate --ruleset finkel - < "$1"' "$SCRIBE" "$HOSTILE/bom.rgn"
check "a byte order mark: columns count from after it" 1 "bom-finding.tsn:1:20: error\[tsn-syntax\]" -- \
  "$SCRIBE" validate "$HOSTILE/bom-finding.tsn"
check "a byte order mark: the TSN written has none" 0 "" -- \
  bash -c '"$0" convert --to tsn "$1" | cmp - <(tail -c +4 "$1")' "$SCRIBE" "$HOSTILE/bom.tsn"

for command in validate replay convert annotate; do
  args=("$command")
  [ "$command" = convert ] && args+=(--to json)
  check "an empty file: $command says no-records" 1 "empty.tsn: error\[no-records\]: the input holds no record" -- \
    "$SCRIBE" "${args[@]}" "$HOSTILE/empty.tsn"
done
check "empty standard input: replay says no-records" 1 "^-: error\[no-records\]" -- \
  bash -c '"$0" replay - < /dev/null' "$SCRIBE"

# --- The terminal is safe -----------------------------------------------------

# raw NAME EXPECTED_EXIT PATTERN -- COMMAND...: as check, and the output
# (stdout and stderr) holds no control byte but line ends, no DEL and no
# C1 control (raw or as UTF-8).
raw() {
  local name="$1"
  check "$@"
  if LC_ALL=C grep -qaP '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' <<<"$("${@:5}" 2>&1)"; then
    echo "FAIL $name: a control byte reaches the terminal"; failed=$((failed + 1))
  else
    echo "ok   $name: no control byte"; passed=$((passed + 1))
  fi
}
raw "replay: tags are escaped" 0 '^  Light: Ann\\x1b\]0;pwned\\x07\\x1b\[2J$' -- "$SCRIBE" replay "$HOSTILE/escape-tags.tsn"
raw "replay: C1 and DEL are escaped" 0 '^  Dark: Bo\\u009b2J$' -- "$SCRIBE" replay "$HOSTILE/escape-tags.tsn"
raw "replay --board: the same" 0 'Event: Club\\x7fnight' -- "$SCRIBE" replay --board "$HOSTILE/escape-tags.tsn"
raw "validate: a message quoting a tag" 1 'First is "\\x1b\]0;pwned\\x07\\x1b\[2J"' -- \
  "$SCRIBE" validate "$HOSTILE/escape-finding.tsn"
# The ruleset loader quotes the name with C escapes: its backslash is doubled.
raw "validate: a message quoting a JSON string" 1 'unknown ruleset "finkel\\\\x1b' -- \
  "$SCRIBE" validate "$HOSTILE/escape-finding.json"
raw "replay: findings on standard error" 1 'First is "\\x1b' -- "$SCRIBE" replay "$HOSTILE/escape-finding.tsn"
raw "convert: findings on standard error" 1 'First is "\\x1b' -- \
  "$SCRIBE" convert --to json "$HOSTILE/escape-finding.tsn"
raw "annotate: findings on standard error" 1 'First is "\\x1b' -- "$SCRIBE" annotate "$HOSTILE/escape-finding.tsn"
# A backslash in the text is doubled: an escape made for a control byte
# (ESC: \x1b) is never the same as those four characters typed.
raw "replay: a typed \\x1b is not an ESC" 0 '^  Light: Ann\\\\x1b\[2J$' -- "$SCRIBE" replay "$HOSTILE/backslash-tags.tsn"
raw "replay: an ESC is \\x1b" 0 '^  Dark: Bo\\x1b\[2J$' -- "$SCRIBE" replay "$HOSTILE/backslash-tags.tsn"
raw "validate: a message quoting a backslash" 1 'First is "dark\\\\x07"' -- \
  "$SCRIBE" validate "$HOSTILE/backslash-finding.tsn"
RULES="$HOSTILE/escape-ruleset.textproto"
raw "suggest: a ruleset's name" 0 '^evil\\x1b\]0;pwned\\x07\\x1b\[2J  ' -- "$SCRIBE" suggest --ruleset "$RULES" --roll 2
raw "match: a ruleset's name" 0 '^evil\\x1b\]0;pwned\\x07' -- \
  "$SCRIBE" match --ruleset "$RULES" --light random --dark heuristic --games 4
if "$SCRIBE" solve --ruleset "$RULES" --out "$TMP/evil.tbl" --quiet > "$TMP/solve-evil.log" 2>&1; then
  raw "table info: a ruleset's name" 0 '^ruleset +evil\\x1b' -- "$SCRIBE" table info "$TMP/evil.tbl"
else
  echo "FAIL scribe solve could not solve $RULES: $(tail -n 5 "$TMP/solve-evil.log")"; failed=$((failed + 1))
fi
mkdir -p "$TMP/names"
cp "$GAME" "$TMP/names/"$'\e]0;pwned\a'".json"
raw "validate: a file name from a folder" 0 '/names/\\x1b\]0;pwned\\x07\.json: ok$' -- "$SCRIBE" validate "$TMP/names"
check "a record written keeps its text as its format says" 0 '"Light":"Ann\\u001b\]0;pwned\\u0007' -- \
  "$SCRIBE" convert --to json "$HOSTILE/escape-tags.tsn"

# --- The progress bar ends its line before a result ------------------------------
# Under a terminal (script(1)): 25 files, one broken. Every line printed
# while the bar is drawn starts after the bar was cleared.
mkdir -p "$TMP/many"
for i in $(seq -w 1 25); do cp "$GAME" "$TMP/many/g$i.json"; done
echo '{"ruleset":"finkel","actions":[{"roll":2,"from":0,"to":3}]}' > "$TMP/many/g13.json"
script -qec "\"$SCRIBE\" validate \"$TMP/many\"" /dev/null > "$TMP/bar.txt" 2>&1
equal "on a terminal: validate ran, one file broken (exit 1)" "$?" 1
check "on a terminal: the bar is drawn" 0 "" -- grep -qa '25/25 files' "$TMP/bar.txt"
check "on a terminal: the results are printed" 0 "" -- grep -qa 'g13.json: error\[move-roll-mismatch\]' "$TMP/bar.txt"
check "on a terminal: no result shares the bar's line" 1 "" -- grep -qaP 'files(?!\r)' "$TMP/bar.txt"
check "on a terminal: the bar is cleared at the end" 0 "" -- bash -c "tail -c 4 '$TMP/bar.txt' | grep -qaP '\r\e\[K$'"
script -qec "\"$SCRIBE\" validate --format=json \"$TMP/many\"" /dev/null > "$TMP/bar.json" 2>&1
equal "on a terminal: validate --format=json ran (exit 1)" "$?" 1
check "on a terminal: the JSON report starts on a line of its own" 0 "" -- grep -qaP '\r\e\[K\{"files"' "$TMP/bar.json"
mv "$TMP/many/g13.json" "$TMP/many/g13.json.off"
script -qec "\"$SCRIBE\" validate \"$TMP/many\" \"$TMP/many/missing.json\"" /dev/null > "$TMP/bar2.txt" 2>&1
equal "on a terminal: validate with a missing file ran (exit 2)" "$?" 2
check "on a terminal: the missing file is named" 0 "" -- grep -qa 'scribe: .*/missing\.json: cannot open: No such file' "$TMP/bar2.txt"
check "on a terminal: the bar was drawn for the folder" 0 "" -- grep -qa '25/25 files' "$TMP/bar2.txt"
check "on a terminal: an unreadable file's message is not on the bar's line" 1 "" -- \
  grep -qaP 'files(?!\r)' "$TMP/bar2.txt"

# --- The docs are true ----------------------------------------------------------

produce "annotate --depth 1 --graph" /dev/null -- "$SCRIBE" annotate --depth 1 --graph "$TMP/graph.svg" "$GAME"
check "the graph's title says 'estimate' once" 0 \
  "<text[^>]*>light's winning chance \(Ann against Bo\) — search depth 1 \+ race estimate \(an estimate\)</text>" -- \
  cat "$TMP/graph.svg"
check "the graph's title is not '(an estimate) (estimate)'" 1 "" -- grep -q "(estimate)" "$TMP/graph.svg"
echo '{"ruleset":"finkel","start_position":"6:...1..........:0/7:..............:0 D","first_player":"DARK","actions":[{"roll":0}]}' \
  > "$TMP/first.json"
check "TSN writes First beside Position" 0 '^\[First "dark"\]$' -- "$SCRIBE" convert --to tsn "$TMP/first.json"
check "... and reads both back" 0 '"first_player":"DARK".*"start_position"' -- \
  bash -c 'set -o pipefail; "$0" convert --to tsn "$1" | "$0" convert --to json -' "$SCRIBE" "$TMP/first.json"
printf '[Ruleset "finkel"]\n[Event "a]\n[Light "x"]\n\n1. L 3:0-3\n\n[Ruleset "finkel"]\n\n1. L 3:0-3\n' > "$TMP/badtag.tsn"
check "a bad tag that is not the last loses its game only" 1 '^[^ ]*badtag.tsn:2:1: error\[tsn-syntax\].*\(record 0\)$' -- \
  "$SCRIBE" validate "$TMP/badtag.tsn"
equal "... and the rest of its game is no game of its own" 1 \
  "$("$SCRIBE" validate --format=json "$TMP/badtag.tsn" | grep -o '"code"' | wc -l)"

finish
