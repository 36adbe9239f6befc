#!/usr/bin/env bash
# Large records stream: `scribe replay` and `scribe annotate` of a legal
# record of 1,000,000 actions write as they go, within 200 MB; running out
# of memory is a message and exit 2, never an uncaught exception; a reader
# that stops reading (`| head`) ends scribe at once and quietly.
# Usage: large_records_cli_test.sh SCRIBE_BINARY
set -uo pipefail
SCRIBE="$1"
source "$(dirname "$0")/cli_check.sh"
BIG="$TMP/big.tsn"
python3 "$(dirname "$0")/large_record.py" --actions 1000000 > "$BIG"
check "the large record is a legal game" 0 "^$BIG: ok$" -- "$SCRIBE" validate "$BIG"

# limited KB COMMAND...: COMMAND under an address space limit of KB kilobytes.
limited() {
  local kb="$1"
  shift
  bash -c 'ulimit -v "$0" && exec "$@"' "$kb" "$@"
}

# --- Within 256 MB of address space (200 MB of memory) -----------------------

for command in replay annotate; do
  out="$TMP/$command.json"
  check "$command --format=json under a 256 MB address limit" 0 "" -- \
    limited 262144 bash -c '"$0" "$1" --format=json "$2" > "$3"' "$SCRIBE" "$command" "$BIG" "$out"
  # The whole of it: every action, and the object closed.
  equal "$command --format=json: every action written" 1000000 "$(grep -o '"index":' "$out" | wc -l)"
  equal "$command --format=json: one object, whole" ']}' "$(tail -c 3 "$out")"
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "$SCRIBE" "$command" --format=json "$BIG" 2> "$TMP/time" > /dev/null
    equal "$command --format=json under /usr/bin/time: exit 0" "$?" 0
    kb="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$TMP/time")"
    check "$command --format=json: peak memory under 200 MB ($kb kB)" 0 "" -- test "$kb" -lt 204800
  else
    skip "$command --format=json: peak memory under 200 MB" "/usr/bin/time is missing (apt-get install time)"
  fi
done
# The last pass, and the position the opening left: light on 2, dark on 9.
last='{"index":999999,"player":"DARK","roll":0,"position":{"light":[6,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0],"dark":[6,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0]}}]}'
equal "replay --format=json: the last action" "$last" "$(tail -c $((${#last} + 1)) "$TMP/replay.json")"
check "replay (text) under a 256 MB address limit" 0 "unfinished: light to throw$" -- \
  limited 262144 bash -c 'set -o pipefail; "$0" replay "$1" | tail -1' "$SCRIBE" "$BIG"

# --- Out of memory is a message ----------------------------------------------

for command in "replay --format=json" "replay" "annotate --format=json" "annotate" "validate" "convert --to json"; do
  check "$command under a 64 MB limit: out of memory, exit 2" 2 \
    "^scribe: out of memory \(the input is too large for the memory allowed\)$" -- \
    limited 65536 bash -c '"$0" $1 "$2" > /dev/null' "$SCRIBE" "$command" "$BIG"
done
absent "nothing uncaught" 2 "terminate" -- \
  limited 65536 bash -c '"$0" replay --format=json "$1" > /dev/null' "$SCRIBE" "$BIG"

# --- A reader that stops reading ---------------------------------------------

# SIGPIPE's default: scribe ends at once (by the signal, 141 in a shell), saying nothing.
for command in "replay --format=json" "replay" "annotate --format=json"; do
  check "$command | head: ends at once, by SIGPIPE, quietly" 0 "^141$" -- \
    timeout 10 bash -c '"$0" $1 "$2" 2> "$3" | head -c 100 > /dev/null; echo "${PIPESTATUS[0]}"; test ! -s "$3"' \
    "$SCRIBE" "$command" "$BIG" "$TMP/err"
  # SIGPIPE ignored (inherited): the write fails with EPIPE, and scribe
  # stops there: exit 2, no message.
  check "$command | head with SIGPIPE ignored: ends at once, exit 2, quietly" 0 "^2$" -- \
    timeout 10 bash -c 'trap "" PIPE; "$0" $1 "$2" 2> "$3" | head -c 100 > /dev/null; echo "${PIPESTATUS[0]}"; test ! -s "$3"' \
    "$SCRIBE" "$command" "$BIG" "$TMP/err"
done

finish
