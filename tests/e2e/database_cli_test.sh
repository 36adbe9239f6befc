#!/usr/bin/env bash
# `scribe db` end to end (docs/database.md), against a SQLite file and a real
# PostgreSQL server this script starts in a folder of its own: the same
# checks on both. Import (summaries, duplicates, illegal records reported as
# `validate` reports them), search (every filter, pages, JSON, records, by
# position), explore, player, export (export, import, export: the same
# bytes; the same bytes as `scribe convert`), hostile names; then faults: a
# file that is not a database, damaged, newer, read-only, locked by another
# writer (SQLite); a server unreachable or stopped mid-import (PostgreSQL);
# kill -9 mid-import, readers during an import, two importers of
# overlapping files at once, importers making a new database at once (both).
# Counts are checked against recounts from the records themselves (grep,
# awk). tests/data gives an illegal record and one with escapes in its tags.
# Without PostgreSQL 15 (/usr/lib/postgresql/15/bin/postgres: the container
# image's build runs the cli tests without it) the PostgreSQL half is skipped
# and the script exits 77.
# Usage: database_cli_test.sh SCRIBE_BINARY EXAMPLES_DIR TEST_DATA_DIR PG_CUT_PROXY
set -uo pipefail
SCRIBE="$1"
EXAMPLES="$2"
DATA="$3"
CUT_PROXY="$4"  # tests/storage/cut_proxy_main.cc
source "$(dirname "$0")/cli_check.sh"
CORPUS="$EXAMPLES/corpus"
# Python for JSON, by its real path: a version manager's shim costs a
# tenth of a second a call, and the checks make some hundreds.
PY="$(python3 -c 'import sys; print(sys.executable)')"
PG_BIN=/usr/lib/postgresql/15/bin

# What this script starts, stopped at exit however it ends: background
# programs (by their ids), the PostgreSQL server, an immutable file.
BACKGROUND=()
PGDIR=""
PGPORT=""
PGPID=""
PGLAUNCHER=""
IMMUTABLE=""
cleanup() {
  local p
  for p in "${BACKGROUND[@]}"; do kill -9 "$p" 2>/dev/null; done
  [ -n "$IMMUTABLE" ] && chattr -i "$IMMUTABLE" 2>/dev/null
  pg_stop
  [ -n "$PGDIR" ] && rm -rf "$PGDIR"
  rm -rf "$TMP"
}
trap cleanup EXIT
# started PID: kept to be killed at exit; finished PID: waited for (its exit
# status is the function's), no longer to be killed.
started() { BACKGROUND+=("$1"); }
finished() {
  local p rest=()
  wait "$1"
  local rc=$?
  for p in "${BACKGROUND[@]}"; do [ "$p" = "$1" ] || rest+=("$p"); done
  BACKGROUND=("${rest[@]}")
  return "$rc"
}

# --- helpers ------------------------------------------------------------

# total DB [FILTERS...]: the total a search answers, or "error: ...".
total() {
  local db="$1" json
  shift
  if json="$("$SCRIBE" db search --db "$db" --per-page 1 --format json "$@" 2>&1)"; then
    "$PY" -c 'import json,sys; print(json.load(sys.stdin)["total"])' <<<"$json" 2>&1
  else
    echo "error: $json"
  fi
}

# rows DB [FILTERS...]: every game a search finds, one line each (light,
# dark, event, date, result, tab-separated), in the order of the search.
rows() {
  local db="$1"
  shift
  "$SCRIBE" db search --db "$db" --per-page 10000 --format json "$@" |
    "$PY" -c '
import json, sys
for g in json.load(sys.stdin)["games"]:
    print("\t".join([g["light"], g["dark"], g["event"], g["date"], g["result"]]))'
}

# index FILE...: the same line for every record of TSN files, read from the
# records' tags (a recount that does not go through Scribe).
index() {
  awk -F'"' '
    /^\[TSN /  { if (n++) print l "\t" d "\t" e "\t" t "\t" r; l = d = e = t = r = "" }
    /^\[Light / { l = $2 } /^\[Dark / { d = $2 } /^\[Event / { e = $2 }
    /^\[Date /  { t = $2 } /^\[Result / { r = $2 }
    END { if (n) print l "\t" d "\t" e "\t" t "\t" r }' "$@"
}

# first_moves: who threw first and the first turn's line, of every corpus
# record.
first_moves() {
  awk -F'"' '
    /^\[TSN / { if (n++) print f "\t" m; f = m = "" }
    /^\[First / { f = $2 }
    /^1\. / { m = $0 }
    END { if (n) print f "\t" m }' "$CORPUS"/*.tsn
}

# record FILE K: the K-th record (from 1) of a TSN file.
record() { awk -v k="$2" '/^\[TSN /{n++} n == k' "$1"; }

# position_after FILE N: the position string (docs/notation.md) after N
# actions of the record, built from `scribe replay --format json`.
position_after() {
  "$SCRIBE" replay --format json "$1" | "$PY" -c '
import json, sys
n = int(sys.argv[1])
actions = json.load(sys.stdin)["actions"]
def side(counts):
    board = "".join("." if c == 0 else "0123456789abcdef"[c] for c in counts[1:-1])
    return "%d:%s:%d" % (counts[0], board, counts[-1])
p = actions[n - 1]["position"]
print(side(p["light"]) + "/" + side(p["dark"]) + " " + ("L" if actions[n]["player"] == "LIGHT" else "D"))' "$2"
}

# summary LINE: the numbers of import's summary line, as
# "records added more known illegal".
summary() {
  sed -nE 's/^([0-9]+) records: ([0-9]+) games added, ([0-9]+) more sources of games already stored, ([0-9]+) already imported, ([0-9]+) illegal \(not stored\).*/\1 \2 \3 \4 \5/p' <<<"$1"
}

# games_committed DB MIN: waits (up to 30 s) until DB's total is MIN or
# more (an import running); prints the last total it saw.
games_committed() {
  local i n=""
  for i in $(seq 1 600); do
    n="$(total "$1")"
    [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge "$2" ] && break
    sleep 0.05
  done
  echo "$n"
}

free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# --- PostgreSQL: a server of our own --------------------------------------

as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# pg_launch: starts the server on $PGPORT with the data in $PGDIR/data (made
# by pg_setup); returns once it accepts connections.
pg_launch() {
  as_postgres "$PG_BIN/postgres" -D "$PGDIR/data" -k "$PGDIR" -p "$PGPORT" -c listen_addresses=127.0.0.1 \
    -c fsync=off -c full_page_writes=off >>"$PGDIR/log" 2>&1 &
  PGLAUNCHER=$!
  local i
  for i in $(seq 1 300); do
    if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PGPORT" && [ -s "$PGDIR/data/postmaster.pid" ]; then
      PGPID="$(head -1 "$PGDIR/data/postmaster.pid")"
      return 0
    fi
    sleep 0.1
  done
  echo "the PostgreSQL server did not start; its log:"; tail -20 "$PGDIR/log"
  return 1
}

# pg_kill SIGNAL: sends the postmaster SIGNAL (QUIT: immediate shutdown, INT:
# fast) and waits until it has gone.
pg_kill() {
  [ -n "$PGPID" ] || return 0
  kill "-$1" "$PGPID" 2>/dev/null
  local i
  for i in $(seq 1 200); do kill -0 "$PGPID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$PGPID" 2>/dev/null && kill -9 "$PGPID" 2>/dev/null
  [ -n "$PGLAUNCHER" ] && wait "$PGLAUNCHER" 2>/dev/null
  PGPID=""
  PGLAUNCHER=""
}
pg_stop() { pg_kill INT; }

pg_setup() {
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "running as root and there is no user postgres to run the server as"; return 1
  fi
  # /tmp, not $TMP: the server's user must reach it.
  PGDIR="$(mktemp -d /tmp/scribe-db-e2e-pg-XXXXXX)" || return 1
  [ "$(id -u)" -eq 0 ] && chown postgres "$PGDIR"
  as_postgres "$PG_BIN/initdb" -D "$PGDIR/data" -A trust -U scribe -E UTF8 --locale=C --no-sync \
    >"$PGDIR/initdb.log" 2>&1 || { echo "initdb failed:"; tail -20 "$PGDIR/initdb.log"; return 1; }
  PGPORT="$(free_port)"
  pg_launch
}

# --- the backends -------------------------------------------------------

BACKEND=""
DBS=0
# new_db: a new, empty database of $BACKEND in NEW_DB: a file name, or the
# URL of a new PostgreSQL database.
NEW_DB=""
new_db() {
  DBS=$((DBS + 1))
  if [ "$BACKEND" = sqlite ]; then
    NEW_DB="$TMP/db$DBS.db"
  else
    NEW_DB="postgresql://scribe@127.0.0.1:$PGPORT/db$DBS"
    "$PG_BIN/psql" -q "postgresql://scribe@127.0.0.1:$PGPORT/postgres" -c "CREATE DATABASE db$DBS" >/dev/null
  fi
}

# --- shared inputs, made once ---------------------------------------------

# The corpus as JSON (the same games, other sources).
mkdir -p "$TMP/json"
for f in "$CORPUS"/*.tsn; do "$SCRIBE" convert --to json "$f" >"$TMP/json/$(basename "$f" .tsn).json"; done
equal "the corpus converted to JSON" "$(ls "$TMP/json" | wc -l)" 3
index "$CORPUS"/*.tsn >"$TMP/index.tsv"
equal "the corpus holds 150 records" "$(wc -l <"$TMP/index.tsv")" 150

# A folder with an illegal record (a throw altered in a copy of a corpus
# record), a legal record after it in the same file, another legal file and
# an illegal one from tests/data.
mkdir -p "$TMP/mixed"
record "$CORPUS/finkel-2026-01.tsn" 1 >"$TMP/mixed/a-good.tsn"
{
  record "$CORPUS/finkel-2026-01.tsn" 2 | sed 's/^1\. L 1:0-1$/1. L 2:0-1/'
  record "$CORPUS/finkel-2026-01.tsn" 3
} >"$TMP/mixed/b-bad.tsn"
cp "$DATA/hostile/illegal-move.tsn" "$TMP/mixed/c-illegal-move.tsn"
{ sed -n 1p "$TMP/index.tsv"; sed -n 3p "$TMP/index.tsv"; } >"$TMP/mixed.tsv"
ran "the mixed folder has two illegal records" 1 "$SCRIBE" validate "$TMP/mixed" &&
  equal "the mixed folder has two illegal records" "$(grep -c 'error\[' <<<"$out")" 2
grep -E '^[^ ]+:[0-9]+:[0-9]+: ' <<<"$out" >"$TMP/validate-findings"

# One game to find by position: the 5th of February's file.
record "$CORPUS/finkel-2026-02.tsn" 5 >"$TMP/pick.tsn"
PICK="$(index "$TMP/pick.tsn")"
DEEP="$(position_after "$TMP/pick.tsn" 40)"
SHALLOW="$(position_after "$TMP/pick.tsn" 8)"
check "a position string from replay" 0 "^[0-9]+:[.0-9a-f]{14}:[0-9]+/[0-9]+:[.0-9a-f]{14}:[0-9]+ [LD]$" -- echo "$DEEP"

# Hostile names (SQL, LIKE's wildcards, and decoys a LIKE would match) as
# Light of five random games no corpus player played. (`play --seed S`
# plays game i with seed S + i: seed 7's games are among seed 5's below,
# which go to other databases.)
"$SCRIBE" play --ruleset finkel --seed 7 --games 5 >"$TMP/five.json" &&
  "$SCRIBE" convert --to tsn "$TMP/five.json" >"$TMP/five.tsn"
HOSTILE=("'); DROP TABLE games;--" "50%" "a_b" "5000" "axb")
awk -v names="$(printf '%s\n' "${HOSTILE[@]}")" '
  BEGIN { split(names, name, "\n") }
  /^\[TSN /  { n++ }
  /^\[Light / { $0 = "[Light \"" name[n] "\"]" }
  { print }' "$TMP/five.tsn" >"$TMP/hostile.tsn"
equal "hostile names written" "$(grep -c '^\[Light' "$TMP/hostile.tsn")" 5

# 20,000 random games for the imports that are stopped and killed.
START=$SECONDS
"$SCRIBE" play --ruleset finkel --seed 1 --games 20000 >"$TMP/big.json" &&
  "$SCRIBE" convert --to tsn "$TMP/big.json" >"$TMP/big.tsn"
rm -f "$TMP/big.json"
equal "20,000 games to import" "$(grep -c '^\[TSN ' "$TMP/big.tsn")" 20000
echo "     (made in $((SECONDS - START)) s)"

# Overlapping files for two importers at once: A, B and C, 1000 games
# each; C's last 10 are games of A again (other sources, the same games).
"$SCRIBE" play --ruleset finkel --seed 5 --games 2990 >"$TMP/abc.json" &&
  "$SCRIBE" convert --to tsn "$TMP/abc.json" >"$TMP/abc.tsn"
awk '/^\[TSN /{n++} n <= 2000' "$TMP/abc.tsn" >"$TMP/AB.tsn"
{
  awk '/^\[TSN /{n++} n > 1000' "$TMP/abc.tsn"
  echo
  awk '/^\[TSN /{n++} n <= 10' "$TMP/abc.tsn"
} >"$TMP/BC.tsn"
# Distinct games: distinct move sections (a record's second paragraph).
DISTINCT="$(cat "$TMP/AB.tsn" <(echo) "$TMP/BC.tsn" |
  awk 'BEGIN { RS = "" } /^\[TSN /{ next } !($0 in seen) { seen[$0]; n++ } END { print n }')"
equal "A∪B∪C: 2990 distinct games in 4000 records" "$DISTINCT $(cat "$TMP/AB.tsn" "$TMP/BC.tsn" | grep -c '^\[TSN ')" "2990 4000"

# --- the checks, on one backend -------------------------------------------

# 1. Import, again, and the same games from other sources.
check_import() {
  local db="$1" b="$BACKEND"
  check "[$b] import the corpus" 0 \
    "^150 records: 150 games added, 0 more sources of games already stored, 0 already imported, 0 illegal \(not stored\)$" \
    -- "$SCRIBE" db import --db "$db" "$CORPUS"
  check "[$b] import it again: nothing added" 0 \
    "^150 records: 0 games added, 0 more sources of games already stored, 150 already imported, 0 illegal \(not stored\)$" \
    -- "$SCRIBE" db import --db "$db" "$CORPUS"
  check "[$b] the same games as JSON: only sources" 0 \
    "^150 records: 0 games added, 150 more sources of games already stored, 0 already imported, 0 illegal \(not stored\)$" \
    -- "$SCRIBE" db import --db "$db" "$TMP/json"
  equal "[$b] 150 games stored" "$(total "$db")" 150
}

# 2. Illegal records: reported as validate reports them, the rest stored.
check_illegal() {
  local db b="$BACKEND"
  new_db; db="$NEW_DB"
  ran "[$b] import a folder with illegal records: exit 1" 1 "$SCRIBE" db import --db "$db" "$TMP/mixed" || return
  grep -E '^[^ ]+:[0-9]+:[0-9]+: ' <<<"$out" >"$TMP/import-findings"
  check "[$b] the illegal records: the summary" 0 \
    "^4 records: 2 games added, 0 more sources of games already stored, 0 already imported, 2 illegal \(not stored\)$" \
    -- echo "$out"
  equal "[$b] the illegal records: the findings are validate's" "$(cat "$TMP/import-findings")" \
    "$(cat "$TMP/validate-findings")"
  equal "[$b] the legal records are stored, the illegal not" "$(rows "$db")" "$(cat "$TMP/mixed.tsv")"
}

# 3. Search.
check_search() {
  local db="$1" b="$BACKEND" n
  # By player, side, event, dates, result: the games a recount finds.
  equal "[$b] --player Ann: as a recount" "$(rows "$db" --player Ann | sort)" \
    "$(awk -F'\t' '$1 == "Ann" || $2 == "Ann"' "$TMP/index.tsv" | sort)"
  equal "[$b] --player Ann: the total" "$(total "$db" --player Ann)" \
    "$(($(cat "$CORPUS"/*.tsn | grep -c '^\[Light "Ann"\]') + $(cat "$CORPUS"/*.tsn | grep -c '^\[Dark "Ann"\]')))"
  equal "[$b] --light Fay: the total" "$(total "$db" --light Fay)" "$(cat "$CORPUS"/*.tsn | grep -c '^\[Light "Fay"\]')"
  equal "[$b] --light Ann --dark Bo" "$(rows "$db" --light Ann --dark Bo | sort)" \
    "$(awk -F'\t' '$1 == "Ann" && $2 == "Bo"' "$TMP/index.tsv" | sort)"
  equal "[$b] --event 'Winter cup'" "$(rows "$db" --event "Winter cup" | sort)" \
    "$(awk -F'\t' '$3 == "Winter cup"' "$TMP/index.tsv" | sort)"
  equal "[$b] --since --until: February's games" "$(rows "$db" --since 2026-02-01 --until 2026-02-28 | sort)" \
    "$(awk -F'\t' '$4 >= "2026-02-01" && $4 <= "2026-02-28"' "$TMP/index.tsv" | sort)"
  equal "[$b] --result light" "$(total "$db" --result light)" "$(cat "$CORPUS"/*.tsn | grep -c '^\[Result "light"\]')"
  equal "[$b] --result dark --player Cy" "$(rows "$db" --result dark --player Cy | sort)" \
    "$(awk -F'\t' '$5 == "dark" && ($1 == "Cy" || $2 == "Cy")' "$TMP/index.tsv" | sort)"
  equal "[$b] --result unfinished: none" "$(total "$db" --result unfinished)" 0
  equal "[$b] --player Nobody: none" "$(total "$db" --player Nobody)" 0
  # Sorted by date, newest first: the dates of a recount, sorted.
  equal "[$b] --sort date --desc" "$(rows "$db" --sort date --desc | cut -f4)" \
    "$(cut -f4 "$TMP/index.tsv" | sort -r)"
  # Pages: 50 games of Ann, 7 a page: 8 pages, the last of 1, together the
  # whole list in order, each saying the total.
  local all pages="" k json
  all="$("$SCRIBE" db search --db "$db" --player Ann --per-page 100 --format json |
    "$PY" -c 'import json,sys; print(" ".join(str(g["id"]) for g in json.load(sys.stdin)["games"]))')"
  for k in 1 2 3 4 5 6 7 8 9; do
    json="$("$SCRIBE" db search --db "$db" --player Ann --page "$k" --per-page 7 --format json)" || {
      pages="$pages error"; break; }
    pages="$pages $("$PY" -c '
import json, sys
j = json.load(sys.stdin)
assert j["total"] == 50 and j["page"] == int(sys.argv[1]) and j["per_page"] == 7, j
print(" ".join(str(g["id"]) for g in j["games"]) or "(empty)")' "$k" <<<"$json" 2>&1)"
  done
  equal "[$b] pages of 7: together the whole list, then an empty page" "$pages" " $(
    "$PY" -c 'import sys; ids = sys.argv[1].split(); print(" ".join(" ".join(ids[i:i + 7]) for i in range(0, 50, 7)) + " (empty)")' "$all")"
  check "[$b] the table says the page's range" 0 "^50 games; page 8: 50-50$" -- \
    "$SCRIBE" db search --db "$db" --player Ann --page 8 --per-page 7
  # JSON parses, with the total.
  json="$("$SCRIBE" db search --db "$db" --event "Ur club league" --format json)"
  equal "[$b] --format json: parses, the total" "$("$PY" -c 'import json,sys; j = json.load(sys.stdin); print(j["total"], len(j["games"]))' <<<"$json" 2>&1)" \
    "$(grep -c '^\[Event "Ur club league"\]' "$CORPUS"/*.tsn | awk -F: '{ n += $2 } END { print n, (n > 50 ? 50 : n) }')"
  # The page as records: valid, and export's games.
  produce "[$b] --records tsn" "$TMP/ann.tsn" -- "$SCRIBE" db search --db "$db" --player Ann --per-page 100 --records tsn
  check "[$b] --records tsn: 50 valid records" 0 "^$TMP/ann.tsn: ok$" -- "$SCRIBE" validate "$TMP/ann.tsn"
  equal "[$b] --records tsn: 50 records" "$(grep -c '^\[TSN ' "$TMP/ann.tsn")" 50
  produce "[$b] export --player Ann" "$TMP/ann-export.tsn" -- "$SCRIBE" db export --db "$db" --player Ann
  check "[$b] --records tsn: the exported games" 0 "" -- cmp "$TMP/ann.tsn" "$TMP/ann-export.tsn"
  # By position: deep in one game (its 40th action), by string and by record.
  ran "[$b] --position (after 40 actions of a game)" 0 "$SCRIBE" db search --db "$db" --position "$DEEP" --format json &&
    equal "[$b] --position: that game, at ply 40" "$("$PY" -c '
import json, sys
j = json.load(sys.stdin)
print(j["total"], *["\t".join([g["light"], g["dark"], g["event"], g["date"], g["result"], str(g["ply"])]) for g in j["games"]])' <<<"$out" 2>&1)" \
      "1 $PICK	40"
  local by_string="$out"
  ran "[$b] --record --after 40" 0 "$SCRIBE" db search --db "$db" --record "$TMP/pick.tsn" --after 40 --format json &&
    equal "[$b] --record --after 40: as --position" "$out" "$by_string"
  check "[$b] --position, as a table: the ply" 0 "^1 game; page 1: 1-1$" -- \
    "$SCRIBE" db search --db "$db" --position "$DEEP"
  check "[$b] --position, as a table: the ply column" 0 "  ply  event$" -- \
    "$SCRIBE" db search --db "$db" --position "$DEEP"
  # Early in the game (after 8 actions): maybe other games too; this one
  # among them, at ply 8 or before.
  ran "[$b] --position (after 8 actions)" 0 "$SCRIBE" db search --db "$db" --position "$SHALLOW" --per-page 10000 --format json &&
    equal "[$b] --position (after 8 actions): the game among them" "$("$PY" -c '
import json, sys
j = json.load(sys.stdin)
hits = ["\t".join([g["light"], g["dark"], g["event"], g["date"], g["result"]]) for g in j["games"] if g["ply"] <= 8]
print(j["total"] == len(j["games"]), sys.argv[1] in hits)' "$PICK" <<<"$out" 2>&1)" "True True"
  check "[$b] --position: a bad string is a clear error" 2 "--position: .*board part has 3 squares" -- \
    "$SCRIBE" db search --db "$db" --position "7:...:0/7:..............:0 L"
}

# 4. Explore.
check_explore() {
  local db="$1" b="$BACKEND"
  # The start, light to move: the games light began, and those dark began
  # with a throw of 0 (a pass); dark to move, the other way round. Together
  # every game, and the moves from each are the games' first moves.
  local light_start dark_start
  light_start="$(first_moves | awk -F'\t' '$1 == "light" || ($1 == "dark" && $2 ~ /^1\. D 0:-( |$)/)' | wc -l)"
  dark_start="$(first_moves | awk -F'\t' '$1 == "dark" || ($1 == "light" && $2 ~ /^1\. L 0:-( |$)/)' | wc -l)"
  equal "[$b] the corpus: every game starts from one of the two" \
    "$([ "$light_start" -gt 100 ] && [ "$dark_start" -gt 20 ] && [ $((light_start + dark_start)) -gt 150 ] && echo yes)" yes
  check "[$b] explore the start: the games that reached it" 0 "^finkel 7:\.{14}:0/7:\.{14}:0 L: $light_start games$" -- \
    "$SCRIBE" db explore --db "$db"
  check "[$b] explore the start, dark to move" 0 "^finkel 7:\.{14}:0/7:\.{14}:0 D: $dark_start games$" -- \
    "$SCRIBE" db explore --db "$db" --position "7:..............:0/7:..............:0 D"
  local p
  for p in "7:..............:0/7:..............:0 L" "7:..............:0/7:..............:0 D" "$SHALLOW"; do
    ran "[$b] explore --format json ($p)" 0 "$SCRIBE" db explore --db "$db" --position "$p" --format json &&
      equal "[$b] explore --format json ($p): the moves' games sum to the games, as many as search finds" \
        "$("$PY" -c 'import json,sys; j = json.load(sys.stdin); print(j["games"], sum(m["games"] for m in j["moves"]))' <<<"$out" 2>&1)" \
        "$(total "$db" --position "$p") $(total "$db" --position "$p")"
  done
  check "[$b] explore a position one game reached: 1 game" 0 ": 1 game$" -- \
    "$SCRIBE" db explore --db "$db" --position "$DEEP"
  ran "[$b] explore --record --after 40" 0 "$SCRIBE" db explore --db "$db" --record "$TMP/pick.tsn" --after 40 --format json &&
    equal "[$b] explore --record --after 40: the position, 1 game, 1 move" \
      "$("$PY" -c 'import json,sys; j = json.load(sys.stdin); print(j["position"], j["games"], len(j["moves"]), j["moves"][0]["games"])' <<<"$out" 2>&1)" \
      "$DEEP 1 1 1"
}

# 5. A player's page.
check_player() {
  local db="$1" b="$BACKEND" games wins lost light
  games="$(awk -F'\t' '$1 == "Ann" || $2 == "Ann"' "$TMP/index.tsv" | wc -l)"
  wins="$(awk -F'\t' '($1 == "Ann" && $5 == "light") || ($2 == "Ann" && $5 == "dark")' "$TMP/index.tsv" | wc -l)"
  lost="$(awk -F'\t' '($1 == "Ann" && $5 == "dark") || ($2 == "Ann" && $5 == "light")' "$TMP/index.tsv" | wc -l)"
  light="$(cat "$CORPUS"/*.tsn | grep -c '^\[Light "Ann"\]')"
  local dates first last months
  dates="$(awk -F'\t' '$1 == "Ann" || $2 == "Ann" { print $4 }' "$TMP/index.tsv" | sort)"
  first="$(head -1 <<<"$dates")"
  last="$(tail -1 <<<"$dates")"
  months="$(cut -c1-7 <<<"$dates" | sort -u | wc -l)"
  rm -f "$TMP/ann.svg"
  check "[$b] player Ann: as a recount" 0 \
    "^Ann: $games games, $wins won, $lost lost, 0 unfinished \($light as light\), $first to $last$" -- \
    "$SCRIBE" db player --db "$db" Ann --svg "$TMP/ann.svg"
  if command -v xmllint >/dev/null; then
    check "[$b] player --svg: well-formed XML" 0 "" -- xmllint --noout "$TMP/ann.svg"
  else
    check "[$b] player --svg: well-formed XML" 0 "" -- "$PY" -c 'import sys, xml.etree.ElementTree as e; e.parse(sys.argv[1])' "$TMP/ann.svg"
  fi
  check "[$b] player --svg: an SVG" 0 "<svg " -- head -c 400 "$TMP/ann.svg"
  ran "[$b] player --format json" 0 "$SCRIBE" db player --db "$db" Ann --format json &&
    equal "[$b] player --format json: the totals" \
      "$("$PY" -c 'import json,sys; j = json.load(sys.stdin); print(j["games"], j["wins"], j["losses"], len(j["ratings"]))' <<<"$out" 2>&1)" \
      "$games $wins $lost $months"
  check "[$b] player: an unknown name" 2 '^scribe: db player: no game of a player named "Nobody" \(names are matched exactly\)$' -- \
    "$SCRIBE" db player --db "$db" Nobody
  check "[$b] player: names are matched exactly" 2 'no game of a player named "ann"' -- \
    "$SCRIBE" db player --db "$db" ann
  # Pages (the browser test drives them; here what the command says).
  check "[$b] pages: Ann's and an unknown player's" 0 "^wrote $TMP/pages-$b/index.html: 1 players, 2 games reviewed$" -- \
    "$SCRIBE" db pages --db "$db" --out "$TMP/pages-$b" --player Ann --player Nobody --games 2 --plies 1
  check "[$b] pages: an unknown player is said, not a page" 0 'no game of a player named "Nobody"; no page' -- \
    "$SCRIBE" db pages --db "$db" --out "$TMP/pages-$b" --player Nobody --games 2 --plies 0
  check "[$b] pages: Ann's page links her games' pages" 0 'href="../games/' -- cat "$TMP/pages-$b/players/Ann.html"
  : >"$TMP/a-file-$b"
  check "[$b] pages: --out under a file" 2 "^scribe: db pages: cannot make $TMP/a-file-$b/x/explorer: " -- \
    "$SCRIBE" db pages --db "$db" --out "$TMP/a-file-$b/x"
}

# 6. Export: the records convert writes; export, import, export: the same.
check_export() {
  local db="$1" b="$BACKEND" again f first=1
  produce "[$b] export everything" "$TMP/export1.tsn" -- "$SCRIBE" db export --db "$db" --to tsn
  # In id order, the corpus's files as convert writes them, a blank line
  # between files.
  for f in "$CORPUS"/*.tsn; do
    [ "$first" ] || echo
    first=""
    "$SCRIBE" convert --to tsn "$f"
  done >"$TMP/converted.tsn"
  check "[$b] export: convert's bytes of every record, in order" 0 "" -- cmp "$TMP/export1.tsn" "$TMP/converted.tsn"
  new_db; again="$NEW_DB"
  check "[$b] the export imported into a new database" 0 "^150 records: 150 games added, " -- \
    "$SCRIBE" db import --db "$again" "$TMP/export1.tsn"
  produce "[$b] export again" "$TMP/export2.tsn" -- "$SCRIBE" db export --db "$again" --to tsn
  check "[$b] export, import, export: the same bytes" 0 "" -- cmp "$TMP/export1.tsn" "$TMP/export2.tsn"
  # A few games found by filters: convert's bytes of those records.
  produce "[$b] export --event 'Winter cup' --light Ann --dark Bo" "$TMP/cup.tsn" -- \
    "$SCRIBE" db export --db "$db" --event "Winter cup" --light Ann --dark Bo
  awk 'BEGIN { RS = ""; ORS = "\n\n" }
       /^\[TSN / { keep = /\[Event "Winter cup"\]/ && /\[Light "Ann"\]/ && /\[Dark "Bo"\]/ }
       keep' "$CORPUS/finkel-2026-02.tsn" >"$TMP/cup-records.tsn"
  "$SCRIBE" convert --to tsn "$TMP/cup-records.tsn" >"$TMP/cup-converted.tsn"
  equal "[$b] export of 2 games found by filters: 2 records" "$(grep -c '^\[TSN ' "$TMP/cup.tsn")" 2
  check "[$b] export of games found by filters: convert's bytes" 0 "" -- cmp "$TMP/cup.tsn" "$TMP/cup-converted.tsn"
  produce "[$b] export --to json" "$TMP/export.json" -- "$SCRIBE" db export --db "$db" --to json
  check "[$b] export --to json: 150 records that validate" 0 "^$TMP/export.json: ok$" -- "$SCRIBE" validate "$TMP/export.json"
}

# 7. Hostile names: bound parameters, no wildcards.
check_hostile() {
  local db="$1" b="$BACKEND" name
  check "[$b] import games with hostile names" 0 "^5 records: 5 games added, " -- \
    "$SCRIBE" db import --db "$db" "$TMP/hostile.tsn"
  for name in "${HOSTILE[@]}"; do
    equal "[$b] --player '$name': that game only" "$(rows "$db" --player "$name" | cut -f1)" "$name"
  done
  equal "[$b] --light '50%': that game only (not 5000)" "$(total "$db" --light "50%")" 1
  equal "[$b] --player '%': none" "$(total "$db" --player "%")" 0
  equal "[$b] --player '_': none" "$(total "$db" --player "_")" 0
  check "[$b] player of the SQL name" 0 "^'\); DROP TABLE games;--: 1 games, " -- \
    "$SCRIBE" db player --db "$db" "'); DROP TABLE games;--"
  equal "[$b] the games table answers afterwards: every game" "$(total "$db")" 155
  # Terminal escapes in names (tests/data/hostile): stored, printed inert.
  check "[$b] import a record with escapes in its tags" 0 "^1 records: 1 games added, " -- \
    "$SCRIBE" db import --db "$db" "$DATA/hostile/escape-tags.tsn"
  absent "[$b] search prints no escape byte" 0 $'[\x1b\x07\x7f]' -- "$SCRIBE" db search --db "$db" --event $'Club\x7fnight'
  check "[$b] search finds it by its event" 0 "^1 game; " -- "$SCRIBE" db search --db "$db" --event $'Club\x7fnight'
  check "[$b] search finds it by its light player" 0 "^1 game; " -- \
    "$SCRIBE" db search --db "$db" --light $'Ann\x1b]0;pwned\x07\x1b[2J'
  equal "[$b] Ann's games: not that one" "$(total "$db" --player Ann)" 50
}

# 10. and 11. kill -9 during an import of 20,000 games in batches of 2000;
# then readers during the import that completes it.
check_kill() {
  local db b="$BACKEND" pid rc n="" i
  new_db; db="$NEW_DB"
  "$SCRIBE" db import --db "$db" --batch 2000 "$TMP/big.tsn" >"$TMP/kill.out" 2>&1 &
  pid=$!
  started "$pid"
  n="$(games_committed "$db" 2000)"
  kill -9 "$pid"
  finished "$pid" 2>/dev/null
  rc=$?
  equal "[$b] kill -9 during an import: killed" "$rc" 137
  n="$(total "$db")"
  equal "[$b] after kill -9: whole batches, some but not all" \
    "$([[ "$n" =~ ^[0-9]+$ ]] && [ $((n % 2000)) -eq 0 ] && [ "$n" -ge 2000 ] && [ "$n" -lt 20000 ] && echo yes || echo "no: $n")" yes
  [[ "$n" =~ ^[0-9]+$ ]] || n=0
  # An import into an empty SQLite database builds the search indexes at
  # its end: killed, it left them to the next import that finishes.
  if [ "$b" = sqlite ] && command -v sqlite3 >/dev/null; then
    equal "[$b] after kill -9: the search indexes left to build" \
      "$(sqlite3 "$db" "SELECT value FROM settings WHERE key = 'search_indexes'"):$(sqlite3 "$db" "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE 'games_by_%'")" \
      "deferred:1"
  fi
  # The same import again, with readers asking meanwhile.
  "$SCRIBE" db import --db "$db" --batch 2000 "$TMP/big.tsn" >"$TMP/again.out" 2>&1 &
  pid=$!
  started "$pid"
  local searches=0 explores=0 failures="" seen t
  while kill -0 "$pid" 2>/dev/null; do
    t="$(total "$db")"
    if [[ "$t" =~ ^[0-9]+$ ]] && [ $((t % 2000)) -eq 0 ]; then
      searches=$((searches + 1))
    else
      failures="$failures search: $t;"
    fi
    if seen="$("$SCRIBE" db explore --db "$db" 2>&1)"; then
      explores=$((explores + 1))
    else
      failures="$failures explore: $seen;"
    fi
  done
  finished "$pid"
  rc=$?
  equal "[$b] the same import again: exit 0" "$rc" 0
  equal "[$b] the same import again: the rest added, the committed already imported" \
    "$(summary "$(cat "$TMP/again.out")")" "20000 $((20000 - n)) 0 $n 0"
  equal "[$b] the same import again: 20,000 games" "$(total "$db")" 20000
  echo "     ($n games were committed when the importer was killed; $searches searches and $explores explores during the import again)"
  equal "[$b] readers during the import: no failure, whole batches" "$failures" ""
  equal "[$b] readers during the import: search and explore answered at least twice" \
    "$([ "$searches" -ge 2 ] && [ "$explores" -ge 2 ] && echo yes || echo "no: $searches searches, $explores explores")" yes
  check "[$b] explore after: 20,000 games" 0 ": 20000 games$" -- "$SCRIBE" db explore --db "$db"
  if [ "$b" = sqlite ] && command -v sqlite3 >/dev/null; then
    equal "[$b] the import that finished built the search indexes" \
      "$(sqlite3 "$db" "SELECT value FROM settings WHERE key = 'search_indexes'"):$(sqlite3 "$db" "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE 'games_by_%'")" \
      "built:8"
  fi
}

# 12. Two importers of overlapping files at once, on a database that holds
# 30 other games (January's corpus).
check_two_importers() {
  local db b="$BACKEND" p1 p2 rc1 rc2 s1 s2
  new_db; db="$NEW_DB"
  check "[$b] two importers at once: the database" 0 "^30 records: 30 games added" -- \
    "$SCRIBE" db import --db "$db" "$CORPUS/finkel-2026-01.tsn"
  "$SCRIBE" db import --db "$db" --batch 100 "$TMP/AB.tsn" >"$TMP/ab.out" 2>&1 &
  p1=$!
  "$SCRIBE" db import --db "$db" --batch 100 "$TMP/BC.tsn" >"$TMP/bc.out" 2>&1 &
  p2=$!
  started "$p1"
  started "$p2"
  finished "$p1"
  rc1=$?
  finished "$p2"
  rc2=$?
  equal "[$b] two importers at once: both exit 0" "$rc1 $rc2" "0 0"
  [ "$rc1$rc2" = 00 ] || { cat "$TMP/ab.out" "$TMP/bc.out" | head -10; }
  s1="$(summary "$(cat "$TMP/ab.out")")"
  s2="$(summary "$(cat "$TMP/bc.out")")"
  echo "     (the importers' summaries: $s1 / $s2)"
  equal "[$b] two importers at once: every distinct game once" "$(total "$db")" "$((DISTINCT + 30))"
  equal "[$b] two importers at once: games added and sources, between them" \
    "$(awk -v a="$s1" -v c="$s2" 'BEGIN { split(a, x, " "); split(c, y, " "); print x[1] + y[1], x[2] + y[2], x[3] + y[3], x[4] + y[4] }')" \
    "4000 $DISTINCT $((4000 - DISTINCT)) 0"
  produce "[$b] two importers at once: export" "$TMP/two.tsn" -- "$SCRIBE" db export --db "$db"
  equal "[$b] two importers at once: no game twice in the export" \
    "$(awk 'BEGIN { RS = "" } /^\[TSN /{ next } { n++; if (!($0 in seen)) { seen[$0]; d++ } } END { print n, d }' "$TMP/two.tsn")" \
    "$((DISTINCT + 30)) $((DISTINCT + 30))"
}

# Importers that make a new database at once take turns too: ROUNDS times,
# four importers of one game start together on a database not yet made.
# Each must end with 0 and the game stored once. (A race here is a matter
# of milliseconds: the rounds are there to meet it.)
check_concurrent_create() {
  local rounds="$1" b="$BACKEND" r k db pids failures="" totals=""
  record "$CORPUS/finkel-2026-01.tsn" 1 >"$TMP/one.tsn"
  for r in $(seq 1 "$rounds"); do
    new_db; db="$NEW_DB"
    pids=()
    for k in 1 2 3 4; do
      "$SCRIBE" db import --db "$db" "$TMP/one.tsn" >"$TMP/create$k.out" 2>&1 &
      pids+=("$!")
      started "$!"
    done
    for k in 1 2 3 4; do
      finished "${pids[$((k - 1))]}" || failures="$failures$(grep '^scribe:' "$TMP/create$k.out" | head -1)
"
    done
    totals="$totals$(total "$db") "
  done
  equal "[$b] four importers making one new database at once, $rounds times: all exit 0" "$failures" ""
  equal "[$b] four importers making one new database at once: the game once each time" "$totals" \
    "$(printf '1 %.0s' $(seq 1 "$rounds"))"
}

backend_checks() {
  BACKEND="$1"
  local main
  new_db || { equal "[$BACKEND] a new database" "failed" "made"; return; }
  main="$NEW_DB"
  timed check_import "$main"
  timed check_illegal
  timed check_search "$main"
  timed check_explore "$main"
  timed check_player "$main"
  timed check_export "$main"
  timed check_hostile "$main"
  timed check_kill
  timed check_two_importers
  if [ "$BACKEND" = sqlite ]; then timed check_concurrent_create 25; else timed check_concurrent_create 5; fi
}

# timed FUNCTION ARGS...: runs it and says how long it took.
timed() {
  local start=$SECONDS
  "$@"
  echo "     ($1: $((SECONDS - start)) s)"
}

# --- 8. SQLite's faults ---------------------------------------------------

# unchanged NAME FILE COPY: FILE has the bytes of COPY.
unchanged() { check "$1: the file is unchanged" 0 "" -- cmp "$2" "$3"; }

sqlite_faults() {
  local real="$TMP/real.db" f
  "$SCRIBE" db import --db "$real" "$CORPUS" >/dev/null
  [ -e "$real-wal" ] && equal "the database closed: no WAL left" "$(stat -c %s "$real-wal")" 0

  echo "plain text, not a database" >"$TMP/text.db"
  cp "$TMP/text.db" "$TMP/text.copy"
  check "[sqlite] a text file: not a database" 2 "^scribe: db import: .*text\.db is not a Scribe game database" -- \
    "$SCRIBE" db import --db "$TMP/text.db" "$CORPUS"
  check "[sqlite] a text file: search says so too" 2 "is not a Scribe game database" -- \
    "$SCRIBE" db search --db "$TMP/text.db"
  unchanged "[sqlite] a text file" "$TMP/text.db" "$TMP/text.copy"

  head -c 65536 /dev/urandom >"$TMP/random.db"
  cp "$TMP/random.db" "$TMP/random.copy"
  check "[sqlite] random bytes: not a database" 2 "is not a Scribe game database" -- \
    "$SCRIBE" db import --db "$TMP/random.db" "$CORPUS"
  unchanged "[sqlite] random bytes" "$TMP/random.db" "$TMP/random.copy"

  head -c "$(($(stat -c %s "$real") / 2))" "$real" >"$TMP/truncated.db"
  cp "$TMP/truncated.db" "$TMP/truncated.copy"
  check "[sqlite] a truncated database: import" 2 "^scribe: db import: .*truncated\.db is not a Scribe game database, or is damaged" -- \
    "$SCRIBE" db import --db "$TMP/truncated.db" "$CORPUS"
  check "[sqlite] a truncated database: search" 2 "^scribe: db search: .*truncated\.db is not a Scribe game database, or is damaged" -- \
    "$SCRIBE" db search --db "$TMP/truncated.db"
  unchanged "[sqlite] a truncated database" "$TMP/truncated.db" "$TMP/truncated.copy"

  if command -v sqlite3 >/dev/null; then
    cp "$real" "$TMP/newer.db"
    sqlite3 "$TMP/newer.db" "PRAGMA user_version = 99;"
    cp "$TMP/newer.db" "$TMP/newer.copy"
    check "[sqlite] a newer schema: import" 2 "newer\.db was made by a newer Scribe \(schema 99, this build reads up to [0-9]+\); upgrade Scribe$" -- \
      "$SCRIBE" db import --db "$TMP/newer.db" "$TMP/hostile.tsn"
    check "[sqlite] a newer schema: search" 2 "made by a newer Scribe" -- "$SCRIBE" db search --db "$TMP/newer.db"
    unchanged "[sqlite] a newer schema" "$TMP/newer.db" "$TMP/newer.copy"
  else
    skip "[sqlite] a newer schema" "no sqlite3 command to set user_version"
  fi

  cp "$real" "$TMP/readonly.db"
  cp "$real" "$TMP/readonly.copy"
  local made_readonly=""
  if [ "$(id -u)" -eq 0 ]; then
    chattr +i "$TMP/readonly.db" 2>"$TMP/chattr.err" && { IMMUTABLE="$TMP/readonly.db"; made_readonly=yes; }
  else
    chmod a-w "$TMP/readonly.db" && made_readonly=yes
  fi
  if [ -n "$made_readonly" ]; then
    check "[sqlite] a read-only database: import" 2 "^scribe: db import: cannot write .*readonly\.db: the file is read-only" -- \
      "$SCRIBE" db import --db "$TMP/readonly.db" "$TMP/hostile.tsn"
    unchanged "[sqlite] a read-only database" "$TMP/readonly.db" "$TMP/readonly.copy"
    [ -n "$IMMUTABLE" ] && chattr -i "$IMMUTABLE" && IMMUTABLE=""
  else
    skip "[sqlite] a read-only database" "chattr +i failed here: $(cat "$TMP/chattr.err" 2>/dev/null)"
  fi

  check "[sqlite] --db in a missing folder" 2 "^scribe: db import: cannot open .*nowhere/games\.db: its folder is not there" -- \
    "$SCRIBE" db import --db "$TMP/nowhere/games.db" "$CORPUS"
  equal "[sqlite] --db in a missing folder: no folder made" "$(ls -d "$TMP/nowhere" 2>/dev/null)" ""
  for f in search explore export; do
    check "[sqlite] db $f of a missing file: import first" 2 \
      "^scribe: db $f: no game database at .*missing\.db; import games first \(scribe db import --db .*missing\.db FILE\)$" -- \
      "$SCRIBE" db "$f" --db "$TMP/missing.db"
  done
  check "[sqlite] db player of a missing file: import first" 2 "no game database at .*missing\.db; import games first" -- \
    "$SCRIBE" db player --db "$TMP/missing.db" Ann
  equal "[sqlite] a missing file: none made" "$(ls "$TMP" | grep missing)" ""

  # Another writer holds the lock: import waits for the busy timeout, then
  # says so; nothing changes.
  if command -v sqlite3 >/dev/null; then
    cp "$real" "$TMP/locked.db"
    mkfifo "$TMP/lock.fifo"
    sqlite3 "$TMP/locked.db" <"$TMP/lock.fifo" >"$TMP/lock.out" 2>&1 &
    local holder=$!
    started "$holder"
    exec 9>"$TMP/lock.fifo"
    printf "BEGIN IMMEDIATE;\nSELECT 'held';\n" >&9
    local i
    for i in $(seq 1 100); do grep -q held "$TMP/lock.out" && break; sleep 0.05; done
    equal "[sqlite] another writer holds the lock" "$(cat "$TMP/lock.out")" held
    local start=$SECONDS
    check "[sqlite] import while another writer holds the lock" 2 \
      "^scribe: db import: SQLite database .*locked\.db is locked by another writer; try again when it finishes" -- \
      "$SCRIBE" db import --db "$TMP/locked.db" "$TMP/hostile.tsn"
    local waited=$((SECONDS - start))
    equal "[sqlite] the import waited for the busy timeout (about 10 s)" \
      "$([ "$waited" -ge 8 ] && [ "$waited" -le 30 ] && echo yes || echo "no: $waited s")" yes
    equal "[sqlite] a reader while the lock is held" "$(total "$TMP/locked.db")" 150
    printf "ROLLBACK;\n" >&9
    exec 9>&-
    finished "$holder"
    equal "[sqlite] after the other writer: as it was" "$(total "$TMP/locked.db")" 150
    check "[sqlite] after the other writer: the import runs" 0 "^5 records: 5 games added, " -- \
      "$SCRIBE" db import --db "$TMP/locked.db" "$TMP/hostile.tsn"
  else
    skip "[sqlite] a lock held by another writer" "no sqlite3 command to hold it"
  fi

  # An import into an empty database builds the search indexes at its end
  # (docs/database.md). Ctrl-C once a batch is committed ends it there:
  # exit 130, the games kept counted, the indexes built.
  local db="$TMP/interrupted.db" pid rc n="" i
  "$SCRIBE" db import --db "$db" --batch 2000 "$TMP/big.tsn" >"$TMP/int.out" 2>"$TMP/int.err" &
  pid=$!
  started "$pid"
  n="$(games_committed "$db" 2000)"
  kill -INT "$pid"
  finished "$pid"
  rc=$?
  equal "[sqlite] Ctrl-C during an import: exit 130" "$rc" 130
  check "[sqlite] Ctrl-C during an import: said" 0 "^scribe: db import: interrupted; the games counted above are kept$" \
    -- cat "$TMP/int.err"
  n="$(total "$db")"
  equal "[sqlite] Ctrl-C during an import: the summary counts what was kept" \
    "$(summary "$(cat "$TMP/int.out")" | cut -d' ' -f2)" "$n"
  command -v sqlite3 >/dev/null &&
    equal "[sqlite] Ctrl-C during an import: the search indexes built" \
      "$(sqlite3 "$db" "SELECT value FROM settings WHERE key = 'search_indexes'")" built

  # The files may grow no more (a file size limit: writes fail as on a
  # full disk) after a few batches of an import into an empty database:
  # the import fails (exit 2), says what it keeps and that the search
  # indexes are left to the next import; a search by player answers
  # without them; the next import completes it and builds them.
  db="$TMP/limited.db"
  ( ulimit -f 12000; trap '' XFSZ; exec "$SCRIBE" db import --db "$db" --batch 2000 "$TMP/big.tsn" ) \
    >"$TMP/limited.out" 2>"$TMP/limited.err"
  equal "[sqlite] files that may not grow: exit 2" "$?" 2
  check "[sqlite] files that may not grow: what is kept, said" 0 \
    "^scribe: db import: cannot read or write .*limited\.db .*; the games counted above are kept, and nothing of a batch not counted; run the same import again to complete it$" \
    -- cat "$TMP/limited.err"
  check "[sqlite] files that may not grow: the indexes left, said" 0 \
    "^scribe: db import: the indexes of searches by player, event and date are not built yet \(the next import that finishes builds them\); until then those searches read every game$" \
    -- cat "$TMP/limited.err"
  n="$(total "$db")"
  equal "[sqlite] files that may not grow: whole batches, some but not all" \
    "$([[ "$n" =~ ^[0-9]+$ ]] && [ $((n % 2000)) -eq 0 ] && [ "$n" -ge 2000 ] && [ "$n" -lt 20000 ] && echo yes || echo "no: $n")" yes
  [[ "$n" =~ ^[0-9]+$ ]] || n=0
  equal "[sqlite] files that may not grow: the summary counts what was kept" \
    "$(summary "$(cat "$TMP/limited.out")" | cut -d' ' -f2)" "$n"
  local first
  first="$(sed -n 's/^\[Light "\(.*\)"\]$/\1/p' "$TMP/big.tsn" | head -1)"
  equal "[sqlite] files that may not grow: a search by player answers without its index" \
    "$(total "$db" --light "$first")" \
    "$(head -n "$(($(grep -n '^\[TSN ' "$TMP/big.tsn" | sed -n "$((n + 1))p" | cut -d: -f1) - 1))" "$TMP/big.tsn" | grep -cxF "[Light \"$first\"]")"
  check "[sqlite] files that may not grow: the same import again completes it" 0 \
    "^20000 records: $((20000 - n)) games added, 0 more sources of games already stored, $n already imported, " -- \
    "$SCRIBE" db import --db "$db" --batch 2000 "$TMP/big.tsn"
  command -v sqlite3 >/dev/null &&
    equal "[sqlite] files that may not grow: the next import built the indexes" \
      "$(sqlite3 "$db" "SELECT value FROM settings WHERE key = 'search_indexes'")" built
}

# --- 9. PostgreSQL's faults -------------------------------------------------

pg_faults() {
  local port start
  port="$(free_port)"
  start=$SECONDS
  check "[postgresql] nothing listening: cannot reach" 2 "^scribe: db import: cannot reach PostgreSQL at 127\.0\.0\.1:$port" -- \
    "$SCRIBE" db import --db "postgresql://scribe@127.0.0.1:$port/games" "$CORPUS"
  check "[postgresql] nothing listening: search says so too" 2 "^scribe: db search: cannot reach PostgreSQL" -- \
    "$SCRIBE" db search --db "postgresql://scribe@127.0.0.1:$port/games"
  equal "[postgresql] nothing listening: quickly" "$([ $((SECONDS - start)) -le 5 ] && echo yes || echo "no: $((SECONDS - start)) s")" yes
  check "[postgresql] a database not made" 2 'no PostgreSQL database at .*nonesuch.*create it first' -- \
    "$SCRIBE" db search --db "postgresql://scribe@127.0.0.1:$PGPORT/nonesuch"
  local empty
  new_db; empty="$NEW_DB"
  check "[postgresql] a database without games: import first" 2 "no game database in PostgreSQL database .*; import games first" -- \
    "$SCRIBE" db search --db "$empty"

  # The server stopped (immediate shutdown) once a batch is committed.
  local db pid rc n="" i
  new_db; db="$NEW_DB"
  "$SCRIBE" db import --db "$db" --batch 2000 "$TMP/big.tsn" >"$TMP/stop.out" 2>"$TMP/stop.err" &
  pid=$!
  started "$pid"
  n="$(games_committed "$db" 2000)"
  pg_kill QUIT
  start=$SECONDS
  finished "$pid"
  rc=$?
  equal "[postgresql] server stopped mid-import: exit 2" "$rc" 2
  # The server may die between taking a batch's COMMIT and answering it:
  # then that batch may or may not be kept, and the importer says so.
  check "[postgresql] server stopped mid-import: the message" 0 \
    "^scribe: db import: lost the connection to PostgreSQL .*; the games counted above are kept(, and nothing of a batch not counted|; the batch whose commit went unanswered \([0-9]+ records, [0-9]+ new games\) may be kept too; nothing of any other batch); run the same import again to complete it$" \
    -- cat "$TMP/stop.err"
  equal "[postgresql] server stopped mid-import: the importer ends promptly" \
    "$([ $((SECONDS - start)) -le 10 ] && echo yes || echo "no: $((SECONDS - start)) s")" yes
  pg_launch || { equal "[postgresql] the server restarts" no yes; return; }
  n="$(total "$db")"
  echo "     ($n games were committed when the server stopped)"
  equal "[postgresql] after the server's restart: whole batches, some but not all" \
    "$([[ "$n" =~ ^[0-9]+$ ]] && [ $((n % 2000)) -eq 0 ] && [ "$n" -lt 20000 ] && echo yes || echo "no: $n")" yes
  [[ "$n" =~ ^[0-9]+$ ]] || n=0
  local counted doubt
  counted="$(summary "$(cat "$TMP/stop.out")" | cut -d' ' -f2)"
  doubt="$(sed -n 's/.*whose commit went unanswered ([0-9]* records, \([0-9]*\) new games).*/\1/p' "$TMP/stop.err")"
  if [ -z "$doubt" ]; then
    equal "[postgresql] server stopped mid-import: the summary counts what was kept" "$counted" "$n"
  else
    echo "     (a batch of $doubt games was in doubt; the summary counted $counted)"
    equal "[postgresql] server stopped mid-import: the summary counts what was kept, or that and the batch in doubt" \
      "$([ "$n" = "$counted" ] || [ "$n" = "$((counted + doubt))" ] && echo yes || echo "no: $counted (+$doubt) counted, $n kept")" yes
  fi
  ran "[postgresql] the same import again" 0 "$SCRIBE" db import --db "$db" --batch 2000 "$TMP/big.tsn" &&
    equal "[postgresql] the same import again: the rest added" "$(summary "$out")" "20000 $((20000 - n)) 0 $n 0"
  equal "[postgresql] the same import again: 20,000 games" "$(total "$db")" 20000

  # The server takes a batch's COMMIT and answers, and the answer is lost
  # on the way (a proxy breaks the connection there, tests/storage/
  # cut_proxy.h): that batch is kept, and the importer cannot know it.
  local proxy pport
  new_db; db="$NEW_DB"
  ran "[postgresql] a commit unanswered: a database first" 0 "$SCRIBE" db import --db "$db" "$CORPUS"
  "$CUT_PROXY" "$PGPORT" after >"$TMP/proxy.port" 2>"$TMP/proxy.err" &
  proxy=$!
  started "$proxy"
  for i in $(seq 1 100); do [ -s "$TMP/proxy.port" ] && break; sleep 0.05; done
  pport="$(head -1 "$TMP/proxy.port")"
  ran "[postgresql] a commit unanswered: exit 2" 2 \
    "$SCRIBE" db import --db "${db/:$PGPORT\//:$pport/}" --batch 2000 "$TMP/big.tsn"
  equal "[postgresql] a commit unanswered: the batch is in doubt, said" \
    "$(grep -Ec "^scribe: db import: lost the connection to PostgreSQL .* while committing, before the server answered: .*; that write may or may not be kept; is the server running\? \(writing the batch of 2000 records from .*big\.tsn record 1\); the games counted above are kept; the batch whose commit went unanswered \(2000 records, 2000 new games\) may be kept too; nothing of any other batch; run the same import again to complete it$" <<<"$out")" 1
  equal "[postgresql] a commit unanswered: the summary counts none" "$(summary "$out" | cut -d' ' -f2-5)" "0 0 0 0"
  kill "$proxy"
  finished "$proxy"
  equal "[postgresql] a commit unanswered: the batch was kept" "$(total "$db")" 2150
  ran "[postgresql] a commit unanswered: the same import again" 0 "$SCRIBE" db import --db "$db" --batch 2000 "$TMP/big.tsn" &&
    equal "[postgresql] a commit unanswered: the same import again adds the rest" "$(summary "$out")" "20000 18000 0 2000 0"
  equal "[postgresql] a commit unanswered: every game once" "$(total "$db")" 20150
}

# --- run ----------------------------------------------------------------

START=$SECONDS
backend_checks sqlite
timed sqlite_faults
echo "     (SQLite: $((SECONDS - START)) s)"

START=$SECONDS
if [ ! -x "$PG_BIN/postgres" ]; then
  skip "[postgresql] every check" "PostgreSQL 15 is not installed (no $PG_BIN/postgres)"
elif ! pg_setup; then
  equal "[postgresql] a server of our own starts" "failed" "started"
else
  backend_checks postgresql
  timed pg_faults
  echo "     (PostgreSQL: $((SECONDS - START)) s)"
fi

finish
