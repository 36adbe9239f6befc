#!/usr/bin/env bash
# Scaling out, tested: three scribed replicas on free loopback ports behind
# nginx (tests/e2e/replicas_lib.sh: docker/nginx/scribe-lb.conf, its ports
# rewritten to free ones, run as a foreground process with its own prefix
# under a temporary folder). A replica killed with SIGKILL and the service
# config's retries: tests/e2e/failover_test.sh.
#   1. many calls through nginx all succeed, and every replica served some
#      (each replica's --metrics-file, written every second);
#   2. one replica is stopped with SIGTERM while calls flow: it exits 0, and
#      every call keeps succeeding (nginx's grpc_next_upstream passes on the
#      calls it could not connect for; the few caught mid-shutdown are
#      retried by the client), served by the two left;
#   3. with it gone, calls without any client retry all succeed: nginx alone
#      routes around it.
# Prints "N passed, N failed".
# Usage: replicas_test.sh PATH_TO_SCRIBED
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIBED="$(realpath "${1:-$ROOT/build/service/scribed}")"
NODE_DIR="$ROOT/tests/e2e/node_client"
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
CALLS="${SCRIBE_REPLICA_CALLS:-600}"
passed=0
failed=0
pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1${2:+: $2}"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/scribe-replicas-test.XXXXXX")"
. "$ROOT/tests/e2e/replicas_lib.sh"
trap 'cleanup_replicas; rm -rf "$tmp"' EXIT

if [ ! -x "$NGINX" ]; then fail "nginx is installed (scripts/setup.sh)"; finish; fi
# The Node client's npm packages, installed once.
if ! bash "$NODE_DIR/install.sh" >"$tmp/npm.log" 2>&1; then
  fail "the Node client's npm packages install (tests/e2e/node_client/install.sh)" "$(tail -n 20 "$tmp/npm.log")"; finish
fi

# 1. Three replicas, each on a free port, writing its counters every second.
start_replicas
# 2. nginx with docker/nginx/scribe-lb.conf, its ports rewritten.
start_nginx

cat >"$tmp/load.js" <<'JS'
// node load.js ADDRESS ROOT CALLS [PID_TO_STOP]: CALLS ValidateRecord calls,
// 8 at a time, on one channel to nginx; with a PID, sends it SIGTERM once a
// third of the calls are done. With RETRIES=N, a call that fails with
// UNAVAILABLE or CANCELLED is tried again up to N times (50 ms apart);
// without, every call that fails is counted.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const [address, root, n, pid] = process.argv.slice(2);
const total = Number(n);
const opts = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  includeDirs: [path.join(root, 'proto'), '/usr/share/grpc-proto', '/usr/include'] };
const scribe = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/scribe_service.proto', opts));
const client = new scribe.scribe.v1.ScribeService(address, grpc.credentials.createInsecure(),
  { 'grpc.enable_retries': 0 });
const text = fs.readFileSync(path.join(root, 'examples', 'finkel-game.json'));
const maxRetries = Number(process.env.RETRIES || 0);
let started = 0, ok = 0, bad = 0, retried = 0, stopped = false;
const errors = {};
const attempt = () => new Promise((resolve) =>
  client.ValidateRecord({ input: { text } }, { deadline: Date.now() + 10000 }, (e, r) => resolve([e, r])));
async function one() {
  for (let tries = 0; ; tries++) {
    const [e, r] = await attempt();
    const retryable = e && (e.code === grpc.status.UNAVAILABLE || e.code === grpc.status.CANCELLED);
    if (retryable && tries < maxRetries) {
      retried++;
      errors['retried: ' + e.message] = (errors['retried: ' + e.message] || 0) + 1;
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (e) { bad++; errors[e.message] = (errors[e.message] || 0) + 1; }
    else if (r.valid) ok++; else { bad++; errors['not valid'] = (errors['not valid'] || 0) + 1; }
    return;
  }
}
async function worker() {
  while (started < total) {
    started++;
    if (pid && !stopped && started >= total / 3) { stopped = true; process.kill(Number(pid), 'SIGTERM'); }
    await one();
  }
}
Promise.all(Array.from({ length: 8 }, worker)).then(() => {
  console.log(JSON.stringify({ ok, failed: bad, client_retries: retried, errors }));
  client.close();
  process.exit(bad === 0 && ok === total ? 0 : 1);
});
JS

# The ValidateRecord calls a replica finished, from its metrics file.
served() {  # calls that finished OK
  awk '/^scribe_calls_total\{method="[^"]*ValidateRecord",code="0"\}/ {n += $NF} END {print n + 0}' "$tmp/replica$1.prom" 2>/dev/null || echo 0
}
wait_metrics() { sleep 2.5; }  # two metrics intervals

# 3. Phase 1: every call succeeds, and all three replicas served some.
out="$(NODE_PATH="$NODE_DIR/node_modules" node "$tmp/load.js" "127.0.0.1:$lb_port" "$ROOT" "$CALLS" 2>&1)"
if [ $? -eq 0 ]; then pass "$CALLS calls through nginx all succeed ($out)"; else fail "$CALLS calls through nginx" "$out"; fi
wait_metrics
c1=("$(served 1)" "$(served 2)" "$(served 3)")
echo "  calls served per replica: ${c1[*]}"
if [ "${c1[0]}" -gt 0 ] && [ "${c1[1]}" -gt 0 ] && [ "${c1[2]}" -gt 0 ] && \
   [ $((c1[0] + c1[1] + c1[2])) -eq "$CALLS" ]; then
  pass "the calls reached all three replicas (${c1[0]} + ${c1[1]} + ${c1[2]} = $CALLS)"
else
  fail "the calls reached all three replicas" "${c1[*]}"
fi

# 4. Phase 2: replica 2 gets SIGTERM a third of the way through; no call fails.
# nginx passes on a call it could not connect for (grpc_next_upstream), but
# it cannot resend a call whose request it already streamed to the replica:
# a call caught in the instant the replica shuts down (its connection reset,
# nginx answers 502 = UNAVAILABLE; or the server CANCELLED it before it
# started) reaches the client, which tries it again (RETRIES=2), as gRPC
# clients should for UNAVAILABLE.
out="$(RETRIES=2 NODE_PATH="$NODE_DIR/node_modules" node "$tmp/load.js" "127.0.0.1:$lb_port" "$ROOT" "$CALLS" "${pids[1]}" 2>&1)"
if [ $? -eq 0 ]; then pass "with replica 2 stopped midway, $CALLS more calls all succeed ($out)"; else
  fail "with replica 2 stopped midway, every call succeeds" "$out"
  echo "  nginx error log:"; grep -v '\[notice\]' "$prefix/logs/error.log" | tail -8 | sed 's/^/    /'
  echo "  access log, failed calls:"; grep -v ' 200 .*grpc_status=0 ' "$prefix/logs/access.log" | tail -5 | sed 's/^/    /'
fi
wait "${pids[1]}"
code=$?
if [ "$code" -eq 0 ]; then pass "replica 2 exited 0 on SIGTERM"; else fail "replica 2 exits 0 on SIGTERM" "exit $code"; fi
wait_metrics
c2=("$(served 1)" "$(served 2)" "$(served 3)")
echo "  calls served per replica after phase 2: ${c2[*]}"
# (at least: a call a replica finished just as its connection was reset is
# counted there and again where the client's retry went)
if [ $((c2[0] + c2[1] + c2[2])) -ge $((2 * CALLS)) ] && [ "${c2[0]}" -gt "${c1[0]}" ] && [ "${c2[2]}" -gt "${c1[2]}" ]; then
  pass "the two replicas left took the rest ($((c2[0] - c1[0])) + $((c2[1] - c1[1])) + $((c2[2] - c1[2])))"
else
  fail "the two replicas left took the rest" "${c2[*]}"
fi
retried="$(grep -c 'upstream=[^ ]*, ' "$prefix/logs/access.log" 2>/dev/null || true)"
echo "  nginx passed ${retried:-0} calls on to another replica (access log: upstream=A, B)"

# 5. With replica 2 gone, no client retries: nginx alone passes the calls it
# cannot connect for to the replicas left.
before="$(grep -c . "$prefix/logs/access.log")"
out="$(NODE_PATH="$NODE_DIR/node_modules" node "$tmp/load.js" "127.0.0.1:$lb_port" "$ROOT" 300 2>&1)"
if [ $? -eq 0 ]; then pass "with replica 2 gone, 300 calls without client retries all succeed ($out)"; else
  fail "with replica 2 gone, 300 calls without client retries all succeed" "$out"; fi
passed_on="$(tail -n +"$((before + 1))" "$prefix/logs/access.log" | grep -c 'upstream=[^ ]*, ' || true)"
echo "  of those, nginx passed ${passed_on:-0} on from the stopped replica (after a failure it keeps a replica" \
     "out for fail_timeout=5s, then tries it again)"
finish
