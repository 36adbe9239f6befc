#!/usr/bin/env bash
# Writes the seed corpus of service_fuzz into fuzz/corpus/service_fuzz/
# (fuzz/make_corpus.sh calls it; it also runs alone): a request for each
# method of the service, serialized with protoc --encode and prefixed with
# the method's byte (fuzz/service_fuzz.cc: 0 ValidateRecord, 1
# ValidateRecords, 2 AnnotateRecord, 3 ReplayRecord, 4 ConvertRecord, 5
# ListRulesets, 6 GetRuleset, 7 ListLegalMoves, 8 MakeMove, 9
# SuggestMoves), one in text format, and garbage. Deterministic (fixed
# seeds).
#
#   fuzz/make_service_corpus.sh path/to/scribe
set -euo pipefail
cd "$(dirname "$0")/.."
scribe="$(realpath "${1:?usage: fuzz/make_service_corpus.sh path/to/scribe}")"
export ASAN_OPTIONS=detect_leaks=0
out=fuzz/corpus/service_fuzz
rm -rf "$out"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# A protobuf text-format string literal of a file's bytes.
quoted() { python3 -c 'import sys; d = sys.stdin.buffer.read(); print("\"" + "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else "\\%03o" % b for b in d) + "\"")' <"$1"; }

# seed NAME METHOD_BYTE MESSAGE < text-format request
seed() {
  { printf "\\x$(printf '%02x' "$2")"
    protoc -I proto --encode="scribe.v1.$3" proto/scribe/v1/scribe_service.proto; } >"$out/$1"
}

# Short games: the service in the fuzzer takes at most 12 KiB of record text.
"$scribe" play --ruleset finkel --seed 1 >"$tmp/finkel.json"
"$scribe" convert --to tsn "$tmp/finkel.json" >"$tmp/finkel.tsn"
"$scribe" play --ruleset blitz --seed 1 >"$tmp/blitz.json"
"$scribe" convert --to tsn "$tmp/blitz.json" >"$tmp/blitz.tsn"
"$scribe" convert --to rgn "$tmp/blitz.json" >"$tmp/blitz.rgn"
"$scribe" convert --to royalur-json "$tmp/blitz.json" >"$tmp/blitz-royalur.json"
# finkel(pieces=2): the rules of the table the fuzzed service has loaded.
"$scribe" play --ruleset 'finkel(pieces=2)' --seed 1 >"$tmp/finkel2.json"
"$scribe" convert --to tsn "$tmp/finkel2.json" >"$tmp/finkel2.tsn"
tsn="$(quoted "$tmp/finkel.tsn")"
json="$(quoted "$tmp/blitz.json")"

seed validate-tsn 0 ValidateRecordRequest <<<"input { text: $tsn }"
seed validate-json 0 ValidateRecordRequest <<<"input { text: $json format: RECORD_FORMAT_JSON }"
seed validate-rgn 0 ValidateRecordRequest \
  <<<"input { text: $(quoted "$tmp/blitz.rgn") ruleset { reference: \"blitz\" } }"
seed validate-royalur-json 0 ValidateRecordRequest <<<"input { text: $(quoted "$tmp/blitz-royalur.json") }"
seed validate-structured 0 ValidateRecordRequest <<<'input { record { ruleset: "finkel" tags { key: "Light" value: "Ann" } actions { roll: 2 from: 0 to: 2 } actions { roll: 0 } actions { roll: 4 from: 2 to: 6 } } }'
seed validate-illegal 0 ValidateRecordRequest <<<'input { text: "[Ruleset \"finkel\"]\n\n1. L 3:0-3\n2. D 2:0-5\n" }'
seed validate-inline-ruleset 0 ValidateRecordRequest \
  <<<"input { text: $json ruleset { text: \"base: \\\"blitz\\\"\\npieces: 5\\n\" } }"
seed stream-tsn 1 ValidateRecordsRequest <<<"id: \"g1\" input { text: $tsn }"
seed stream-garbage 1 ValidateRecordsRequest <<<'id: "g2" input { text: "garbage \001" }'
seed annotate-tsn 2 AnnotateRecordRequest <<<"input { text: $(quoted "$tmp/blitz.tsn") } text_format: RECORD_FORMAT_TSN"
seed annotate-json 2 AnnotateRecordRequest <<<"input { text: $json } text_format: RECORD_FORMAT_JSON"
seed annotate-exact 2 AnnotateRecordRequest \
  <<<"input { text: $(quoted "$tmp/finkel2.tsn") } text_format: RECORD_FORMAT_TSN winning_chances { mode: EVALUATION_MODE_EXACT }"
seed annotate-search 2 AnnotateRecordRequest <<<"input { text: $json } winning_chances { depth: 1 }"
seed replay-json 3 ReplayRecordRequest <<<"input { text: $json }"
seed convert-rgn 4 ConvertRecordRequest <<<"input { text: $json } to: RECORD_FORMAT_RGN tile_names: true"
seed convert-royalur 4 ConvertRecordRequest <<<"input { text: $(quoted "$tmp/blitz.tsn") } to: RECORD_FORMAT_ROYALUR_JSON"
seed convert-tsn 4 ConvertRecordRequest <<<"input { text: $tsn } to: RECORD_FORMAT_TSN tile_names: true"
seed list-rulesets 5 ListRulesetsRequest <<<'page_size: 3 page_token: "3"'
seed get-preset 6 GetRulesetRequest <<<'ruleset { reference: "finkel(pieces=5,capture_extra_roll=true)" }'
seed get-unknown 6 GetRulesetRequest <<<'ruleset { reference: "nonesuch" }'
seed get-text 6 GetRulesetRequest <<<"ruleset { text: $(quoted examples/five-piece-tournament.textproto) }"
seed legal-moves-start 7 ListLegalMovesRequest <<<'ruleset { reference: "finkel" } roll: 2'
seed legal-moves-mid 7 ListLegalMovesRequest \
  <<<'ruleset { reference: "finkel" } position: "5:...1...1.....:1/6:.......1......:0 D" roll: 3'
seed legal-moves-stack 7 ListLegalMovesRequest <<<'ruleset { reference: "murray" } roll: 4'
seed make-move 8 MakeMoveRequest <<<'ruleset { reference: "finkel" } roll: 4 move { from: 0 to: 4 }'
seed make-move-pass 8 MakeMoveRequest <<<'ruleset { reference: "sawah" } roll: 0'
seed make-move-illegal 8 MakeMoveRequest <<<'ruleset { reference: "blitz" } roll: 2 move { from: 3 to: 5 }'
seed suggest-search 9 SuggestMovesRequest <<<'ruleset { reference: "finkel" } roll: 2 strength: "search:1"'
seed suggest-table 9 SuggestMovesRequest \
  <<<'ruleset { reference: "finkel(pieces=2)" } position: "1:...1..........:0/2:..............:0 D" roll: 3 strength: "perfect"'
seed suggest-exact-missing 9 SuggestMovesRequest \
  <<<'ruleset { reference: "blitz" } roll: 2 evaluation { mode: EVALUATION_MODE_EXACT }'
seed suggest-random 9 SuggestMovesRequest \
  <<<'ruleset { reference: "sawah" } roll: 2 strength: "random" seed: 7 evaluation { mode: EVALUATION_MODE_SEARCH depth: 0 }'
# The same request in text format (the target's second reading).
printf '\x00input { text: "[Ruleset \\"finkel\\"]\\n\\n1. L 3:0-3\\n" }' >"$out/validate-text-format"
# Garbage for a few methods.
python3 - "$out" <<'PY'
import random, sys
rng = random.Random(20261129)
for n, method in enumerate([0, 1, 4, 7]):
    data = bytes([method]) + bytes(rng.randrange(256) for _ in range(rng.choice([8, 40, 200])))
    open(f"{sys.argv[1]}/garbage-{n}", "wb").write(data)
PY
