#!/usr/bin/env bash
# End-to-end tests of RoyalUr's solved tables (.rgu) on the command line
# (docs/analysis.md, "RoyalUr's tables"): `scribe table info`, `table
# import`, `table export`, and an .rgu given directly to suggest, annotate
# and match, and to scribed --table.
# Usage: rgu_cli_test.sh SCRIBE_BINARY TEST_DATA_DIR [SCRIBED_BINARY]
set -uo pipefail
SCRIBE="$1"
LUT="$2/royalur-lut"
SCRIBED="${3:-}"
source "$(dirname "$0")/cli_check.sh"

F2="$LUT/finkel-2p.rgu"
B2="$LUT/blitz-2p.rgu"
SMALL="finkel(pieces=2)"
SPOS="1:...1..........:0/1:......1.......:0 L"

# --- table info ----------------------------------------------------------------
check "info .rgu: the rules of its settings" 0 "^ruleset +finkel\(pieces=2\)$" -- "$SCRIBE" table info "$F2"
check "info .rgu: blitz's settings named as blitz" 0 "^ruleset +blitz\(pieces=2\)$" -- "$SCRIBE" table info "$B2"
check "info .rgu: no preset has these rules" 0 "^preset +none$" -- "$SCRIBE" table info "$F2"
check "info .rgu: its source" 0 "^source +RoyalUr's trainer \(a RoyalUr table, read as it is\)$" -- \
  "$SCRIBE" table info "$F2"
check "info .rgu: its format" 0 "^format +RoyalUr \.rgu, version 0, percent16 values$" -- "$SCRIBE" table info "$F2"
check "info .rgu: its precision (RoyalUr's training precision)" 0 \
  "^precision +percent16 .*residual of 9\.92e-07$" -- "$SCRIBE" table info "$F2"
check "info .rgu: positions and entries" 0 "^entries +12990$" -- "$SCRIBE" table info "$F2"
check "info .rgu: positions" 0 "^positions +12869$" -- "$SCRIBE" table info "$F2"
check "info .rgu: the start value of RoyalUr's README" 0 "^start +51\.857[0-9]%" -- "$SCRIBE" table info "$F2"
check "info .rgu: blitz's start value" 0 "^start +50\.502[0-9]%" -- "$SCRIBE" table info "$B2"

# --- import --------------------------------------------------------------------
check "import: a RoyalUr table as ours" 0 "^positions +12869 \(of the file's 12990 entries\)$" -- \
  "$SCRIBE" table import "$F2" --out "$TMP/f2.tbl"
check "import: info says where the values come from" 0 \
  "^source +RoyalUr's trainer \(imported from a RoyalUr table, \.rgu\)$" -- "$SCRIBE" table info "$TMP/f2.tbl"
check "import: info says its format" 0 "^format +Scribe table, version 1$" -- "$SCRIBE" table info "$TMP/f2.tbl"
check "import: a table for other rules is refused naming both" 2 \
  "the table is for ruleset [0-9a-f]{16} \(finkel\(pieces=2\): .*not [0-9a-f]{16} \(blitz\(pieces=2\)\)" -- \
  "$SCRIBE" table import "$F2" --ruleset "blitz(pieces=2)" --out "$TMP/no.tbl"
check "import: nothing written when refused" 1 "" -- test -e "$TMP/no.tbl"
check "import: a Scribe table is not an .rgu" 2 "not a usable RoyalUr table \(\.rgu\): wrong magic" -- \
  "$SCRIBE" table import "$TMP/f2.tbl" --out "$TMP/no.tbl"
head -c 5000 "$F2" > "$TMP/cut.rgu"
check "import: a truncated .rgu" 2 "scribe: table: .*cut\.rgu: not a usable RoyalUr table .*truncated\?" -- \
  "$SCRIBE" table import "$TMP/cut.rgu" --out "$TMP/no.tbl"
check "import: a missing file" 2 "^scribe: table: $TMP/none\.rgu: no such file" -- "$SCRIBE" table import "$TMP/none.rgu" --out "$TMP/no.tbl"
check "import: --out is required" 2 "^--out is required$" -- "$SCRIBE" table import "$F2"

# --- export --------------------------------------------------------------------
check "solve: a small table to export" 0 "" -- "$SCRIBE" solve --ruleset "$SMALL" --out "$TMP/solved.tbl" --quiet
check "export: a solved table as an .rgu" 0 "^entries +12990 \(12869 positions\)$" -- \
  "$SCRIBE" table export "$TMP/solved.tbl" --to rgu --out "$TMP/solved.rgu"
check "export: the file starts RGU" 0 "^RGU" -- head -c 3 "$TMP/solved.rgu"
check "export: info says it was solved here" 0 "^source +solved by Scribe, exported as an \.rgu$" -- \
  "$SCRIBE" table info "$TMP/solved.rgu"
check "import: the exported .rgu" 0 "^positions +12869 " -- "$SCRIBE" table import "$TMP/solved.rgu" --out "$TMP/back.tbl"
check "export then import: byte for byte the table solved" 0 "" -- cmp "$TMP/solved.tbl" "$TMP/back.tbl"
check "export: the imported table" 0 "^entries +12990 \(12869 positions\)$" -- \
  "$SCRIBE" table export "$TMP/f2.tbl" --to rgu --out "$TMP/f2-again.rgu"
# The maps (after the metadata) are RoyalUr's own, byte for byte.
maps_of() {
  local n
  n=$(od -An -tu1 -j4 -N4 "$1" | awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4}')
  tail -c +$((n + 9)) "$1"
}
maps_of "$F2" > "$TMP/maps-a"
maps_of "$TMP/f2-again.rgu" > "$TMP/maps-b"
check "import then export: RoyalUr's keys and values unchanged" 0 "" -- cmp "$TMP/maps-a" "$TMP/maps-b"
check "import then export: the maps are the file's last bytes" 0 "" -- test "$(wc -c < "$TMP/maps-a")" -gt 70000
check "export: only to rgu" 2 "^--to: json not in \{rgu\}$" -- "$SCRIBE" table export "$TMP/solved.tbl" --to json --out "$TMP/x"
check "solve: rules RoyalUr cannot express" 0 "" -- \
  "$SCRIBE" solve --ruleset "finkel(pieces=2,safe_squares=[4])" --out "$TMP/odd.tbl" --quiet
check "export: rules RoyalUr cannot express" 2 "scribe: table: RoyalUr cannot express" -- \
  "$SCRIBE" table export "$TMP/odd.tbl" --to rgu --out "$TMP/odd.rgu"

# --- an .rgu wherever a table is accepted ------------------------------------
check "suggest --table x.rgu: exact values" 0 "light's winning chances: table finkel\(pieces=2\) .*\(exact\)" -- \
  "$SCRIBE" suggest --ruleset "$SMALL" --roll 2 --position "$SPOS" --table "$F2"
produce "suggest --table x.rgu" "$TMP/suggest-a" -- "$SCRIBE" suggest --ruleset "$SMALL" --roll 2 --position "$SPOS" --table "$F2"
produce "suggest --table, its import" "$TMP/suggest-b" -- \
  "$SCRIBE" suggest --ruleset "$SMALL" --roll 2 --position "$SPOS" --table "$TMP/f2.tbl"
check "suggest: the .rgu and its import give the same answer" 0 "" -- cmp "$TMP/suggest-a" "$TMP/suggest-b"
cp "$F2" "$TMP/named-like-ours.tbl"
produce "suggest --table, an .rgu named .tbl" "$TMP/suggest-c" -- \
  "$SCRIBE" suggest --ruleset "$SMALL" --roll 2 --position "$SPOS" --table "$TMP/named-like-ours.tbl"
check "suggest: the format is the file's, not its name's" 0 "" -- cmp "$TMP/suggest-a" "$TMP/suggest-c"
check "suggest --table x.rgu: other rules refused naming both" 2 \
  "scribe: suggest: --table: .*the table is for ruleset [0-9a-f]{16} .*not [0-9a-f]{16} \(finkel\)" -- \
  "$SCRIBE" suggest --ruleset finkel --roll 2 --table "$F2"
check "suggest --table: a damaged .rgu" 2 "scribe: suggest: --table: .*not a usable RoyalUr table" -- \
  "$SCRIBE" suggest --ruleset "$SMALL" --roll 2 --table "$TMP/cut.rgu"
produce "play: a game of the small rules" "$TMP/game.json" -- "$SCRIBE" play --ruleset "$SMALL" --seed 3
produce "annotate --table x.rgu" "$TMP/annotate-a" -- "$SCRIBE" annotate --table "$F2" "$TMP/game.json"
produce "annotate --table, its import" "$TMP/annotate-b" -- "$SCRIBE" annotate --table "$TMP/f2.tbl" "$TMP/game.json"
check "annotate --table x.rgu: exact values from RoyalUr's table" 0 \
  "^\{\[%values exact\] \[%evaluator table finkel\(pieces=2\) cd13479f5e16f09a \(exact\)\]" -- cat "$TMP/annotate-a"
check "annotate --table x.rgu: the chance before the first throw is the start's" 0 "^1\. L .*\[%wc 51\.85[0-9]\]" -- \
  cat "$TMP/annotate-a"
check "annotate: the .rgu and its import give the same annotation" 0 "" -- cmp "$TMP/annotate-a" "$TMP/annotate-b"
check "match --table x.rgu: perfect plays" 0 "^light perfect .* wins" -- \
  "$SCRIBE" match --ruleset "$SMALL" --light perfect --dark random --games 100 --table "$F2"

# --- scribed --table x.rgu -----------------------------------------------------
if [ -n "$SCRIBED" ]; then
  check "scribed: a damaged .rgu stops the start, named" 2 \
    "ERROR scribed: --table .*cut\.rgu: not a usable RoyalUr table \(\.rgu\): .*truncated\?" -- \
    timeout 20 "$SCRIBED" --listen 127.0.0.1:0 --table "$TMP/cut.rgu"
  "$SCRIBED" --listen 127.0.0.1:0 --table "$F2" > "$TMP/scribed.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q "serving on" "$TMP/scribed.log" && break; sleep 0.1; done
  kill "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  check "scribed: an .rgu loaded as it is" 0 \
    "INFO scribed: table .*finkel-2p\.rgu: ruleset finkel\(pieces=2\), digest cd13479f5e16f09a, 12869 positions" -- \
    cat "$TMP/scribed.log"
  check "scribed: exact values for its ruleset" 0 "exact values for 1 ruleset" -- cat "$TMP/scribed.log"
fi

finish
