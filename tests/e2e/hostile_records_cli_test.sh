#!/usr/bin/env bash
# Record text the command line must never change or drop silently, and
# JSON keys given twice (tests/data/hostile/): each is a finding at its line
# and column, and convert, replay and annotate refuse the record.
#   hostile_records_cli_test.sh SCRIBE DATA_DIR
set -uo pipefail
SCRIBE="$1"
H="$2/hostile"
source "$(dirname "$0")/cli_check.sh"

# Bytes that are not UTF-8: a finding at the byte, in every reader.
check latin1-tsn-tag 1 'latin1-tag\.tsn:2:12: error\[text-not-utf8\]: the tag.s value is not UTF-8 text: byte 0xe9' \
  -- "$SCRIBE" validate "$H/latin1-tag.tsn"
check latin1-tsn-comment 1 'latin1-comment\.tsn:3:14: error\[text-not-utf8\]' -- "$SCRIBE" validate "$H/latin1-comment.tsn"
check latin1-rgn-tag 1 'latin1-tag\.rgn:1:12: error\[text-not-utf8\]' \
  -- "$SCRIBE" validate --ruleset finkel "$H/latin1-tag.rgn"
check latin1-json 1 'latin1-tag\.json:1:41: error\[text-not-utf8\]' -- "$SCRIBE" validate "$H/latin1-tag.json"
check latin1-royalur-json 1 'royalur-latin1-metadata\.json:1:[0-9]+: error\[text-not-utf8\]' \
  -- "$SCRIBE" validate "$H/royalur-latin1-metadata.json"
# Converting refuses the record instead of writing it without the byte.
for to in json tsn rgn royalur-json; do
  check "latin1-convert-$to" 1 'text-not-utf8' -- "$SCRIBE" convert --to "$to" "$H/latin1-tag.tsn"
  "$SCRIBE" convert --to "$to" "$H/latin1-tag.tsn" > "$TMP/latin1.out" 2> /dev/null
  equal "latin1-convert-$to-refused" "$?" 1
  equal "latin1-convert-$to-writes-nothing" "" "$(cat "$TMP/latin1.out")"
done
check latin1-replay 1 'text-not-utf8' -- "$SCRIBE" replay "$H/latin1-comment.tsn"
check latin1-annotate 1 'text-not-utf8' -- "$SCRIBE" annotate "$H/latin1-comment.tsn"
# UTF-8 text is carried exactly.
printf '[Ruleset "finkel"]\n[Event "Caf\xc3\xa9"]\n\n1. L 0:-\n' > "$TMP/utf8.tsn"
check utf8-carried 0 '"Event":"Caf'$'\xc3\xa9''"' -- "$SCRIBE" convert --to json "$TMP/utf8.tsn"

# Keys given twice: a finding at the second key.
check duplicate-actions 1 'duplicate-actions\.json:1:60: error\[json-duplicate-key\]: the key "actions" is given twice' \
  -- "$SCRIBE" validate "$H/duplicate-actions.json"
check duplicate-roll 1 'duplicate-roll\.json:1:42: error\[json-duplicate-key\]' -- "$SCRIBE" validate "$H/duplicate-roll.json"
check duplicate-tag 1 'duplicate-tag\.json:2:44: error\[json-duplicate-key\]: the key "Light".* \(record 1\)' \
  -- "$SCRIBE" validate "$H/duplicate-tag.json"
check duplicate-convert 1 'json-duplicate-key' -- "$SCRIBE" convert --to tsn "$H/duplicate-actions.json"
for f in metadata settings state game; do
  check "royalur-duplicate-$f" 1 "royalur-duplicate-$f\.json:1:[0-9]+: error\[json-duplicate-key\]" \
    -- "$SCRIBE" validate "$H/royalur-duplicate-$f.json"
done
check duplicate-json-report 1 '"code":"json-duplicate-key","message":"the key \\"actions\\" is given twice' \
  -- "$SCRIBE" validate --format=json "$H/duplicate-actions.json"

finish
