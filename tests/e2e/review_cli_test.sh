#!/usr/bin/env bash
# scribe review as its users run it (docs/review.md): one game as a report,
# as JSON and as a page; a collection with a bad file in it; exact figures
# from a table, estimates from a search, and what is refused.
#   tests/e2e/review_cli_test.sh path/to/scribe
set -uo pipefail
SCRIBE="$1"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$(dirname "$0")/cli_check.sh"

GAME="$ROOT/examples/finkel-game.json"
check "one game: a report, estimates by default" 0 "Luck-adjusted result" -- "$SCRIBE" review "$GAME"
check "the report says the figures are estimates" 0 "Players \(estimate\)" -- "$SCRIBE" review "$GAME"
check "the report names the players" 0 "Ann \(light\) against Bo \(dark\)" -- "$SCRIBE" review "$GAME"
check "the report has key moves with boards" 0 "best .* lost [0-9.]+ points" -- "$SCRIBE" review "$GAME"
check "the report counts throws against their expectation" 0 "Throws of 2 \(expected\) +29 \(28.9\)" -- \
  "$SCRIBE" review "$GAME"

# Exact figures from a table of a small ruleset.
TWO="finkel(pieces=2)"
check "solve: a small table" 0 "" -- "$SCRIBE" solve --ruleset "$TWO" --out "$TMP/two.tbl" --quiet
for seed in 1 2 3; do produce "play --seed $seed" "$TMP/g$seed.json" -- "$SCRIBE" play --ruleset "$TWO" --seed "$seed"; done
produce "play --games 3" "$TMP/three.json" -- "$SCRIBE" play --ruleset "$TWO" --seed 1 --games 3
equal "play --games 3: an array of the games of seeds 1, 2, 3" "$(python3 -c '
import json, sys
games = json.load(open(sys.argv[1]))
print(len(games), all(games[k] == json.load(open(sys.argv[2 + k])) for k in range(3)))' \
  "$TMP/three.json" "$TMP/g1.json" "$TMP/g2.json" "$TMP/g3.json")" "3 True"
check "with a table: exact" 0 "exact, from a solved table" -- "$SCRIBE" review "$TMP/g1.json" --table "$TMP/two.tbl"
produce "review --format=json with a table" "$TMP/g1.review.json" -- \
  "$SCRIBE" review "$TMP/g1.json" --table "$TMP/two.tbl" --format=json
equal "json: exact and both players" "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
ok = r["exact"] is True and r["light"]["player"] == "LIGHT" and r["dark"]["player"] == "DARK"
ok = ok and 0 <= r["light"]["accuracy"] <= 100 and 0 <= r["dark"]["accuracy"] <= 100
# the luck identity of exact chances
for me, them in (("light", "dark"), ("dark", "light")):
    p = r[me]
    adjusted = p["result"] - (p.get("luck", 0) - r[them].get("luck", 0))
    ok = ok and abs(adjusted - p["luck_adjusted_result"]) < 1e-9
print(ok)' "$TMP/g1.review.json")" "True"
check "with RoyalUr's own table (.rgu): exact" 0 "exact, from a solved table" -- \
  "$SCRIBE" review "$TMP/g1.json" --table "$ROOT/tests/data/royalur-lut/finkel-2p.rgu"
check "a table of other rules is refused, both named" 2 "finkel\(pieces=2\).*finkel|finkel.*finkel\(pieces=2\)" -- \
  "$SCRIBE" review "$GAME" --table "$TMP/two.tbl"
check "--table and --depth exclude each other" 2 "^--table excludes --depth$" -- \
  "$SCRIBE" review "$GAME" --table "$TMP/two.tbl" --depth 1

# One page.
check "one game: a page, and the report" 0 "^Review: Ann \(light\) against Bo \(dark\), finkel, 151 actions, light won$" -- \
  "$SCRIBE" review "$GAME" --html "$TMP/page.html"
equal "the page has one move per action" "$(grep -Eo '<li data-ply="[0-9]+" class="(light|dark) ' "$TMP/page.html" | wc -l)" \
  "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["actions"]))' "$GAME")"
absent "the page fetches nothing" 0 '(src|href)="https?:' -- cat "$TMP/page.html"

# A collection: three games, one bad file; the bad one reported where it is
# wrong, the rest reviewed.
mkdir -p "$TMP/club"
cp "$TMP/g1.json" "$TMP/g2.json" "$TMP/g3.json" "$TMP/club/"
printf '[Ruleset "finkel"]\n\n1. L 4:0-4 D 9:0-9\n' >"$TMP/club/bad.tsn"
check "a collection: the bad file is reported at its line and column" 1 "bad.tsn:3:[0-9]+: error" -- \
  "$SCRIBE" review "$TMP/club" --table "$TMP/two.tbl"
check "a collection: the others are reviewed" 1 "3 games reviewed" -- "$SCRIBE" review "$TMP/club" --table "$TMP/two.tbl"
check "a collection: a players' table" 1 "player +games +wins +accuracy" -- \
  "$SCRIBE" review "$TMP/club" --table "$TMP/two.tbl"
"$SCRIBE" review "$TMP/club" --table "$TMP/two.tbl" --html "$TMP/site" --format=json >"$TMP/club.json" 2>/dev/null
equal "a collection with a bad file, as pages and JSON: exit 1" "$?" 1
equal "a collection: an index and one page per game" "$(ls "$TMP/site" | sort | tr '\n' ' ')" \
  "g1.html g2.html g3.html index.html "
equal "the index links every page" "$(grep -o 'href="g[0-9].html"' "$TMP/site/index.html" | sort -u | wc -l)" "3"
equal "json: the games and the players" "$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
games = c["games"]
wins = sum(p.get("wins", 0) for p in c["players"])
print(len(games), sum(p["games"] for p in c["players"]), wins)' "$TMP/club.json")" "3 6 3"

# One file of three records is a collection too: a page per record.
produce "a file of records as pages" /dev/null -- "$SCRIBE" review "$TMP/three.json" --table "$TMP/two.tbl" --html "$TMP/three-site"
equal "a file of records: a page per record, numbered" "$(ls "$TMP/three-site" | sort | tr '\n' ' ')" \
  "index.html three-1.html three-2.html three-3.html "
check "a file of records: each named by its number" 0 "three.json#3" -- \
  "$SCRIBE" review "$TMP/three.json" --table "$TMP/two.tbl"

# Refusals.
: >"$TMP/empty.json"
check "an empty file: nothing to review" 1 "^scribe: review: no legal record to review$" -- "$SCRIBE" review "$TMP/empty.json"
check "a missing file" 2 "^scribe: $TMP/missing\.json: cannot open: No such file or directory$" -- "$SCRIBE" review "$TMP/missing.json"
finish
