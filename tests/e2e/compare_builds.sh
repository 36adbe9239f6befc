#!/usr/bin/env bash
# Proves that two builds behave alike: runs a fixed list of scribe
# invocations (every command, on the examples, the reference games, the
# RoyalUr records and broken inputs) and every scribed RPC (rpc_dump.js)
# with both, and diffs stdout, stderr, exit codes and the files written.
#
# Usage: tests/e2e/compare_builds.sh BEFORE AFTER
#        tests/e2e/compare_builds.sh --rev GITREV [AFTER]
# BEFORE and AFTER: a build directory (cli/scribe, service/scribed) or a
# directory holding scribe and scribed. --rev builds GITREV in a temporary
# git worktree first (scripts/build.sh, no tests or benchmarks; set
# CMAKE_CXX_COMPILER_LAUNCHER=ccache to reuse objects); AFTER defaults to
# ./build. Prints one line per case that differs, then "N passed, M failed";
# exits 1 when any differ. KEEP=1 keeps the scratch folder. The scratch
# folder is made in COMPARE_WORKDIR (default: TMPDIR or /tmp).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
die() { echo "compare_builds: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: $0 BEFORE AFTER | --rev GITREV [AFTER]"

WORK="$(mktemp -d "${COMPARE_WORKDIR:-${TMPDIR:-/tmp}}/compare-builds.XXXXXX")"
REV_WT=""
JOBS=()
cleanup() {
  local pid
  for pid in "${JOBS[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in $(cat "$WORK"/*/rpc/server.pid 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
  wait 2>/dev/null
  if [ -n "$REV_WT" ]; then git -C "$ROOT" worktree remove --force "$REV_WT" >/dev/null 2>&1; fi
  if [ "${KEEP:-0}" = 1 ]; then echo "scratch kept in $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The two binaries of a build or binary directory, as absolute paths.
binaries() {
  local d="$1"
  if [ -x "$d/cli/scribe" ] && [ -x "$d/service/scribed" ]; then
    echo "$(realpath "$d/cli/scribe") $(realpath "$d/service/scribed")"
  elif [ -x "$d/scribe" ] && [ -x "$d/scribed" ]; then
    echo "$(realpath "$d/scribe") $(realpath "$d/scribed")"
  else
    die "$d holds neither cli/scribe and service/scribed nor scribe and scribed"
  fi
}

if [ "$1" = --rev ]; then
  [ $# -ge 2 ] || die "usage: $0 --rev GITREV [AFTER]"
  REV_WT="$WORK/rev"
  git -C "$ROOT" worktree add --detach "$REV_WT" "$2" >/dev/null 2>&1 || die "cannot check out $2"
  extra=(-DSCRIBE_TESTS=OFF -DSCRIBE_BENCHMARKS=OFF)
  [ -n "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && extra+=("-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER")
  echo "building $2 in $REV_WT/build" >&2
  "$REV_WT/scripts/build.sh" build "${extra[@]}" > "$WORK/rev-build.log" 2>&1 ||
    { tail -n 30 "$WORK/rev-build.log" >&2; die "building $2 failed"; }
  BEFORE="$REV_WT/build"; AFTER="${3:-$ROOT/build}"
else
  [ $# -eq 2 ] || die "usage: $0 BEFORE AFTER | --rev GITREV [AFTER]"
  BEFORE="$1"; AFTER="$2"
fi
for side in before after; do
  [ "$side" = before ] && dir="$BEFORE" || dir="$AFTER"
  read -r cli svc <<< "$(binaries "$dir")"
  [ -n "$cli" ] || exit 2
  # Run by name from PATH, so usage messages name "scribe" alike.
  mkdir -p "$WORK/$side/bin"
  ln -s "$cli" "$WORK/$side/bin/scribe"
  ln -s "$svc" "$WORK/$side/bin/scribed"
done

# Node packages for rpc_dump.js: with the e2e tests, or the older place.
NODE_CLIENT=""
for d in "$ROOT/tests/e2e/node_client" "$ROOT/tests/node_client"; do
  if [ -f "$d/package.json" ]; then NODE_CLIENT="$d"; break; fi
done
[ -n "$NODE_CLIENT" ] || die "no tests/e2e/node_client or tests/node_client"
if [ ! -d "$NODE_CLIENT/node_modules/@grpc/grpc-js" ]; then
  "$NODE_CLIENT/install.sh" || die "cannot install the Node packages in $NODE_CLIENT"
fi

# The inputs, made once and shared by both sides (generated with BEFORE).
IN="$WORK/in"
B="$WORK/before/bin/scribe"
mkdir -p "$IN"/{examples,ref,gen,royalur,bad}
cp "$ROOT"/examples/* "$IN/examples/"
cp "$ROOT"/tests/data/royalur/*.rgn "$ROOT"/tests/data/royalur/*.json "$IN/royalur/"
for f in "$ROOT"/tests/data/reference/*.jsonl; do   # each game as a JSON record
  p="$(basename "$f" .jsonl)"
  jq -c --arg p "$p" -s 'group_by(.game)[] | {ruleset: $p, first_player: .[0].player, actions:
    [.[] | if .move then {roll, from: .move.from, to: .move.to} else {roll} end]}' "$f" |
    awk -v out="$IN/ref/$p" '{ print > (out "-" NR ".json") }'
done
PRESETS="$("$B" rulesets | awk '$2 != "-" { print $1 }')"
for p in $PRESETS; do for s in 1 2; do "$B" play --ruleset "$p" --seed "$s" > "$IN/gen/$p-$s.json"; done; done
for s in 1 2 3; do "$B" play --ruleset 'finkel(pieces=2)' --seed "$s" > "$IN/gen/p2-$s.json"; done
"$B" solve --ruleset 'finkel(pieces=2)' --out "$IN/f2.tbl" --quiet > /dev/null || die "cannot solve finkel(pieces=2)"
: > "$IN/bad/empty.json"
printf '{"ruleset": "finkel",\n "actions": [{"roll": 2, "from": 0\n' > "$IN/bad/broken.json"
printf '\x00\xff garbage' > "$IN/bad/garbage.json"
jq -c '.actions[3].to += 1' "$IN/examples/finkel-game.json" > "$IN/bad/illegal.json"
jq -c '.ruleset = "no-such-rules"' "$IN/examples/finkel-game.json" > "$IN/bad/badref.json"
jq -c '.actions[0].roll = 9' "$IN/examples/finkel-game.json" > "$IN/bad/roll9.json"
"$B" convert --to tsn "$IN/bad/illegal.json" > "$IN/bad/illegal.tsn" 2>/dev/null ||
  "$B" convert --to tsn "$IN/examples/finkel-game.json" | sed '0,/ 2:0-2/s// 2:0-3/' > "$IN/bad/illegal.tsn"
printf '[Ruleset "finkel"]\n\n1. L 3:0-3\n2. D 2:0-5\n' > "$IN/bad/mismatch.tsn"
printf 'base: "finkel"\npeices: 5\n' > "$IN/bad/bad.textproto"
echo '[{"ruleset": "finkel", "actions": []}, 42, {"ruleset": "nope"}]' > "$IN/bad/array.json"

# The cases: NAME, MASK, COMMAND (split by \x1f), run with bash -c in a scratch
# folder holding `in` (the inputs). MASK: time (durations, memory and
# timestamps are not compared), table (also a table's solve-time bytes).
CASES="$WORK/cases"
: > "$CASES"
c() { printf '%s\x1f%s\x1f%s\n' "$1" "$2" "$3" >> "$CASES"; }
C() { c "$1" "" "$1"; }   # the command is its own name

C "scribe"; C "scribe --help"; C "scribe --version"; C "scribe frobnicate"; C "scribe --bogus"
C "scribe ruleset"; C "scribe table"; C "scribed --help"; C "scribed --bogus"
for cmd in rulesets "ruleset show" play replay annotate validate convert perft solve "table info" suggest match; do
  C "scribe $cmd --help"; C "scribe $cmd --bogus"
done
c "scribed --table in/nope.tbl" time "timeout 10 scribed --listen 127.0.0.1:0 --table in/nope.tbl"
c "scribed --table not a table" time "timeout 10 scribed --listen 127.0.0.1:0 --table in/examples/finkel-game.json"

C "scribe rulesets"
for p in $PRESETS aseb tablet-betting no-such-rules 'finkel(pieces=5,capture_extra_roll=true)' \
         'finkel(pieces=0,foo=1)' in/examples/five-piece-tournament.textproto in/bad/bad.textproto in/nope.textproto; do
  C "scribe ruleset show '$p'"
done
for p in $PRESETS 'finkel(pieces=2)' in/examples/five-piece-tournament.textproto; do
  for s in 1 2 3; do C "scribe play --ruleset '$p' --seed $s"; done
  C "scribe perft --ruleset '$p' --depth 3"
done
C "scribe play --ruleset finkel"; C "scribe play --ruleset no-such-rules --seed 1"; C "scribe play --seed 1"
C "scribe perft --ruleset finkel --depth 0"; C "scribe perft --ruleset 'finkel(pieces=2)' --depth 5"
C "scribe perft --ruleset finkel --depth 13"; C "scribe perft --ruleset finkel"

# Every record: validate, replay, annotate and convert, text and JSON.
for f in "$IN"/examples/*.json "$IN"/ref/*.json "$IN"/gen/*.json "$IN"/royalur/* "$IN"/bad/*.json "$IN"/bad/*.tsn; do
  r="in/${f#"$IN"/}"; o=""
  case "$r" in *.rgn) o=" --ruleset $(basename "$r" | sed 's/-[0-9]*\.rgn$//')";; esac
  for a in "validate" "validate --format json" "replay" "replay --format json" "annotate" "annotate --format json" \
           "convert --to tsn" "convert --to json" "convert --to rgn" "convert --to royalur-json" "convert --to tsn --tiles"; do
    C "scribe $a$o $r"
  done
done
# More options on one record of each kind.
for f in "$IN"/examples/finkel-game.json "$IN"/ref/*-1.json "$IN"/gen/p2-1.json "$IN"/royalur/{blitz-1.json,masters-2.rgn}; do
  r="in/${f#"$IN"/}"; o=""; case "$r" in *.rgn) o=" --ruleset masters";; esac
  C "scribe replay --board$o $r"
  C "scribe replay --svg out.svg$o $r"; C "scribe replay --svg out.svg --at 0$o $r"; C "scribe replay --svg out.svg --at 7$o $r"
  C "scribe annotate --tiles$o $r"; C "scribe annotate --depth 1$o $r"; C "scribe annotate --depth 1 --format json$o $r"
  C "scribe annotate --depth 1 --graph g.svg$o $r"; C "scribe annotate --depth 0 --tiles$o $r"
done
for d in in/ref in/gen in/royalur in/bad in/examples; do C "scribe validate $d"; C "scribe validate --format json $d"; done
C "scribe validate in/ref in/gen in/examples/finkel-game.json"
C "scribe validate --ruleset finkel in/examples/finkel-game.json"
C "scribe validate --ruleset in/examples/five-piece-tournament.textproto in/gen/finkel-1.json"
C "scribe validate --ruleset no-such-rules in/examples/finkel-game.json"
C "scribe replay --ruleset 'finkel(pieces=99)' in/examples/finkel-game.json"
C "scribe validate --from tsn in/examples/finkel-game.json"; C "scribe replay --from rgn in/bad/mismatch.tsn"
C "scribe validate in/royalur/finkel-1.rgn"; C "scribe convert --to tsn in/royalur/aseb-1.rgn"
C "scribe replay - < in/examples/finkel-game.json"; C "scribe annotate - < in/bad/mismatch.tsn"
C "scribe convert --to rgn - < in/examples/finkel-game.json"; C "scribe validate - < in/examples/finkel-game.json"
C "scribe replay --svg out.svg --at 999 in/examples/finkel-game.json"; C "scribe replay --at 3 in/examples/finkel-game.json"
C "scribe replay --svg /nonexistent/dir/out.svg in/examples/finkel-game.json"
C "scribe annotate --graph g.svg in/examples/finkel-game.json"; C "scribe annotate --depth 7 in/examples/finkel-game.json"
C "scribe replay --format xml in/examples/finkel-game.json"; C "scribe convert --to pdf in/examples/finkel-game.json"
C "scribe convert in/examples/finkel-game.json"; C "scribe validate"; C "scribe replay"
for a in validate replay annotate "convert --to tsn"; do
  C "scribe $a in/nope.json"; C "scribe $a in/bad"; C "scribe $a in/bad/empty.json"; C "scribe $a in/bad/broken.json"
done

# Suggestions, matches, and a solved table.
for p in finkel masters blitz turnover; do for roll in 0 1 2 3 4 5; do
  C "scribe suggest --ruleset $p --roll $roll --depth 1"
done; done
MID='5:...1...1......:0/6:......1.......:0 D'
for roll in 1 2 3 4; do
  C "scribe suggest --ruleset finkel --position '$MID' --roll $roll"
  C "scribe suggest --ruleset finkel --position '$MID' --roll $roll --depth 1 --format json"
  C "scribe suggest --ruleset finkel --position '$MID' --roll $roll --depth 0 --tiles"
  C "scribe suggest --ruleset 'finkel(pieces=2)' --roll $roll --table in/f2.tbl"
  C "scribe suggest --ruleset 'finkel(pieces=2)' --roll $roll --table in/f2.tbl --format json --tiles"
done
C "scribe suggest --ruleset finkel --position nonsense --roll 2"; C "scribe suggest --ruleset finkel --roll 9"
C "scribe suggest --ruleset finkel --roll 2 --table in/f2.tbl"; C "scribe suggest --ruleset finkel --roll 2 --table in/nope.tbl"
C "scribe suggest --ruleset finkel --roll 2 --table in/f2.tbl --depth 1"; C "scribe suggest --ruleset finkel"
C "scribe match --ruleset 'finkel(pieces=2)' --light search:1 --dark random --games 20 --seed 3"
C "scribe match --ruleset 'finkel(pieces=2)' --light heuristic --dark random --games 20 --seed 4 --format json"
C "scribe match --ruleset 'finkel(pieces=2)' --light perfect --dark search:1 --games 20 --seed 5 --table in/f2.tbl"
C "scribe match --ruleset finkel --light random --dark heuristic --games 10"
C "scribe match --ruleset finkel --light perfect --dark random --games 5"
C "scribe match --ruleset finkel --light grandmaster --dark random --games 5"
C "scribe match --ruleset finkel --light random --dark random --games 0"
c "scribe solve finkel(pieces=2)" table "scribe solve --ruleset 'finkel(pieces=2)' --out t.tbl"
c "scribe solve finkel(pieces=2) --quiet" table "scribe solve --ruleset 'finkel(pieces=2)' --out t.tbl --quiet --threads 1"
c "scribe solve then table info" table "scribe solve --ruleset 'finkel(pieces=2)' --out t.tbl --quiet && scribe table info t.tbl"
C "scribe solve --ruleset 'finkel(pieces=2)'"; C "scribe solve --ruleset finkel --out t.tbl --max-memory 0.001"
C "scribe solve --ruleset no-such-rules --out t.tbl"; C "scribe solve --ruleset 'finkel(pieces=2)' --out /nonexistent/t.tbl --quiet"
C "scribe table info in/f2.tbl"; C "scribe table info in/nope.tbl"; C "scribe table info in/examples/finkel-game.json"
for r in in/gen/p2-1.json in/gen/p2-2.json; do
  C "scribe annotate --table in/f2.tbl $r"; C "scribe annotate --table in/f2.tbl --format json $r"
  C "scribe annotate --table in/f2.tbl --graph g.svg $r"
done
C "scribe annotate --table in/f2.tbl in/examples/finkel-game.json"; C "scribe annotate --table in/f2.tbl --depth 1 in/gen/p2-1.json"

# Runs every case with one side's binaries; one folder per case.
run_side() {
  local side="$1" i=0 name mask cmd d
  while IFS=$'\x1f' read -r name mask cmd; do
    i=$((i + 1)); d="$WORK/$side/cases/$i"
    mkdir -p "$d"; ln -s ../../../in "$d/in"
    (cd "$d" && PATH="$WORK/$side/bin:$PATH" timeout 120 bash -c "$cmd" > stdout 2> stderr < /dev/null; echo $? > rc)
    rm "$d/in"
    if [ -n "$mask" ]; then
      sed -E -i 's/[0-9]+(\.[0-9]+)? (s|MiB)\b/# \2/g; s/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z /TIME /' "$d/stdout" "$d/stderr"
    fi
    if [ "$mask" = table ]; then   # a table's header holds its solve time (bytes 48-55) and a checksum (64-71)
      for t in "$d"/*.tbl; do
        [ -f "$t" ] && { head -c 48 "$t"; tail -c +57 "$t" | head -c 8; tail -c +73 "$t"; } > "$t.masked" && rm "$t"
      done
    fi
  done < "$CASES"
}

# Starts one side's scribed on a free loopback port and dumps every RPC.
rpc_side() {
  local side="$1" d port="" pid k
  d="$WORK/$side/rpc"
  mkdir -p "$d"; ln -s ../../in "$d/in"
  (cd "$d" && exec env PATH="$WORK/$side/bin:$PATH" scribed --listen 127.0.0.1:0 --metrics-interval-seconds 0 \
     --table in/f2.tbl --max-record-bytes 200000 --max-record-actions 5000 > server.out 2> server.err) &
  pid=$!; echo "$pid" > "$d/server.pid"
  for k in $(seq 200); do
    port="$(sed -n 's/^listening on port \([0-9]*\)$/\1/p' "$d/server.out" 2>/dev/null)"
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break; sleep 0.1
  done
  if [ -z "$port" ]; then echo "scribed ($side) did not start: $(cat "$d/server.err")" > "$d/rpc.out"; return; fi
  SCRIBE_NODE_CLIENT="$NODE_CLIENT" node "$ROOT/tests/e2e/rpc_dump.js" "127.0.0.1:$port" "$IN" > "$d/rpc.out" 2> "$d/rpc.err"
  echo "rpc_dump exit $?" >> "$d/rpc.out"
  kill -TERM "$pid"; wait "$pid"; echo "scribed exit after SIGTERM $?" >> "$d/rpc.out"
  # Its log, less the clock, the port and the call durations.
  sed -E 's/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z /TIME /; s/port [0-9]+/port N/; s/mean_us=[0-9]+/mean_us=N/g' \
    "$d/server.err" > "$d/server.log"
}

SECONDS=0
echo "$(wc -l < "$CASES") command cases, then the RPCs; inputs in $IN" >&2
{ run_side before; rpc_side before; } & JOBS+=($!)
{ run_side after; rpc_side after; } & JOBS+=($!)
wait "${JOBS[@]}"
JOBS=()

# Compares: one line per case that differs, with a short diff.
passed=0; failed=0; i=0
while IFS=$'\x1f' read -r name mask cmd; do
  i=$((i + 1))
  if out="$(diff -r "$WORK/before/cases/$i" "$WORK/after/cases/$i" 2>&1)"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "DIFF $name"
    echo "$out" | sed "s|$WORK/before/cases/$i/||; s|$WORK/after/cases/$i/||" | head -n 8 | cut -c1-300 | sed 's/^/    /'
  fi
done < "$CASES"
for side in before after; do   # a dump that broke off proves nothing
  if ! grep -qx 'rpc_dump exit 0' "$WORK/$side/rpc/rpc.out"; then
    failed=$((failed + 1)); echo "FAIL rpc_dump on $side: $(tail -n 3 "$WORK/$side/rpc/rpc.err" 2>/dev/null | tr '\n' ' ')"
  fi
done
if out="$(diff "$WORK/before/rpc/server.log" "$WORK/after/rpc/server.log" 2>&1)"; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "DIFF scribed log"; echo "$out" | head -n 8 | cut -c1-300 | sed 's/^/    /'
fi
# RPC lines: CASE<TAB>JSON, the same cases in the same order.
awk -F'\t' -v counts="$WORK/rpc-counts" '
  NR == FNR { b[FNR] = $0; nb = FNR; next }
  { a[FNR] = $0; na = FNR }
  END {
    n = nb > na ? nb : na
    for (i = 1; i <= n; i++) {
      if (b[i] == a[i]) { pass++; continue }
      fail++; x = b[i]; y = a[i]; split(x == "" ? y : x, name, "\t"); k = 1
      while (k <= length(x) && substr(x, k, 1) == substr(y, k, 1)) k++
      s = k > 60 ? k - 60 : 1
      printf "DIFF rpc %s\n    before: %s\n    after:  %s\n", name[1], substr(x, s, 160), substr(y, s, 160)
    }
    print pass + 0, fail + 0 > counts
  }' "$WORK/before/rpc/rpc.out" "$WORK/after/rpc/rpc.out"
read -r p f < "$WORK/rpc-counts"
passed=$((passed + p)); failed=$((failed + f))
echo "($SECONDS s; $(wc -l < "$WORK/before/rpc/rpc.out") RPC lines)" >&2
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
