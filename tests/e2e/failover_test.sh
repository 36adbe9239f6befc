#!/usr/bin/env bash
# Failover loses nothing: three scribed replicas behind nginx
# (tests/e2e/replicas_lib.sh), the load generator with the published service
# config (docker/service-config.json: UNAVAILABLE retried on every unary
# method), and one replica killed with SIGKILL mid-run.
#   1. the service config names exactly the unary methods of
#      proto/scribe/v1/scribe_service.proto (no streaming one, none missing
#      or misspelt);
#   2. with it, no call fails though a replica dies with calls in flight,
#      but those whose answer had begun (counted: no retry can save them);
#      prints the calls retried (attempts in nginx's access log, one line
#      each, minus the calls the client made: the retries are invisible to
#      the client's code), the calls nginx passed on itself, and the p99
#      latency of the calls started in the 5 s from the kill;
#   3. the same without the service config, a second replica killed: the
#      calls that fail then are printed, not asserted (how many depends on
#      timing), as the measure of what the retries save.
# Prints "N passed, N failed".
# Usage: failover_test.sh PATH_TO_SCRIBED PATH_TO_LOADGEN
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIBED="$(realpath "${1:?usage: failover_test.sh SCRIBED LOADGEN}")"
LOADGEN="$(realpath "${2:?usage: failover_test.sh SCRIBED LOADGEN}")"
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
CONFIG="$ROOT/docker/service-config.json"
SECONDS_RUN="${SCRIBE_FAILOVER_SECONDS:-6}"
passed=0
failed=0
pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1${2:+: $2}"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/scribe-failover-test.XXXXXX")"
. "$ROOT/tests/e2e/replicas_lib.sh"
trap 'cleanup_replicas; rm -rf "$tmp"' EXIT

# 1. The config's methods against the proto's unary ones.
proto_unary="$(sed -n 's/^ *rpc \([A-Za-z]*\)(\([A-Za-z]*\)) returns (\([A-Za-z]*\));.*/\1/p' \
  "$ROOT/proto/scribe/v1/scribe_service.proto" | sort)"
config_methods="$(/usr/bin/python3 - "$CONFIG" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
for method_config in config["methodConfig"]:
    assert method_config["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"], method_config
    for name in method_config["name"]:
        assert name["service"] == "scribe.v1.ScribeService", name
        print(name["method"])
PY
)"
config_methods="$(sort <<<"$config_methods")"
if [ -n "$proto_unary" ] && [ "$proto_unary" = "$config_methods" ]; then
  pass "the service config retries UNAVAILABLE on exactly the unary methods ($(echo $proto_unary))"
else
  fail "the service config retries UNAVAILABLE on exactly the unary methods" \
    "proto: $(echo $proto_unary); config: $(echo $config_methods)"
fi

start_replicas
start_nginx

# One loadgen run: ValidateRecord through nginx for $SECONDS_RUN s, 16 calls
# outstanding on 4 connections, replica $1 killed 2 s in; the rest of the
# arguments go to loadgen. Sets out (its report) and result (its last line).
run() {
  local victim="$1"
  shift
  out="$("$LOADGEN" --target "127.0.0.1:$lb_port" --method validate --seconds "$SECONDS_RUN" \
    --warmup-seconds 0 --concurrency 16 --channels 4 --timeout-ms 10000 \
    --kill-pid "${pids[$((victim - 1))]}" --kill-after-seconds 2 --failover-seconds 5 "$@" 2>&1)"
  local code=$?
  result="$(grep '^result ' <<<"$out" || true)"
  if [ "$code" -ne 0 ] || [ -z "$result" ]; then
    fail "loadgen runs (exit $code)" "$out"; finish
  fi
  wait "${pids[$((victim - 1))]}" 2>/dev/null
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$result"; }
attempts() { grep -c '"POST /scribe.v1.ScribeService/ValidateRecord' "$prefix/logs/access.log" || true; }
passed_on() { grep -c 'upstream=[^ ]*, ' "$prefix/logs/access.log" || true; }

# 2. With the service config, replica 2 dies with calls in flight.
run 2 --service-config "$CONFIG"
sleep 1  # nginx logs a call when it ends
calls="$(field completed)"
lost="$(field failed)"
retried=$(($(attempts) - calls))
echo "$out" | sed 's/^/  /'
if [ "$(field killed)" = 1 ]; then pass "replica 2 was killed (SIGKILL) 2 s into the run"; else
  fail "replica 2 was killed" "$result"; fi
summary="$calls calls, $lost failed, $retried retried by the client, $(passed_on) passed on by nginx;"
summary+=" the 5 s from the kill: $(field failover_calls) calls, $(field failover_failed) failed,"
summary+=" p99 $(field failover_p99_ms) ms, max $(field failover_max_ms) ms"
echo "  with the service config: $summary"
# A call whose answer had begun when the replica died (nginx had passed on
# its headers, then the connection was reset: nginx resets the stream,
# RST_STREAM INTERNAL_ERROR) cannot be retried by any policy: gRPC commits
# a call once its answer begins. Counted apart; every other failure fails.
cut="$(sed -n 's/^    failed: INTERNAL: Received RST_STREAM with error code 2 (\([0-9]*\))$/\1/p' <<<"$out")"
cut="${cut:-0}"
echo "  calls cut mid-answer (not retryable): $cut"
if [ "${lost:-1}" -eq "$cut" ] && [ "${calls:-0}" -gt 0 ]; then
  pass "with the service config no call fails but those cut mid-answer ($summary; cut mid-answer: $cut)"
else
  fail "with the service config no call fails but those cut mid-answer" "$summary; cut mid-answer: $cut"
  echo "  nginx error log:"; grep -v '\[notice\]' "$prefix/logs/error.log" | tail -8 | sed 's/^/    /'
  echo "  access log, calls not OK:"; grep -v ' 200 .*grpc_status=0 ' "$prefix/logs/access.log" | tail -8 | sed 's/^/    /'
fi

# 3. Without it, replica 3 dies: measured, not asserted.
before_attempts="$(attempts)"
before_passed_on="$(passed_on)"
run 3
sleep 1
calls="$(field completed)"
summary="$calls calls, $(field failed) failed, $(($(attempts) - before_attempts - calls)) retried by the client,"
summary+=" $(($(passed_on) - before_passed_on)) passed on by nginx; the 5 s from the kill:"
summary+=" $(field failover_calls) calls, $(field failover_failed) failed, p99 $(field failover_p99_ms) ms"
echo "  without the service config: $summary"
grep '^    failed: ' <<<"$out" || true
finish
