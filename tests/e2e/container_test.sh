#!/usr/bin/env bash
# The container image, end to end: builds scribe:latest with
# scripts/container.sh (reused when the source has not changed: the image
# carries a hash of the source as a label), runs it with podman on a free
# loopback port, and checks that
#   - the server in the container answers: health SERVING, and ValidateRecord
#     of examples/finkel-game.json is valid (Node's @grpc/grpc-js client);
#   - it runs as a non-root user;
#   - where the storage driver is vfs (a store of its own under a scratch
#     folder, the image copied in), the image's / is 755, a user other than
#     root can run the base's programs, and scribed starts as the image's
#     user (overlay makes a container's / 755 whatever the image says; vfs
#     keeps it);
#   - SIGTERM (podman stop) drains it and it exits 0;
#   - solved tables mounted read-only into a second container (one the
#     image's own scribe solves, one of RoyalUr's .rgu) are loaded and
#     serve exact SuggestMoves, the same chances `scribe suggest` gives;
# then removes the containers. Prints "N passed, N failed". A failed build
# shows its tests' part of the log whole (or its end when it failed before
# the tests) and keeps the whole log in ${TMPDIR:-/tmp}/scribe-container-build.log.
# Usage: container_test.sh            (run as root: podman runs rootful here)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
NODE_DIR="$ROOT/tests/e2e/node_client"
TAG="${SCRIBE_IMAGE:-scribe:latest}"
PY=/usr/bin/python3
passed=0
failed=0
pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1${2:+: $2}"; failed=$((failed + 1)); }
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}

tmp="$(mktemp -d "${TMPDIR:-/tmp}/scribe-container-test.XXXXXX")"
name="scribe-test-$$"
tables_name="scribe-test-tables-$$"
vfs_name="scribe-test-vfs-$$"
# podman on a store of its own with the vfs storage driver (the default
# store is left alone); removed with $tmp.
vfs=(podman --storage-driver vfs --root "$tmp/vfs/root" --runroot "$tmp/vfs/run")
cleanup() {
  for c in "$name" "$tables_name"; do
    if [ -n "${CONTAINERS_CONF:-}" ] && podman container exists "$c" 2>/dev/null; then
      podman rm -f -t 5 "$c" >/dev/null 2>&1
    fi
  done
  if [ -d "$tmp/vfs/root" ]; then
    "${vfs[@]}" rm -af -t 5 >/dev/null 2>&1
    "${vfs[@]}" rmi -af >/dev/null 2>&1
  fi
  rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT
# listening CONTAINER [PODMAN...]: whether scribed in it logs that it
# listens on $port within 10 s (PODMAN: the command, default podman).
listening() {
  local c="$1"
  shift
  local pm=(podman)
  if [ $# -gt 0 ]; then pm=("$@"); fi
  for _ in $(seq 1 100); do
    if grep -q "listening on port $port" <<<"$("${pm[@]}" logs "$c" 2>/dev/null)"; then return 0; fi
    sleep 0.1
  done
  return 1
}
free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# 1. The image.
start=$(date +%s)
if ! "$ROOT/scripts/container.sh" "$TAG" >"$tmp/build.log" 2>&1; then
  # The tests' part of the log, whole: each test's status, a failing one's
  # whole output (ctest --output-on-failure) and the summary; the end of
  # the log when the build failed before them.
  kept="${TMPDIR:-/tmp}/scribe-container-build.log"
  cp "$tmp/build.log" "$kept"
  if grep -q '^Test project ' "$tmp/build.log"; then
    sed -n '/^Test project /,$p' "$tmp/build.log"
  else
    tail -n 40 "$tmp/build.log"
  fi
  fail "scripts/container.sh builds $TAG" "the whole log: $kept"
  finish
fi
export CONTAINERS_CONF="$(sed -n 's/^containers_conf=//p' "$tmp/build.log" | tail -1)"
pass "image $TAG built or reused ($(($(date +%s) - start)) s; $(grep -m1 -o 'up to date\|building' "$tmp/build.log"))"
echo "  image size: $(podman image inspect --format '{{.Size}}' "$TAG" | awk '{printf "%.1f MB", $1 / 1e6}')"

user="$(podman image inspect --format '{{.Config.User}}' "$TAG")"
case "$user" in
  ""|root|0|0:*|root:*) fail "the image's USER is not root" "USER=\"$user\"" ;;
  *) pass "the image's USER is not root ($user)" ;;
esac

# 1b. Where the storage driver is vfs (CI runners that are containers):
# there a container's / has the mode the image's first layer gives it, and a
# base imported from a tar of a mode-0700 folder lets no user but root load a
# shared library (overlay makes / 755 whatever the layer says, so the default
# store here cannot show it). The image is copied into a vfs store of its own.
vfs_start=$(date +%s)
if ! podman save --quiet -o "$tmp/image.tar" "$TAG" >"$tmp/vfs.log" 2>&1 ||
   ! "${vfs[@]}" load --quiet -i "$tmp/image.tar" >>"$tmp/vfs.log" 2>&1; then
  fail "copy $TAG into a vfs store" "$(tail -n 5 "$tmp/vfs.log")"
else
  rm -f "$tmp/image.tar"
  echo "  copied into a vfs store in $(($(date +%s) - vfs_start)) s"
  mode="$("${vfs[@]}" run --rm --network=none --user 0:0 --entrypoint /usr/bin/stat "$TAG" -c '%a %u:%g' / 2>&1)"
  if [ "$mode" = "755 0:0" ]; then pass "vfs: the image's / is mode 755, root's"; else
    fail "vfs: the image's / is mode 755, root's" "$mode"
  fi
  out="$("${vfs[@]}" run --rm --network=none --user 65534:65534 --entrypoint /bin/cat "$TAG" /etc/debian_version 2>&1)"
  if [[ "$out" =~ ^12\.[0-9]+$ ]]; then pass "vfs: nobody runs the base's cat /etc/debian_version ($out)"; else
    fail "vfs: nobody runs the base's cat /etc/debian_version" "$out"
  fi
  port="$(free_port)"
  if ! "${vfs[@]}" run -d --name "$vfs_name" --network=host "$TAG" --listen "127.0.0.1:$port" >/dev/null 2>"$tmp/run.err"; then
    fail "vfs: podman run" "$(cat "$tmp/run.err")"
  else
    if listening "$vfs_name" "${vfs[@]}"; then
      vfs_uid="$("${vfs[@]}" exec "$vfs_name" id -u 2>&1)"
      if [ "$vfs_uid" != 0 ] && [[ "$vfs_uid" =~ ^[0-9]+$ ]]; then
        pass "vfs: scribed starts and listens as the image's user (uid $vfs_uid)"
      else
        fail "vfs: scribed runs as a non-root user" "id -u: $vfs_uid"
      fi
    else
      fail "vfs: scribed starts and listens as the image's user" \
        "$("${vfs[@]}" logs "$vfs_name" 2>&1 | tail -n 5)"
    fi
    "${vfs[@]}" rm -f -t 5 "$vfs_name" >/dev/null 2>&1
  fi
fi

# 2. The Node client (the same packages as tests/e2e/node_client).
if [ ! -d "$NODE_DIR/node_modules/@grpc/grpc-js" ] || [ ! -d "$NODE_DIR/node_modules/@grpc/proto-loader" ]; then
  if ! (cd "$NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error) >"$tmp/npm.log" 2>&1; then
    fail "the Node client's npm packages install" "$(tail -n 20 "$tmp/npm.log")"; finish
  fi
fi
cat >"$tmp/check.js" <<'JS'
// node check.js ADDRESS ROOT: health, then ValidateRecord of the example.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const [address, root] = process.argv.slice(2);
const opts = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  includeDirs: [path.join(root, 'proto'), '/usr/share/grpc-proto', '/usr/include'] };
const scribe = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/scribe_service.proto', opts));
const health = grpc.loadPackageDefinition(protoLoader.loadSync('grpc/health/v1/health.proto', opts));
const deadline = () => ({ deadline: Date.now() + 10000 });
const call = (c, m, req) => new Promise((res, rej) =>
  c[m](req, new grpc.Metadata(), deadline(), (e, r) => (e ? rej(e) : res(r))));
(async () => {
  const h = new health.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
  const s = new scribe.scribe.v1.ScribeService(address, grpc.credentials.createInsecure());
  const hr = await call(h, 'Check', { service: '' });
  console.log(`health: ${hr.status}`);
  const v = await call(s, 'ValidateRecord',
    { input: { text: fs.readFileSync(path.join(root, 'examples', 'finkel-game.json')) } });
  console.log(`validate: valid=${v.valid} findings=${v.findings.length}`);
  h.close(); s.close();
  process.exit(hr.status === 'SERVING' && v.valid === true ? 0 : 1);
})().catch((e) => { console.log(`error: ${e.message}`); process.exit(1); });
JS

# 3. Run it on a free loopback port.
port="$(free_port)"
if ! podman run -d --name "$name" --network=host "$TAG" --listen "127.0.0.1:$port" >/dev/null 2>"$tmp/run.err"; then
  fail "podman run" "$(cat "$tmp/run.err")"
  finish
fi
if listening "$name"; then pass "scribed in the container listens on 127.0.0.1:$port"; else
  fail "scribed in the container listens on 127.0.0.1:$port" "$(podman logs "$name" 2>&1 | tail -5)"
fi

out="$(NODE_PATH="$NODE_DIR/node_modules" node "$tmp/check.js" "127.0.0.1:$port" "$ROOT" 2>&1)"
if [ $? -eq 0 ]; then pass "a client gets SERVING and a valid finkel-game.json (${out//$'\n'/, })"; else
  fail "client: health SERVING and ValidateRecord" "$out"
fi

# 4. Not root: the uid inside, and the process as the host sees it.
uid="$(podman exec "$name" id -u 2>&1)"
if [ "$uid" != "0" ] && [[ "$uid" =~ ^[0-9]+$ ]]; then pass "podman exec id -u is $uid, not 0"; else
  fail "podman exec id -u is not 0" "$uid"
fi
top="$(podman top "$name" user huser args 2>&1)"
echo "$top" | sed 's/^/  /'
if echo "$top" | awk 'NR > 1 && /scribed/ {found = 1; if ($1 == "root" || $1 == "0" || $2 == "root" || $2 == "0") bad = 1}
                       END {exit !(found && !bad)}'; then
  pass "podman top: scribed runs as a non-root user"
else
  fail "podman top: scribed runs as a non-root user"
fi

# 5. SIGTERM: drain and exit 0.
stop_start=$(date +%s%N)
podman stop -t 30 "$name" >/dev/null 2>&1
code="$(podman inspect --format '{{.State.ExitCode}}' "$name" 2>&1)"
took="$(awk -v ns=$(($(date +%s%N) - stop_start)) 'BEGIN {printf "%.1f", ns / 1e9}')"
if [ "$code" = "0" ]; then pass "podman stop (SIGTERM): exit code 0 after ${took} s"; else
  fail "podman stop (SIGTERM): exit code 0" "exit code $code"
fi
logs="$(podman logs "$name" 2>&1)"
if grep -q "signal 15: draining" <<<"$logs" && grep -q "stopped; metrics" <<<"$logs"; then
  pass "the server logged the SIGTERM drain and its final counters"
else
  fail "the server logged the SIGTERM drain" "$(tail -3 <<<"$logs")"
fi

# 6. Remove it.
podman rm "$name" >/dev/null 2>&1
if podman container exists "$name"; then fail "container removed"; else pass "container removed"; fi

# 7. Tables on a read-only volume (docs/deploy.md, "Solved tables"): one
# solved by the image's own scribe, one of RoyalUr's, given to scribed with
# --table; a client gets exact SuggestMoves from each.
mkdir -p "$tmp/tables"
chmod 777 "$tmp/tables"   # the image's user (10001) writes the solved table
cp "$ROOT/tests/data/royalur-lut/blitz-2p.rgu" "$tmp/tables/"
if podman run --rm --network=none -v "$tmp/tables:/tables" --entrypoint /usr/local/bin/scribe "$TAG" \
     solve --ruleset "finkel(pieces=3)" --out /tables/finkel-3.tbl --quiet >"$tmp/solve.log" 2>&1; then
  pass "the image's scribe solves finkel(pieces=3) into a mounted folder ($(du -k "$tmp/tables/finkel-3.tbl" | cut -f1) KiB)"
else
  fail "the image's scribe solves finkel(pieces=3)" "$(tail -3 "$tmp/solve.log")"
fi
if ! podman run -d --name "$tables_name" --network=host -v "$tmp/tables:/tables:ro" "$TAG" \
     --listen "127.0.0.1:$port" --table /tables/finkel-3.tbl --table /tables/blitz-2p.rgu >/dev/null 2>"$tmp/run.err"; then
  fail "podman run with the tables" "$(cat "$tmp/run.err")"
  finish
fi
listening "$tables_name" && up=1 || up=0
logs="$(podman logs "$tables_name" 2>&1)"
if [ "$up" = 1 ] && grep -q "table /tables/finkel-3.tbl: " <<<"$logs" && grep -q "table /tables/blitz-2p.rgu: " <<<"$logs"
then
  pass "scribed loads both mounted tables ($(grep -c 'INFO scribed: table /tables/' <<<"$logs") logged)"
else
  fail "scribed loads both mounted tables" "$(tail -5 <<<"$logs")"
fi
cat >"$tmp/suggest.js" <<'JS'
// node suggest.js ADDRESS ROOT RULESET ROLL: SuggestMoves at the start, as JSON.
'use strict';
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const [address, root, ruleset, roll] = process.argv.slice(2);
const opts = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  includeDirs: [path.join(root, 'proto'), '/usr/share/grpc-proto', '/usr/include'] };
const scribe = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/scribe_service.proto', opts));
const s = new scribe.scribe.v1.ScribeService(address, grpc.credentials.createInsecure());
s.SuggestMoves({ ruleset: { reference: ruleset }, roll: Number(roll) }, new grpc.Metadata(),
  { deadline: Date.now() + 10000 }, (e, r) => {
    if (e) { console.log(`error: ${e.message}`); process.exit(1); }
    console.log(JSON.stringify({ exact: r.exact, evaluator: r.evaluator,
      chances: r.moves.map((m) => m.chance.toFixed(6)) }));
    s.close();
  });
JS
for ruleset_table in "finkel(pieces=3) finkel-3.tbl" "blitz(pieces=2) blitz-2p.rgu"; do
  read -r ruleset table <<<"$ruleset_table"
  got="$(NODE_PATH="$NODE_DIR/node_modules" node "$tmp/suggest.js" "127.0.0.1:$port" "$ROOT" "$ruleset" 2 2>&1)"
  want="$(podman run --rm --network=none -v "$tmp/tables:/tables:ro" --entrypoint /usr/local/bin/scribe "$TAG" \
            suggest --ruleset "$ruleset" --roll 2 --table "/tables/$table" --format=json 2>&1 |
          "$PY" -c 'import json, sys; print(" ".join("%.6f" % m["chance"] for m in json.load(sys.stdin)["moves"]))' 2>&1)"
  got_chances="$("$PY" -c 'import json, sys; d = json.load(sys.stdin); print(d["exact"], " ".join(d["chances"]))' \
                 <<<"$got" 2>&1)"
  if [ "$got_chances" = "True $want" ] && [ -n "$want" ]; then
    pass "SuggestMoves $ruleset, throw 2: exact, from the mounted $table, as scribe suggest ($want)"
  else
    fail "SuggestMoves $ruleset from the mounted $table" "got: $got; scribe suggest: $want"
  fi
done
podman stop -t 30 "$tables_name" >/dev/null 2>&1
podman rm "$tables_name" >/dev/null 2>&1
finish
