#!/usr/bin/env bash
# Failover loses nothing, for every client: three scribed replicas behind
# nginx (tests/e2e/replicas_lib.sh: docker/nginx/scribe-lb.conf, its ports
# rewritten), clients with the published service config
# (docker/service-config.json: UNAVAILABLE retried on every unary method),
# and one replica frozen (SIGSTOP) then killed (SIGKILL) with calls in flight.
#   1. the service config names exactly the unary methods of
#      proto/scribe/v1/scribe_service.proto (no streaming one, none missing
#      or misspelt);
#   2. every answer nginx makes itself is a gRPC answer: HTTP 200,
#      content-type application/grpc, grpc-status and grpc-message in one
#      HEADERS frame that ends the stream ("trailers-only"), nothing after:
#      no replica answers (502: UNAVAILABLE), a malformed request (400:
#      INTERNAL), no replica accepts the connection in time (504:
#      UNAVAILABLE); each client retries the 502 as its policy says (nginx
#      logs 4 attempts, maxAttempts, of the one call; 1 without the service
#      config), and gets RESOURCE_EXHAUSTED, once, for a request over
#      client_max_body_size (413);
#   3. the C++ load generator (bench/loadgen), the Node client (grpc-js,
#      tests/e2e/node_client/failover_load.js) and Python's grpcio
#      (tests/e2e/failover_client.py), each with the service config, 30
#      calls outstanding for SCRIBE_FAILOVER_SECONDS (default 8) s, fresh
#      replicas for each run: once calls flow, replica 2 is frozen, 1 s
#      later (the calls it was sent stuck in it) killed: the kill caught
#      calls in it (nginx's error log: their connections reset before an
#      answer), and no call fails. Prints the calls made, failed, retried by
#      the client (attempts in nginx's access log, one line each, less the
#      calls the client made: the retries are invisible to the client's
#      code), answered UNAVAILABLE by nginx, and caught by the kill. Each
#      client runs SCRIBE_FAILOVER_RUNS (default 1) times;
#   4. the load generator without the service config: the calls that fail
#      then are printed, not asserted (how many depends on timing), as the
#      measure of what the retries save.
# Prints "N passed, N failed".
# Usage: failover_test.sh PATH_TO_SCRIBED PATH_TO_LOADGEN
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIBED="$(realpath "${1:?usage: failover_test.sh SCRIBED LOADGEN}")"
LOADGEN="$(realpath "${2:?usage: failover_test.sh SCRIBED LOADGEN}")"
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
NODE_DIR="$ROOT/tests/e2e/node_client"
PYTHON=/usr/bin/python3
CONFIG="$ROOT/docker/service-config.json"
RECORD="$ROOT/examples/finkel-game.json"
METHOD=/scribe.v1.ScribeService/ValidateRecord
SECONDS_RUN="${SCRIBE_FAILOVER_SECONDS:-8}"
RUNS="${SCRIBE_FAILOVER_RUNS:-1}"
CONCURRENCY=30
passed=0
failed=0
pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1${2:+: $2}"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/scribe-failover-test.XXXXXX")"
. "$ROOT/tests/e2e/replicas_lib.sh"
hole_pid=""
client_pid=""
trap '[ -n "$client_pid" ] && kill "$client_pid" 2>/dev/null; [ -n "$hole_pid" ] && kill "$hole_pid" 2>/dev/null
      cleanup_replicas; rm -rf "$tmp"' EXIT

# 1. The config's methods against the proto's unary ones.
proto_unary="$(sed -n 's/^ *rpc \([A-Za-z]*\)(\([A-Za-z]*\)) returns (\([A-Za-z]*\));.*/\1/p' \
  "$ROOT/proto/scribe/v1/scribe_service.proto" | sort)"
config_methods="$("$PYTHON" - "$CONFIG" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
for method_config in config["methodConfig"]:
    assert method_config["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"], method_config
    assert method_config["retryPolicy"]["maxAttempts"] == 4, method_config
    for name in method_config["name"]:
        assert name["service"] == "scribe.v1.ScribeService", name
        print(name["method"])
PY
)"
config_methods="$(sort <<<"$config_methods")"
if [ -n "$proto_unary" ] && [ "$proto_unary" = "$config_methods" ]; then
  pass "the service config retries UNAVAILABLE (4 attempts) on exactly the unary methods ($(echo $proto_unary))"
else
  fail "the service config retries UNAVAILABLE (4 attempts) on exactly the unary methods" \
    "proto: $(echo $proto_unary); config: $(echo $config_methods)"
fi

# The clients: nginx, Node with the locked npm packages, Python's grpcio
# (scripts/setup.sh installs them all).
if [ ! -x "$NGINX" ]; then fail "nginx is installed (scripts/setup.sh)"; finish; fi
if ! bash "$NODE_DIR/install.sh" >"$tmp/npm.log" 2>&1; then
  fail "the Node client's npm packages install (tests/e2e/node_client/install.sh)" "$(tail -n 20 "$tmp/npm.log")"; finish
fi
if ! "$PYTHON" -c 'import grpc' 2>"$tmp/python.log"; then
  fail "Python's grpcio is installed (python3-grpcio, scripts/setup.sh)" "$(cat "$tmp/python.log")"; finish
fi

# client NAME SECONDS [SERVICE_CONFIG]: the command line of one client run
# through nginx ($CONCURRENCY calls outstanding; SECONDS 0: one call), into
# the array cmd.
client() {
  local name="$1" seconds="$2" config="${3:-}" concurrency="$CONCURRENCY"
  [ "$seconds" = 0 ] && concurrency=1
  case "$name" in
    C++)
      if [ "$seconds" = 0 ]; then
        cmd=("$LOADGEN" --target "127.0.0.1:$lb_port" --method validate --record "$RECORD" --requests 1
             --seconds 10 --warmup-seconds 0 --concurrency 1 --channels 1 --timeout-ms 10000)
      else
        cmd=("$LOADGEN" --target "127.0.0.1:$lb_port" --method validate --record "$RECORD" --seconds "$seconds"
             --warmup-seconds 0 --concurrency "$CONCURRENCY" --channels 4 --timeout-ms 10000)
      fi
      [ -n "$config" ] && cmd+=(--service-config "$config") ;;
    Node) cmd=(node "$NODE_DIR/failover_load.js" "127.0.0.1:$lb_port" "$RECORD" "$seconds" "$concurrency" $config) ;;
    Python) cmd=("$PYTHON" "$ROOT/tests/e2e/failover_client.py" "127.0.0.1:$lb_port" "$RECORD" "$seconds"
                 "$concurrency" $config) ;;
  esac
}
field() { sed -n "s/^result.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
attempts() { grep -c "\"POST $METHOD " "$prefix/logs/access.log" || true; }
# proxy_answer [BYTES [AUTHORITY]]: how nginx framed its answer to one call.
proxy_answer() {
  node "$NODE_DIR/proxy_answer.js" "127.0.0.1:$lb_port" "$METHOD" "${1:-5}" ${2:+"$2"} 2>&1
}
# expect_grpc_answer WHAT GRPC_STATUS MESSAGE_START ANSWER
expect_grpc_answer() {
  local want="status=200 end_stream=1 content_type=application/grpc grpc_status=$2 data_bytes=0 trailers=0 message=$3"
  if [[ "$4" == "$want"* ]]; then pass "$1: a gRPC answer ($4)"; else fail "$1: a gRPC answer, $want..." "$4"; fi
}

# 2. The answers nginx makes itself. No replica: the three ports refuse.
port="$(free_port)"
ports=("$port" "$port" "$port")
start_nginx
answer="$(proxy_answer)"
expect_grpc_answer "no replica answers (nginx 502)" 14 "scribe-lb: no replica answered" "$answer"
answer="$(proxy_answer 5 ..)"
expect_grpc_answer "a malformed request (nginx 400)" 13 "scribe-lb: bad request" "$answer"
# Each client retries nginx's UNAVAILABLE as its policy says.
for name in C++ Node Python; do
  for config in "$CONFIG" ""; do
    before="$(attempts)"
    client "$name" 0 "$config"
    out="$("${cmd[@]}" 2>&1)"
    tries=$(($(attempts) - before))
    want=4 with="with the service config"
    [ -z "$config" ] && want=1 with="without the service config"
    if [ "$(field completed "$out")" = 1 ] && [ "$(field failed "$out")" = 1 ] && \
       grep -q '^    failed: UNAVAILABLE: scribe-lb: no replica answered' <<<"$out" && [ "$tries" -eq "$want" ]; then
      pass "$name $with: nginx's UNAVAILABLE reaches the call after $tries attempts"
    else
      fail "$name $with: nginx's UNAVAILABLE reaches the call after $want attempts" "$tries attempts; $out"
    fi
  done
done
cleanup_replicas
# No replica accepts a connection: one port whose listen queue is full (a
# listening socket that never accepts, backlog 0, one connection waiting),
# so that nginx's connects time out (grpc_connect_timeout, each of 3 tries).
"$PYTHON" -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
waiting = [socket.create_connection(s.getsockname())]
print(s.getsockname()[1], flush=True)
time.sleep(60)' >"$tmp/hole.port" &
hole_pid=$!
for _ in $(seq 1 50); do [ -s "$tmp/hole.port" ] && break; sleep 0.1; done
port="$(cat "$tmp/hole.port")"
ports=("$port" "$port" "$port")
start_nginx
answer="$(proxy_answer)"
expect_grpc_answer "no replica accepts in time (nginx 504)" 14 "scribe-lb: no replica answered in time" "$answer"
cleanup_replicas
kill "$hole_pid" 2>/dev/null; wait "$hole_pid" 2>/dev/null; hole_pid=""
# A request over client_max_body_size (16m) through live replicas: nginx
# stops at 16 MiB (the replica, whose limit is 16 MiB too, has not got the
# whole message yet) and answers RESOURCE_EXHAUSTED, which no policy retries.
start_replicas
start_nginx
head -c $((17 << 20)) /dev/zero >"$tmp/large.record"
for name in C++ Node Python; do
  before="$(attempts)"
  RECORD="$tmp/large.record" client "$name" 0 "$CONFIG"
  out="$("${cmd[@]}" 2>&1)"
  tries=$(($(attempts) - before))
  if [ "$(field failed "$out")" = 1 ] && [ "$tries" -eq 1 ] && \
     grep -q '^    failed: RESOURCE_EXHAUSTED: scribe-lb: request larger than client_max_body_size' <<<"$out"; then
    pass "$name, a request of 17 MiB: nginx's RESOURCE_EXHAUSTED (413) reaches the call, not retried"
  else
    fail "$name, a request of 17 MiB: nginx's RESOURCE_EXHAUSTED (413) reaches the call, not retried" "$tries attempts; $out"
  fi
done
cleanup_replicas

# 3. Failover, each client, fresh replicas each run.
# run_failover NAME [SERVICE_CONFIG]: replica 2 frozen once calls flow, then
# killed 1 s later. Sets out (the client's report), calls, lost, cut and
# summary; false (and a failure counted) when the run itself went wrong.
# The replicas and nginx are left for the caller to stop (cleanup_replicas).
run_failover() {
  local name="$1" config="${2:-}" victim running=1 code tries unavailable
  start_replicas
  start_nginx
  victim="${pids[1]}"
  client "$name" "$SECONDS_RUN" "$config"
  "${cmd[@]}" >"$tmp/client.out" 2>&1 &
  client_pid=$!
  # Calls flow: 100 in nginx's access log (at most 20 s).
  for _ in $(seq 1 200); do [ "$(attempts)" -ge 100 ] && break; sleep 0.1; done
  kill -STOP "$victim"
  sleep 1
  kill -KILL "$victim"
  kill -0 "$client_pid" 2>/dev/null || running=0
  # (quiet: bash would report the replica's death on the next wait)
  { wait "$client_pid"; } 2>/dev/null
  code=$?
  client_pid=""
  { wait "$victim"; } 2>/dev/null
  out="$(cat "$tmp/client.out")"
  sleep 1  # nginx logs a call when it ends
  calls="$(field completed "$out")"
  lost="$(field failed "$out")"
  if [ "$code" -ne 0 ] || [ -z "$calls" ] || [ -z "$lost" ]; then fail "$name runs (exit $code)" "$out"; return 1; fi
  if [ "$running" -eq 0 ]; then fail "$name was still running when replica 2 was killed" "$out"; return 1; fi
  tries="$(attempts)"
  unavailable="$(grep -c ' 200 upstream=.* grpc_status=14 ' "$prefix/logs/access.log" || true)"
  # The calls the kill caught inside replica 2: their connection reset (or
  # closed) before a response header, one error line each.
  cut="$(grep -c "\[error\] .* while reading response header from upstream, .*upstream: \"grpc://127.0.0.1:${ports[1]}\"" \
    "$prefix/logs/error.log" || true)"
  summary="$calls calls, $lost failed, $((tries - calls)) retried by the client, $unavailable answered UNAVAILABLE"
  summary+=" by nginx, $cut caught in replica 2 by the kill"
}

for name in C++ Node Python; do
  for run in $(seq 1 "$RUNS"); do
    if run_failover "$name" "$CONFIG"; then
      echo "  $name, run $run: $summary"
      grep '^    failed: ' <<<"$out" || true
      if [ "$lost" -eq 0 ] && [ "$calls" -gt 0 ] && [ "$cut" -gt 0 ]; then
        pass "$name with the service config: no call fails though replica 2 died with calls in it ($summary)"
      else
        fail "$name with the service config: no call fails though replica 2 died with calls in it" "$summary"
        echo "  nginx error log:"; grep -v '\[notice\]' "$prefix/logs/error.log" | tail -8 | sed 's/^/    /'
        echo "  access log, calls not OK:"; grep -v ' 200 .*grpc_status=0 ' "$prefix/logs/access.log" | tail -8 | sed 's/^/    /'
      fi
    fi
    cleanup_replicas
  done
done

# 4. Without it: measured, not asserted.
if run_failover C++; then
  echo "  C++ without the service config: $summary"
  grep '^    failed: ' <<<"$out" || true
fi
cleanup_replicas
finish
