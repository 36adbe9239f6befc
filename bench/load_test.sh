#!/usr/bin/env bash
# The gRPC service under load: ValidateRecord against the near-empty
# health check, on one server in one run, repeated; prints the medians and
# the ratio validate/health (the target: at least 0.5).
#
#   bench/load_test.sh [SCRIBED] [LOADGEN]
#
# SCRIBED and LOADGEN default to build-load/service/scribed and
# build-load/bench/loadgen. The environment tunes the run:
#   RUNS=5 SECONDS_PER_RUN=10 WARMUP=1 CONCURRENCY=32 CHANNELS=4 THREADS=2
#   METHODS="validate health" RECORD=examples/finkel-game.json
#   SERVER_ARGS="" (more scribed flags)
# Traffic goes to 127.0.0.1 only.
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "load_test.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scribed="${1:-$root/build-load/service/scribed}"
loadgen="${2:-$root/build-load/bench/loadgen}"
runs="${RUNS:-5}"
seconds="${SECONDS_PER_RUN:-10}"
warmup="${WARMUP:-1}"
concurrency="${CONCURRENCY:-32}"
channels="${CHANNELS:-4}"
threads="${THREADS:-2}"
methods="${METHODS:-validate health}"
record="${RECORD:-$root/examples/finkel-game.json}"

for b in "$scribed" "$loadgen"; do
  [[ -x "$b" ]] || { echo "load_test: $b is not built" >&2; exit 2; }
done

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# shellcheck disable=SC2086
"$scribed" --listen 127.0.0.1:0 --metrics-interval-seconds 0 ${SERVER_ARGS:-} \
  >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
port=""
for _ in $(seq 100); do
  port="$(sed -n 's/^listening on port \([0-9]*\)$/\1/p' "$work/server.out")"
  [[ -n "$port" ]] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 1; }
  sleep 0.1
done
[[ -n "$port" ]] || { echo "load_test: scribed did not print its port" >&2; exit 1; }

echo "scribed pid $server_pid on 127.0.0.1:$port; $runs runs x ${seconds}s per method" \
  "(closed loop, $concurrency outstanding, $channels channels, $threads client threads)"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "load before: $(uptime)"

# key=value from loadgen's "result" line.
field() { sed -n "s/^result .*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" "$2"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for run in $(seq "$runs"); do
  # Alternate the order so that neither method always runs first.
  order="$methods"
  (( run % 2 == 0 )) && order="$(echo "$methods" | tr ' ' '\n' | tac | tr '\n' ' ')"
  for m in $order; do
    out="$work/$m.$run"
    "$loadgen" --target "127.0.0.1:$port" --method "$m" --record "$record" --seconds "$seconds" \
      --warmup-seconds "$warmup" --concurrency "$concurrency" --channels "$channels" --threads "$threads" >"$out"
    printf 'run %d %-8s %10s calls/s  p50 %s ms  p99 %s ms  (OK %s, RESOURCE_EXHAUSTED %s, other %s)\n' \
      "$run" "$m" "$(field rps "$out")" "$(field p50_ms "$out")" "$(field p99_ms "$out")" \
      "$(field ok "$out")" "$(field resource_exhausted "$out")" "$(field other "$out")"
  done
done
echo "load after:  $(uptime)"

echo
printf '%-10s %12s %10s %10s %10s\n' method "calls/s" "p50 ms" "p90 ms" "p99 ms"
for m in $methods; do
  for k in rps p50_ms p90_ms p99_ms; do
    for run in $(seq "$runs"); do field "$k" "$work/$m.$run"; done | median >"$work/$m.$k"
  done
  printf '%-10s %12.0f %10.3f %10.3f %10.3f\n' "$m" "$(cat "$work/$m.rps")" "$(cat "$work/$m.p50_ms")" \
    "$(cat "$work/$m.p90_ms")" "$(cat "$work/$m.p99_ms")"
done
if [[ -f "$work/validate.rps" && -f "$work/health.rps" ]]; then
  ratio="$(awk -v v="$(cat "$work/validate.rps")" -v h="$(cat "$work/health.rps")" \
    'BEGIN { printf("%.2f", (h > 0) ? v / h : 0) }')"
  verdict="meets"
  awk -v r="$ratio" 'BEGIN { exit !(r < 0.5) }' && verdict="is below"
  echo "ratio validate/health (medians of calls/s): $ratio ($verdict the target of 0.5)"
fi
kill -0 "$server_pid" 2>/dev/null || { echo "load_test: scribed died" >&2; exit 1; }
