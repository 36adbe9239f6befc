#!/usr/bin/env bash
# Regenerates the seed corpus in fuzz/corpus/ from the scribe binary given
# (e.g. build-fuzz/cli/scribe): games written by `scribe play` and
# `scribe convert`, every preset name, the preset ruleset texts, position
# strings from replays, and a few broken inputs of each kind. Deterministic
# (fixed seeds). The corpus is committed; scripts/fuzz.sh never grows it.
set -euo pipefail
cd "$(dirname "$0")/.."
scribe="$(realpath "${1:?usage: fuzz/make_corpus.sh path/to/scribe}")"
export ASAN_OPTIONS=detect_leaks=0
out=fuzz/corpus
rm -rf "$out"
mkdir -p "$out"/{tsn_fuzz,json_record_fuzz,position_string_fuzz,ruleset_text_fuzz,ruleset_reference_fuzz,engine_fuzz}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

presets=(finkel finkel-blank4 masters blitz sawah sawah-tablet aseb sawah-marks turnover murray skiriuk)

# --- games: JSON from `scribe play`, TSN from `scribe convert`.
seed=1
for p in "${presets[@]}" "finkel(pieces=3,capture_extra_roll=true,safe_shared=true)" \
         "turnover(pieces=3)" "blitz(pieces=2)"; do
  name="$(echo "$p" | tr -c 'a-z0-9-' '_' | sed 's/_*$//')"
  "$scribe" play --ruleset "$p" --seed "$seed" > "$out/json_record_fuzz/play-$name.json"
  "$scribe" convert "$out/json_record_fuzz/play-$name.json" --to tsn > "$out/tsn_fuzz/play-$name.tsn"
  if (( seed % 2 )); then
    "$scribe" convert "$out/json_record_fuzz/play-$name.json" --to tsn --tiles \
      > "$out/tsn_fuzz/play-$name-tiles.tsn"
  fi
  seed=$((seed + 1))
done
cp examples/finkel-game.json "$out/json_record_fuzz/example.json"
"$scribe" convert examples/finkel-game.json --to tsn > "$out/tsn_fuzz/example.tsn"
# Two games in one file, and a game cut short (unfinished, still legal).
cat "$out/tsn_fuzz/example.tsn" <(echo) "$out/tsn_fuzz/play-blitz_pieces_2.tsn" \
  > "$out/tsn_fuzz/two-games.tsn"
head -n 20 "$out/tsn_fuzz/play-sawah.tsn" > "$out/tsn_fuzz/unfinished.tsn"
printf '[%s,\n%s]\n' "$(cat examples/finkel-game.json)" \
  "$(cat "$out/json_record_fuzz/play-blitz_pieces_2.json")" > "$out/json_record_fuzz/array.json"

# Hand-written TSN: comments, annotations, markers, a throw-off, a set-up
# position, escapes in tags; and broken ones.
cat > "$out/tsn_fuzz/annotated.tsn" <<'TSN'
[TSN "1"]
[Ruleset "finkel"]
[Event "Club \"night\""]
[Light "Ann"]
[Dark "Bo"]
[Result "*"]

{The opening.}
1. L 4:0-4* {[%eval 0.52] a rosette} 4:4-8* 1:8-9
2. D 2:0-2
3. L 0:-
4. D 3:2-5 {\} and \\ escaped}
TSN
cat > "$out/tsn_fuzz/throwoff.tsn" <<'TSN'
[TSN "1"]
[Ruleset "turnover"]
[ThrowOff "1-1 5-0"]

1. L 1:@-A1 1:A1-A2
2. D 0:-
TSN
cat > "$out/tsn_fuzz/position.tsn" <<'TSN'
[TSN "1"]
[Ruleset "finkel"]
[Position "5:...1...1.....:1/6:.......1......:0 D"]

1. D 3:8-11
2. L 2:4-6
TSN
cat > "$out/tsn_fuzz/broken-syntax.tsn" <<'TSN'
[TSN "1"]
[Ruleset "finkel"
1. L 3:0-3
[Ruleset "nope"]

1. L 3:0-3
[Ruleset "finkel"]

1. L 9:0-9x2*+# {unterminated
TSN
cat > "$out/tsn_fuzz/broken-moves.tsn" <<'TSN'
[TSN "1"]
[Ruleset "finkel"]
[Result "light"]

1. L 3:0-3*
2. L 2:3-5
3. D 4:0-4 4:4-8
TSN

# Broken JSON.
printf '{"ruleset": "finkel", "actions": [{"roll": 4, "from": 0, "to": 4}, {"roll": 9}]}\n' \
  > "$out/json_record_fuzz/illegal.json"
printf '{"ruleset": "finkel", "actions": {"roll": 1}}\n' > "$out/json_record_fuzz/shape.json"
printf '[{"ruleset": "sawah", "firstPlayer": 2, "opening": [{"light": 1, "dark": 1}, {"light": "2", "dark": 0}], "tags": {"a": "\\u00e9\\u0000"}}, 3, {"bogus": 1}]\n' \
  > "$out/json_record_fuzz/mixed.json"
printf '{"ruleset": "finkel", "actions": [' > "$out/json_record_fuzz/truncated.json"
printf '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n' \
  > "$out/json_record_fuzz/deep.json"

# --- ruleset references: every preset name, overrides, broken ones.
for p in "${presets[@]}"; do printf '%s' "$p" > "$out/ruleset_reference_fuzz/$p"; done
i=0
for r in 'finkel(pieces=5)' 'finkel(pieces=5, capture_extra_roll=true, safe_shared=true)' \
         'finkel(safe_squares=[4,14])' 'finkel(safe_squares=[])' \
         'sawah(dice.count=3, dice.roll_for_marks=[4,1,2,3])' \
         'masters(title="Club, night rules", path=[A4,A3,A2,A1,B1,B2,B3,B4,B5,B6,B7,B8,A8,A7])' \
         'turnover(entry_rolls=[1], bear_off=BEAR_OFF_EXACT, bear_off_roll=0, phase_starts=[])' \
         'murray(stacking=true, auto_place_squares=[4,8], auto_place_to=2)' \
         'finkel(board=BOARD_EGYPTIAN)' 'finkel(pieces=5' 'finkel(dice=4)' 'finkel(pieces=1, pieces=2)' \
         'tablet-betting' 'nonesuch(pieces=3)' 'finkel(base=sawah)' 'finkel(id=x)(y)'; do
  printf '%s' "$r" > "$out/ruleset_reference_fuzz/ref-$i"
  i=$((i + 1))
done

# --- ruleset texts: the presets, the example, `ruleset show`, broken ones.
for f in engine/presets/*.textproto; do cp "$f" "$out/ruleset_text_fuzz/preset-$(basename "$f")"; done
cp examples/five-piece-tournament.textproto "$out/ruleset_text_fuzz/"
for p in finkel turnover murray; do
  "$scribe" ruleset show "$p" > "$out/ruleset_text_fuzz/show-$p.textproto"
done
printf 'base: "finkel"\npieces: 0\ndice { count: 9 }\nsafe_squares: [0, 4, 4, 99]\nnope: 1\n' \
  > "$out/ruleset_text_fuzz/broken-values.textproto"
printf 'base: "finkel(pieces=3)"\npath: ["A4", "B8", "Z9"]\n' > "$out/ruleset_text_fuzz/broken-path.textproto"
printf 'board: BOARD_UR\npath: ["A1"' > "$out/ruleset_text_fuzz/broken-syntax.textproto"
printf 'base: "tablet-betting"\n' > "$out/ruleset_text_fuzz/declined.textproto"

# --- position strings: first byte = the ruleset (fuzz/position_string_fuzz.cc:
# the presets and aliases in order, then five presets with overrides), then
# the string: starts, and positions from replays of the games above.
lengths=(14 14 16 16 16 16 16 16 20 27 23 14 14 16 27 16)
pieces=(7 7 7 5 7 5 5 7 7 7 7 15 3 1 7 7)
for k in "${!lengths[@]}"; do
  dots="$(printf '%*s' "${lengths[$k]}" '' | tr ' ' '.')"
  { printf "\\x$(printf '%02x' "$k")"; printf '%s:%s:0/%s:%s:0 L' "${pieces[$k]}" "$dots" "${pieces[$k]}" "$dots"; } \
    > "$out/position_string_fuzz/start-$k"
done
for k in 0 2 8 9; do
  p="${presets[$k]}"
  name="$(echo "$p" | tr -c 'a-z0-9-' '_' | sed 's/_*$//')"
  "$scribe" replay --format=json "$out/json_record_fuzz/play-$name.json" > "$tmp/replay.json"
  python3 - "$tmp/replay.json" "$k" "$out/position_string_fuzz/mid-$p" <<'PY'
import json, sys
replay = json.load(open(sys.argv[1]))
steps = replay["actions"]
k = int(sys.argv[2])
for n, step in enumerate(steps[len(steps) // 3 :: max(1, len(steps) // 4)][:3]):
    counts = step["position"]
    def side(c):
        board = "".join("." if v == 0 else "0123456789abcdef"[v] for v in c[1:-1])
        return f"{c[0]}:{board}:{c[-1]}"
    mover = "L" if step["player"] == "LIGHT" else "D"
    text = f"{side(counts['light'])}/{side(counts['dark'])} {mover}"
    with open(f"{sys.argv[3]}-{n}", "wb") as f:
        f.write(bytes([k]) + text.encode())
PY
done
printf '\x00 7:..............:0/7:..............:0 L ' > "$out/position_string_fuzz/spaces"
printf '\x00%s' '6:...1..........:0/6:...1..........:0 D' > "$out/position_string_fuzz/broken-both-on-tile"
printf '\x00%s' '7:..............:0/7:..............:0 X' > "$out/position_string_fuzz/broken-mover"
printf '\x0b%s' '0:f.............:0/7:..............:0 L' > "$out/position_string_fuzz/stack-15"
printf '\x08%s' '5:1...................:0/5:2...................:0 L' > "$out/position_string_fuzz/broken-count"

# --- engine: bytes for the ruleset, the overrides, every throw and choice
# (FuzzedDataProvider takes integers from the end). Random, fixed seeds.
python3 - "$out/engine_fuzz" <<'PY'
import random, sys
rng = random.Random(20240601)
for n in range(24):
    size = rng.choice([4, 16, 64, 256, 600])
    data = bytes(rng.randrange(256) for _ in range(size))
    if n < 11:
        # A plain preset (flags 0) chosen by the last byte.
        data = data[:-3] + bytes([0, 0, n])
    open(f"{sys.argv[1]}/seed-{n:02d}", "wb").write(data)
PY
# --- RoyalUr's formats, when this scribe reads them: RoyalUr's own files
# (tests/data/royalur: the two smallest of each preset), Scribe's writing of
# the games above, and broken ones. rgn_fuzz's first byte is the ruleset the
# reader is told (fuzz/rgn_fuzz.cc: finkel, masters, blitz, aseb, ...).
if "$scribe" convert --help | grep -q royalur-json; then
  mkdir -p "$out/rgn_fuzz" "$out/royalur_json_fuzz"
  rgn_byte() {
    case "$1" in
      finkel*) echo 00 ;; masters*) echo 01 ;; blitz*) echo 02 ;; aseb*) echo 03 ;;
    esac
  }
  for p in finkel masters blitz aseb; do
    for f in $(ls -S -r tests/data/royalur/"$p"-*.rgn | head -n 2); do
      { printf "\\x$(rgn_byte "$p")"; cat "$f"; } > "$out/rgn_fuzz/royalur-$(basename "$f")"
    done
    for f in $(ls -S -r tests/data/royalur/"$p"-*.json | head -n 2); do
      cp "$f" "$out/royalur_json_fuzz/royalur-$(basename "$f")"
    done
  done
  for p in finkel masters blitz aseb; do
    "$scribe" play --ruleset "$p" --seed 7 > "$tmp/game.json"
    { printf "\\x$(rgn_byte "$p")"; "$scribe" convert "$tmp/game.json" --to rgn; } \
      > "$out/rgn_fuzz/scribe-$p.rgn"
    "$scribe" convert "$tmp/game.json" --to royalur-json > "$out/royalur_json_fuzz/scribe-$p.json"
  done
  printf '\x00[Light "Ann"]\n\n1. A@A9 / C@C2\n2. 3 -- / 0 --\n3. A+A+#\n' > "$out/rgn_fuzz/broken-tiles.rgn"
  printf '\x05[Light Ann]\n\n1. A@A4 / C@C4\n' > "$out/rgn_fuzz/not-royalur-ruleset.rgn"
  printf '{"notation_version":2,"settings":{"paths":"nowhere"},"states":[]}\n' \
    > "$out/royalur_json_fuzz/broken-settings.json"
  printf '{"notation_version":2,"states":[{"type":"move","roll":{"value":9}}]}\n' \
    > "$out/royalur_json_fuzz/broken-state.json"
fi

# --- the service: a request for each method (its own script).
# RoyalUr's solved tables: small ones (1 piece) of each of RoyalUr's paths,
# solved and exported (under the 64 KiB the targets read).
mkdir -p "$out/rgu_fuzz"
for r in "finkel(pieces=1)" "blitz(pieces=1)" "masters(pieces=1)" "sawah-tablet(pieces=1)" \
         "finkel(pieces=1,capture_extra_roll=true)"; do
  name="$(echo "$r" | tr -c 'a-z0-9\n' '-' | sed 's/-*$//')"
  "$scribe" solve --ruleset "$r" --out "$tmp/lut.tbl" --quiet > /dev/null
  "$scribe" table export "$tmp/lut.tbl" --to rgu --out "$out/rgu_fuzz/$name.rgu" > /dev/null
done

fuzz/make_service_corpus.sh "$scribe"
fuzz/make_database_corpus.sh "$scribe"

du -sh "$out"
