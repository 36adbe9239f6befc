#!/usr/bin/env bash
# scribed above capacity: a server with --max-concurrent-calls 4 is driven
# far beyond it (closed loop with 64 calls outstanding, then an open-loop
# rate), while a health prober on its own connection checks it. Asserts that
# the server stays up, health checks keep answering SERVING, the excess is
# shed with RESOURCE_EXHAUSTED, OK answers keep coming, memory stays
# bounded, and the server still stops cleanly afterwards.
#
#   tests/e2e/overload_test.sh SCRIBED LOADGEN
#
# Traffic goes to 127.0.0.1 only. About 15 seconds.
set -uo pipefail

scribed="${1:?usage: overload_test.sh SCRIBED LOADGEN}"
loadgen="${2:?usage: overload_test.sh SCRIBED LOADGEN}"
# Generous: the heap may settle higher after the first overload, but must
# not keep growing with the calls shed.
rss_growth_limit_kb="${RSS_GROWTH_LIMIT_KB:-131072}"

passed=0
failed=0
check() {  # check NAME CONDITION-COMMAND...
  local name="$1"
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "PASS $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name"
  fi
}

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

"$scribed" --listen 127.0.0.1:0 --max-concurrent-calls 4 --metrics-interval-seconds 0 \
  >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
port=""
for _ in $(seq 100); do
  port="$(sed -n 's/^listening on port \([0-9]*\)$/\1/p' "$work/server.out")"
  [[ -n "$port" ]] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [[ -z "$port" ]]; then
  cat "$work/server.err"
  echo "FAIL scribed starts"
  echo "0 passed, 1 failed"
  exit 1
fi
target="127.0.0.1:$port"

# Each call validates 10 games (a JSON array of the example record): heavy
# enough that 4 admitted calls cannot keep up, however fast validation gets.
heavy="$work/heavy.json"
example="$(cd "$(dirname "$0")/../.." && pwd)/examples/finkel-game.json"
{
  printf '['
  for i in $(seq 10); do
    [ "$i" -gt 1 ] && printf ','
    cat "$example"
  done
  printf ']'
} >"$heavy"

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$server_pid/status" 2>/dev/null || echo 0; }
field() { sed -n "s/^result .*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" "$2"; }
alive() { kill -0 "$server_pid" 2>/dev/null; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
eq() { [[ "$1" == "$2" && -n "$1" ]]; }

# Warm up under capacity (one call at a time), so the baseline memory
# includes the allocator's arenas and the connection buffers.
"$loadgen" --target "$target" --method validate --concurrency 1 --channels 1 --threads 1 \
  --seconds 1 --warmup-seconds 0 >"$work/warm"
check "under capacity: every call OK" eq "$(field other "$work/warm")$(field resource_exhausted "$work/warm")" "00"
check "under capacity: calls answered" gt "$(field ok "$work/warm")" 0
rss_before="$(rss_kb)"

# Closed loop: 64 calls outstanding on 8 connections against 4 admitted.
"$loadgen" --target "$target" --method validate --record "$heavy" --concurrency 64 --channels 8 --threads 2 \
  --seconds 5 --warmup-seconds 0.5 --timeout-ms 5000 --probe-interval-ms 100 --probe-timeout-ms 2000 \
  >"$work/closed"
rss_mid="$(rss_kb)"
cat "$work/closed"
check "closed loop: server stays up" alive
check "closed loop: excess shed with RESOURCE_EXHAUSTED" gt "$(field resource_exhausted "$work/closed")" 0
check "closed loop: OK answers keep coming" gt "$(field ok "$work/closed")" 0
check "closed loop: no other status" eq "$(field other "$work/closed")" 0
check "closed loop: health probes sent" gt "$(field probe_sent "$work/closed")" 10
check "closed loop: every health probe SERVING" eq "$(field probe_failed "$work/closed")" 0

# Open loop: a fixed rate well above what 4 admitted calls can serve.
"$loadgen" --target "$target" --method validate --record "$heavy" --rate 4000 --max-outstanding 500 --channels 8 --threads 2 \
  --seconds 4 --warmup-seconds 0.5 --timeout-ms 5000 --probe-interval-ms 100 --probe-timeout-ms 2000 \
  >"$work/open"
rss_after="$(rss_kb)"
cat "$work/open"
check "open loop: server stays up" alive
check "open loop: excess shed with RESOURCE_EXHAUSTED" gt "$(field resource_exhausted "$work/open")" 0
check "open loop: OK answers keep coming" gt "$(field ok "$work/open")" 0
check "open loop: no other status" eq "$(field other "$work/open")" 0
check "open loop: health probes sent" gt "$(field probe_sent "$work/open")" 10
check "open loop: every health probe SERVING" eq "$(field probe_failed "$work/open")" 0

echo "VmRSS kB: before $rss_before, after closed loop $rss_mid, after open loop $rss_after" \
  "(limit: before + $rss_growth_limit_kb)"
check "memory bounded: VmRSS read" gt "$rss_before" 0
check "memory bounded: growth under the limit" \
  awk -v a="$rss_after" -v b="$rss_before" -v l="$rss_growth_limit_kb" 'BEGIN { exit !(a - b < l) }'

# After the overload: a plain call is answered and health is SERVING.
"$loadgen" --target "$target" --method health --concurrency 1 --channels 1 --threads 1 \
  --requests 20 --seconds 5 --warmup-seconds 0 >"$work/health"
check "after: health answers" eq "$(field ok "$work/health")" 20
"$loadgen" --target "$target" --method validate --concurrency 1 --channels 1 --threads 1 \
  --requests 5 --seconds 5 --warmup-seconds 0 >"$work/after"
check "after: validate answers OK" eq "$(field ok "$work/after")" 5

# And it still stops cleanly, counting what it shed.
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=""
check "SIGTERM: exits 0" eq "$status" 0
grep -o 'stopped; .*' "$work/server.err" | cut -c1-400

echo "$passed passed, $failed failed"
[[ "$failed" -eq 0 ]]
