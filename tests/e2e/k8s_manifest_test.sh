#!/usr/bin/env bash
# The Kubernetes manifests (docker/k8s/base/*.yaml) against what the server and
# the build really do. No cluster is needed: the manifests are parsed
# (python3-yaml) and what they name is compared with
#   - the image scripts/container.sh builds (tag), and docker/Dockerfile
#     (EXPOSE, the numeric USER the pod's runAsUser names);
#   - scribed --help: every flag in the Deployment's args is one it accepts;
#   - scribed itself, started with the Deployment's exact args: it answers
#     grpc.health.v1 SERVING on the port the containerPort and both gRPC
#     probes name, and exits 0 on SIGTERM. It runs in a network namespace of
#     its own (unshare -n, loopback only), so the args are used unchanged
#     (0.0.0.0:50051 binds nothing outside, and a busy 50051 on this machine
#     cannot interfere); without unshare it runs with the address replaced by
#     127.0.0.1 and the same port;
#   - the Service targets the container port and selects the pods;
#   - the HPA (autoscaling/v2, CPU) scales the Deployment by its name, and
#     the container requests CPU (utilization needs it);
#   - the tables overlay (docker/k8s/tables, kustomize): its JSON patch,
#     applied here as kustomize would, mounts the claim it defines read-only,
#     every --table is on that mount, the memory limit is raised; scribed
#     with the patched args (the mount replaced by a folder holding a table
#     under each name) loads every table and answers SERVING;
#   - kubectl's own kustomize builds the base and each overlay (as
#     `kubectl apply -k DIR` would), where kubectl is installed.
# Prints "N passed, N failed".
# Usage: k8s_manifest_test.sh PATH_TO_SCRIBED
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIBED="$(realpath "${1:-$ROOT/build/service/scribed}")"
NODE_DIR="$ROOT/tests/e2e/node_client"
PY=/usr/bin/python3   # Debian's python3, which sees python3-yaml
passed=0
failed=0
pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1${2:+: $2}"; failed=$((failed + 1)); }
skipped=0
# A part that cannot run here is skipped, and the run says so: exit 77,
# SKIP_RETURN_CODE in tests/e2e/CMakeLists.txt (ctest reports it skipped).
skip() { echo "SKIP: $1"; skipped=$((skipped + 1)); }
finish() {
  if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"; else echo "$passed passed, $failed failed"; fi
  [ "$failed" -eq 0 ] || exit 1
  [ "$skipped" -eq 0 ] || exit 77
  exit 0
}
tmp="$(mktemp -d "${TMPDIR:-/tmp}/scribe-k8s-test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# 1. Parse the manifests; the structural checks print PASS/FAIL lines, and
# what the runtime checks need goes to files.
"$PY" - "$ROOT" "$tmp" >"$tmp/parse.out" 2>&1 <<'PY'
import re, sys, yaml
root, tmp = sys.argv[1], sys.argv[2]
def load(name):
    with open(f"{root}/docker/k8s/base/{name}") as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    assert len(docs) == 1, f"{name}: one document"
    return docs[0]
results = []
def check(ok, what, detail=""):
    results.append(ok)
    print(("PASS: " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + str(detail)))

dep, svc, hpa = load("deployment.yaml"), load("service.yaml"), load("hpa.yaml")
check(dep.get("apiVersion") == "apps/v1" and dep.get("kind") == "Deployment", "deployment.yaml is an apps/v1 Deployment")
check(svc.get("apiVersion") == "v1" and svc.get("kind") == "Service", "service.yaml is a v1 Service")
check(hpa.get("apiVersion") == "autoscaling/v2" and hpa.get("kind") == "HorizontalPodAutoscaler",
      "hpa.yaml is an autoscaling/v2 HorizontalPodAutoscaler")
name = dep["metadata"]["name"]
pod = dep["spec"]["template"]
containers = pod["spec"]["containers"]
check(len(containers) == 1, "the Deployment has one container")
c = containers[0]

# The image: what scripts/container.sh tags.
script = open(f"{root}/scripts/container.sh").read()
m = re.search(r'^TAG="\$\{1:-([^}]+)\}"', script, re.M)
built = m.group(1) if m else None
check(c.get("image") == built, f"the image is what scripts/container.sh builds ({built})", c.get("image"))

# The listen port from the args (scribed's default when --listen is absent).
args = [str(a) for a in c.get("args", [])]
check(not c.get("command"), "the container keeps the image's ENTRYPOINT (scribed): no command override")
listen = "0.0.0.0:50051"
for i, a in enumerate(args):
    if a == "--listen" and i + 1 < len(args): listen = args[i + 1]
    elif a.startswith("--listen="): listen = a.split("=", 1)[1]
port = int(listen.rsplit(":", 1)[1])
ports = c.get("ports", [])
named = {p.get("name"): p["containerPort"] for p in ports}
check([p["containerPort"] for p in ports] == [port], f"the containerPort is the port --listen names ({port})",
      [p["containerPort"] for p in ports])
for probe in ("livenessProbe", "readinessProbe"):
    p = c.get(probe, {})
    pp = p.get("grpc", {}).get("port")
    check(pp == port, f"the {probe} is a gRPC probe on port {port}", p)

# The Service targets the container port and selects the pods.
sp = svc["spec"]["ports"]
tp = sp[0].get("targetPort", sp[0].get("port")) if sp else None
target = named.get(tp) if isinstance(tp, str) else tp
check(len(sp) == 1 and target == port, f"the Service's targetPort ({tp}) is the container port {port}", sp)
sel = svc["spec"].get("selector", {})
labels = pod["metadata"].get("labels", {})
check(bool(sel) and all(labels.get(k) == v for k, v in sel.items()), "the Service selects the Deployment's pods", sel)
check(dep["spec"]["selector"]["matchLabels"].items() <= labels.items(), "the Deployment's selector matches its pods")

# The HPA scales this Deployment on CPU, and CPU is requested.
ref = hpa["spec"]["scaleTargetRef"]
check(ref.get("kind") == "Deployment" and ref.get("name") == name and ref.get("apiVersion") == "apps/v1",
      f"the HPA targets the Deployment by name ({name})", ref)
metrics = hpa["spec"].get("metrics", [])
check(any(m.get("type") == "Resource" and m["resource"]["name"] == "cpu" for m in metrics), "the HPA scales on CPU")
check(hpa["spec"].get("minReplicas", 1) <= hpa["spec"]["maxReplicas"], "minReplicas <= maxReplicas")
check("cpu" in c.get("resources", {}).get("requests", {}), "the container requests CPU (for CPU utilization)")
check("memory" in c.get("resources", {}).get("limits", {}), "the container has a memory limit")

# Shutdown: the pod's grace covers scribed's drain.
grace = 20
for i, a in enumerate(args):
    if a == "--shutdown-grace-seconds": grace = int(args[i + 1])
tg = pod["spec"].get("terminationGracePeriodSeconds", 30)
check(tg > grace, f"terminationGracePeriodSeconds ({tg}) exceeds --shutdown-grace-seconds ({grace})")

# The Dockerfile: EXPOSE, USER and the default --listen agree.
df = open(f"{root}/docker/Dockerfile").read()
last = df[df.rfind("\nFROM "):]   # the runtime stage
expose = re.findall(r"^EXPOSE\s+(\d+)", last, re.M)
check(expose == [str(port)], f"docker/Dockerfile EXPOSEs {port}", expose)
user = re.findall(r"^USER\s+(\S+)", last, re.M)
uid = user[-1].split(":")[0] if user else None
sc = pod["spec"].get("securityContext", {})
check(sc.get("runAsNonRoot") is True and str(sc.get("runAsUser")) == uid,
      f"runAsNonRoot, and runAsUser is the image's numeric USER ({uid})", sc)

with open(f"{tmp}/args", "w") as f: f.write("\n".join(args) + "\n")
with open(f"{tmp}/port", "w") as f: f.write(str(port))

# The tables overlay: kustomizations, then the patch applied (RFC 6902 add
# and replace, what kustomize does with it).
import copy
def load_path(path):
    with open(path) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    assert len(docs) == 1, f"{path}: one document"
    return docs[0]
base_k = load_path(f"{root}/docker/k8s/base/kustomization.yaml")
check(sorted(base_k.get("resources", [])) == ["deployment.yaml", "hpa.yaml", "service.yaml"],
      "docker/k8s/base/kustomization.yaml lists the three manifests", base_k.get("resources"))
over = load_path(f"{root}/docker/k8s/tables/kustomization.yaml")
res = over.get("resources", [])
check("../base" in res, "the tables overlay builds on docker/k8s/base", res)
pvc_files = [r for r in res if r != "../base"]
pvcs = [load_path(f"{root}/docker/k8s/tables/{r}") for r in pvc_files]
claims = {p["metadata"]["name"]: p for p in pvcs if p.get("kind") == "PersistentVolumeClaim"}
check(len(claims) == 1, "the overlay defines one PersistentVolumeClaim", list(claims))
for claim in claims.values():
    check("ReadOnlyMany" in claim["spec"].get("accessModes", []), "the claim is ReadOnlyMany (every replica reads it)")
patches = over.get("patches", [])
check(len(patches) == 1 and patches[0].get("target", {}).get("kind") == "Deployment"
      and patches[0]["target"].get("name") == name, f"one patch, of the Deployment {name}", patches)
sys.path.insert(0, f"{root}/tests/e2e")
from json_patch import apply  # as kustomize applies it
ops = yaml.safe_load(open(f"{root}/docker/k8s/tables/{patches[0]['path']}"))
patched = apply(dep, ops)
pc = patched["spec"]["template"]["spec"]["containers"][0]
vols = {v["name"]: v for v in patched["spec"]["template"]["spec"].get("volumes", [])}
mounts = pc.get("volumeMounts", [])
check(len(mounts) == 1 and mounts[0].get("readOnly") is True, "the container mounts one volume, read-only", mounts)
mount = mounts[0] if mounts else {}
vol = vols.get(mount.get("name"), {})
claim_ref = vol.get("persistentVolumeClaim", {})
check(claim_ref.get("claimName") in claims and claim_ref.get("readOnly") is True,
      "the volume is the overlay's claim, read-only", vol)
targs = [str(a) for a in pc.get("args", [])]
check(targs[:len(args)] == args, "the patched args keep the base's")
tables = [targs[i + 1] for i, a in enumerate(targs) if a == "--table" and i + 1 < len(targs)]
mp = mount.get("mountPath", "/nonexistent").rstrip("/") + "/"
check(bool(tables) and all(t.startswith(mp) for t in tables), f"every --table is on the mount ({mp})", tables)
def mib(q):
    m = re.fullmatch(r"(\d+)(Mi|Gi)", str(q))
    return int(m.group(1)) * (1024 if m.group(2) == "Gi" else 1) if m else 0
check(mib(pc["resources"]["limits"]["memory"]) > mib(c["resources"]["limits"]["memory"]),
      f"the memory limit is raised for the tables ({c['resources']['limits']['memory']} -> "
      f"{pc['resources']['limits']['memory']})")
with open(f"{tmp}/tables_args", "w") as f: f.write("\n".join(targs) + "\n")
with open(f"{tmp}/tables_mount", "w") as f: f.write(mp)
sys.exit(0 if all(results) else 1)
PY
cat "$tmp/parse.out"
passed=$((passed + $(grep -c '^PASS' "$tmp/parse.out")))
failed=$((failed + $(grep -c '^FAIL' "$tmp/parse.out")))
if [ ! -f "$tmp/port" ]; then fail "the manifests parse"; finish; fi
mapfile -t ARGS <"$tmp/args"
PORT="$(cat "$tmp/port")"
echo "  Deployment args: ${ARGS[*]}"

# 2. Every flag in the args is one scribed accepts.
help="$("$SCRIBED" --help 2>&1)"
for a in "${ARGS[@]}"; do
  case "$a" in
    --*) flag="${a%%=*}"
         if grep -qE -- "(^|[ ,])${flag}( |=|$)" <<<"$help"; then pass "scribed --help lists $flag"; else
           fail "scribed --help lists $flag"; fi ;;
  esac
done

# 3. scribed with the exact args: health SERVING on the probe port, exit 0 on SIGTERM.
# The Node client's npm packages, installed once.
if ! bash "$NODE_DIR/install.sh" >"$tmp/npm.log" 2>&1; then
  fail "the Node client's npm packages install (tests/e2e/node_client/install.sh)" "$(tail -n 20 "$tmp/npm.log")"; finish
fi
cat >"$tmp/health.js" <<'JS'
'use strict';
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const health = grpc.loadPackageDefinition(protoLoader.loadSync('grpc/health/v1/health.proto',
  { keepCase: true, enums: String, defaults: true, includeDirs: ['/usr/share/grpc-proto'] }));
const c = new health.grpc.health.v1.Health(process.argv[2], grpc.credentials.createInsecure());
c.Check({ service: '' }, { deadline: Date.now() + 5000 }, (e, r) => {
  console.log(e ? `error: ${e.message}` : `health: ${r.status}`);
  process.exit(!e && r.status === 'SERVING' ? 0 : 1);
});
JS
cat >"$tmp/run.sh" <<'SH'
# run.sh SCRIBED NODE_PATH TMP PORT ARGS...: scribed with ARGS, then a health
# check on 127.0.0.1:PORT, then SIGTERM; prints "exit N".
scribed="$1" node_path="$2" tmp="$3" port="$4"; shift 4
ip link set lo up 2>/dev/null || true
"$scribed" "$@" >"$tmp/scribed.out" 2>"$tmp/scribed.log" &
pid=$!
for _ in $(seq 1 100); do grep -q "listening on port" "$tmp/scribed.out" && break; sleep 0.1; done
cat "$tmp/scribed.out"
NODE_PATH="$node_path" node "$tmp/health.js" "127.0.0.1:$port"
echo "health-exit $?"
kill -TERM "$pid"; wait "$pid"; echo "exit $?"
SH
# runner_args ARGS...: the args as the runner takes them, in run_args: as
# they are in a namespace of scribed's own, else with --listen's address
# replaced by 127.0.0.1.
runner_args() {
  run_args=()
  local prev="" a
  for a in "$@"; do
    if [ "${runner[0]}" = bash ]; then
      if [ "$prev" = "--listen" ]; then a="127.0.0.1:${a##*:}"; fi
      case "$a" in --listen=*) a="--listen=127.0.0.1:${a##*:}" ;; esac
    fi
    run_args+=("$a"); prev="$a"
  done
}
if unshare -n true 2>/dev/null; then
  where="its own network namespace (unshare -n), args unchanged"
  runner=(unshare -n bash "$tmp/run.sh")
  runner_args "${ARGS[@]}"
else
  where="host loopback, --listen's address replaced by 127.0.0.1"
  runner=(bash "$tmp/run.sh")
  runner_args "${ARGS[@]}"
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    skip "port $PORT is busy on this machine's loopback (another scribed or service holds it), and unshare -n is unavailable to give scribed a namespace of its own; the port check cannot run here"
    finish
  fi
fi
echo "  running scribed in $where"
out="$("${runner[@]}" "$SCRIBED" "$NODE_DIR/node_modules" "$tmp" "$PORT" "${run_args[@]}" 2>&1)"
echo "$out" | sed 's/^/  /'
if grep -q "^listening on port $PORT\$" <<<"$out"; then pass "scribed with the Deployment's args listens on port $PORT"; else
  fail "scribed with the Deployment's args listens on port $PORT" "$(cat "$tmp/scribed.log" 2>/dev/null)"
fi
if grep -q "^health-exit 0" <<<"$out"; then pass "grpc.health.v1 answers SERVING on the probe port $PORT"; else
  fail "grpc.health.v1 answers SERVING on the probe port $PORT"
fi
if grep -q "^exit 0" <<<"$out"; then pass "scribed exits 0 on SIGTERM (the pod's termination)"; else
  fail "scribed exits 0 on SIGTERM"
fi

# 4. The tables overlay's args: each --table on the mount is a table here
# (RoyalUr's 2-piece finkel table, tests/data/royalur-lut, under the name
# the manifest gives: the format is told by its magic, not its name).
MOUNT="$(cat "$tmp/tables_mount")"
mkdir -p "$tmp/tables"
table_args=()
tables_named=()
prev=""
while IFS= read -r a; do
  if [ "$prev" = "--table" ]; then
    local_path="$tmp/tables/${a#"$MOUNT"}"
    mkdir -p "$(dirname "$local_path")"
    cp "$ROOT/tests/data/royalur-lut/finkel-2p.rgu" "$local_path"
    tables_named+=("$local_path")
    a="$local_path"
  fi
  table_args+=("$a"); prev="$a"
done <"$tmp/tables_args"
runner_args "${table_args[@]}"
out="$("${runner[@]}" "$SCRIBED" "$NODE_DIR/node_modules" "$tmp" "$PORT" "${run_args[@]}" 2>&1)"
log="$(cat "$tmp/scribed.log" 2>/dev/null)"
loaded=0
for t in "${tables_named[@]}"; do grep -q "table $t: " <<<"$log" && loaded=$((loaded + 1)); done
if [ "${#tables_named[@]}" -gt 0 ] && [ "$loaded" = "${#tables_named[@]}" ]; then
  pass "scribed with the tables overlay's args loads its ${#tables_named[@]} table(s)"
else
  fail "scribed with the tables overlay's args loads its tables" "$(tail -3 <<<"$log")"
fi
if grep -q "^health-exit 0" <<<"$out" && grep -q "^exit 0" <<<"$out"; then
  pass "with the tables: SERVING on port $PORT, exit 0 on SIGTERM"
else
  fail "with the tables: SERVING, exit 0 on SIGTERM" "$out"
fi
# 5. kubectl's kustomize builds each folder `kubectl apply -k` is given
# (a base folder holding its overlays was a "cycle detected").
if command -v kubectl >/dev/null && kubectl kustomize --help >/dev/null 2>&1; then
  for dir in base tables database; do
    if out="$(kubectl kustomize "$ROOT/docker/k8s/$dir" 2>&1)"; then
      pass "kubectl kustomize docker/k8s/$dir builds ($(grep -c '^kind:' <<<"$out") objects)"
    else
      fail "kubectl kustomize docker/k8s/$dir" "$out"
    fi
  done
else
  echo "NOTE: kubectl is not installed: kustomize itself builds no folder here"
fi

finish
