#!/usr/bin/env bash
# Writes the seed corpus of database_fuzz into fuzz/corpus/database_fuzz/
# (fuzz/make_corpus.sh calls it; it also runs alone): requests for each
# method of the game database's service, serialized with protoc --encode
# and prefixed with the method's byte (fuzz/database_fuzz.cc: 0
# ImportGames, 1 ListGames, 2 GetGame, 3 ExplorePosition, 4 GetPlayer), an
# import stream of several messages, strings that are not UTF-8, one
# request in text format, and garbage. Deterministic (fixed seeds).
#
#   fuzz/make_database_corpus.sh path/to/scribe
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "make_database_corpus.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")/.."
scribe="$(realpath "${1:?usage: fuzz/make_database_corpus.sh path/to/scribe}")"
export ASAN_OPTIONS=detect_leaks=0
out=fuzz/corpus/database_fuzz
rm -rf "$out"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# A protobuf text-format string literal of a file's bytes.
quoted() { python3 -c 'import sys; d = sys.stdin.buffer.read(); print("\"" + "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else "\\%03o" % b for b in d) + "\"")' <"$1"; }
encode() { protoc -I proto --encode="scribe.v1.$1" proto/scribe/v1/game_database.proto; }
# seed NAME METHOD_BYTE MESSAGE < text-format request
seed() {
  { printf "\\x$(printf '%02x' "$2")"; encode "$3"; } >"$out/$1"
}

"$scribe" play --ruleset finkel --seed 1 >"$tmp/a.json"
"$scribe" convert --to tsn "$tmp/a.json" >"$tmp/a.tsn"
"$scribe" play --ruleset finkel --seed 2 >"$tmp/b.json"
tsn="$(quoted "$tmp/a.tsn")"
json="$(quoted "$tmp/b.json")"

seed import-tsn 0 ImportGamesRequest <<<"input { text: $tsn } source: \"club/1\""
seed import-json-no-source 0 ImportGamesRequest <<<"input { text: $json }"
# A stream: three messages split at "\n--\n" (the target's reading), the
# second a string that is not UTF-8 (a Latin-1 source name).
{
  printf '\x00'
  encode ImportGamesRequest <<<"input { text: $tsn } source: \"s/1\""
  printf '\n--\n'
  encode ImportGamesRequest <<<"input { text: $json } source: \"Jos\\351\""
  printf '\n--\n'
  encode ImportGamesRequest <<<"input { text: \"not a record\" } source: \"s/3\""
} >"$out/import-stream"
seed list-player 1 ListGamesRequest <<<'filter { player: "player1" } page_size: 3'
seed list-position 1 ListGamesRequest \
  <<<'filter { ruleset { reference: "finkel" } position: "7:..............:0/7:..............:0 L" } order: GAME_ORDER_DATE descending: true'
seed list-latin1 1 ListGamesRequest <<<'filter { player: "Jos\351" event: "Caf\351" }'
seed list-token 1 ListGamesRequest <<<'page_size: 2 page_token: "bm90IGEgdG9rZW4"'
seed get-tsn 2 GetGameRequest <<<'id: 1 format: RECORD_FORMAT_TSN tile_names: true'
seed get-missing 2 GetGameRequest <<<'id: 999999'
seed explore-start 3 ExplorePositionRequest <<<'ruleset { reference: "finkel" }'
seed explore-position 3 ExplorePositionRequest \
  <<<'ruleset { reference: "finkel" } position: "6:...1..........:0/7:..............:0 D"'
seed player 4 GetPlayerRequest <<<'name: "player1"'
seed player-latin1 4 GetPlayerRequest <<<'name: "Jos\351"'
# The same kind of request in text format (sent serialized by the target).
printf '\x01filter { player: "player2" } page_size: 1' >"$out/list-text-format"
# Garbage for each method.
python3 - "$out" <<'PY'
import random, sys
rng = random.Random(20261204)
for method in range(5):
    data = bytes([method]) + bytes(rng.randrange(256) for _ in range(rng.choice([8, 40, 200])))
    open(f"{sys.argv[1]}/garbage-{method}", "wb").write(data)
PY
echo "database_fuzz: $(find "$out" -type f | wc -l) seeds in $out"
