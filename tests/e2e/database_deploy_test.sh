#!/usr/bin/env bash
# The game database's deployment files against what the server and the
# tools really do, without a cluster and without a registry:
#
#   docker/k8s/database (kustomize overlay): its JSON patch applied to the
#     base Deployment as kustomize applies it (and, where kubectl is
#     installed, the overlay built by kubectl's own kustomize, which must
#     give the same Deployment); no Secret or ConfigMap in it (credentials
#     are made by the operator; secret.example.yaml and writers.example.yaml
#     show their shapes); every flag of the patched args one scribed
#     accepts; every $(VAR) in the args defined in the container's env from
#     a Secret key the example Secret has; no password in the args; every
#     file a flag (or the URL's sslrootcert) names on a read-only mount of a
#     volume that provides that file, every volume mounted; the probes
#     usable on a TLS port; the root filesystem still read-only;
#   docker/compose.yaml (parsed: no compose tool runs here): every flag of
#     each replica's command one scribed accepts; the --db URL's host, port,
#     user and database those of the db service; the password from one
#     variable, in no command; the published ports the upstreams of
#     docker/nginx/scribe-lb.conf, on loopback; the image the one
#     scripts/container.sh builds, its numeric USER the replicas' user;
#   at run time, on a throwaway PostgreSQL 15 (bench/pg_server.sh) made to
#     want TLS and a password (scram-sha-256, hostssl only), with throwaway
#     certificates made with openssl (as tls_test.sh makes them):
#     scribed started with the patched args (the Secret's URL pointed at
#     that server, the mounts replaced by folders holding those files)
#     logs "game database: PostgreSQL database", answers grpc.health.v1
#     SERVING over TLS to a client without a certificate and nothing in
#     plaintext (why the probes are TCP probes), lets the listed writer
#     import and refuses the others, and exits 0 on SIGTERM; the URL with
#     the password in it, percent-encoded, works too; pg_dump -Fc and
#     pg_restore into a new database keep every game, as does sqlite3's
#     .backup of a SQLite --db in use; the compose file's PostgreSQL
#     (docker/postgres/entrypoint.sh, run here as the postgres user) makes
#     its cluster, passes the compose healthcheck, and scribed with a
#     replica's exact command answers SERVING on it and imports.
# The servers run in a network namespace of their own (unshare -n, loopback
# only), so the manifests' ports are used unchanged; without unshare, on
# this machine's loopback with free ports. PostgreSQL servers and scribed
# processes are stopped on every exit path.
# Prints "N passed, N failed"; exit 77 (skipped) without PostgreSQL 15 (the
# run-time part cannot run); without kubectl only its build is left out.
# Usage: database_deploy_test.sh PATH_TO_SCRIBED [PATH_TO_SCRIBE]
set -uo pipefail
# bash 5.2: "&" in a ${var//pattern/replacement} replacement is the match;
# URLs hold "&".
shopt -u patsub_replacement 2>/dev/null || true
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIBED="$(realpath "${1:?usage: database_deploy_test.sh SCRIBED [SCRIBE]}")"
SCRIBE="$(realpath "${2:-$(dirname "$SCRIBED")/../cli/scribe}")"
NODE_DIR="$ROOT/tests/e2e/node_client"
PY=/usr/bin/python3   # Debian's python3, which sees python3-yaml
PG_BIN=/usr/lib/postgresql/15/bin
GAMES=60              # games imported
passed=0
failed=0
skipped=0
pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1${2:+: $2}"; failed=$((failed + 1)); }
skip() { echo "SKIP: $1"; skipped=$((skipped + 1)); }
finish() {
  if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"; else echo "$passed passed, $failed failed"; fi
  [ "$failed" -eq 0 ] || exit 1
  [ "$skipped" -eq 0 ] || exit 77
  exit 0
}

tmp="$(mktemp -d "${TMPDIR:-/tmp}/scribe-db-deploy-test.XXXXXX")"
pg_dirs=()     # PostgreSQL data folders to stop
pids=()        # scribed processes
ns_pid=""      # the network namespace's holder
entry_pid=""   # the compose db's entrypoint (runuser, then postgres under it)
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  local p d
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  for d in "${pg_dirs[@]}"; do
    if [ -e "$d/postmaster.pid" ]; then
      as_pg "$PG_BIN/pg_ctl" -D "$d" -m fast -w stop >>"$tmp/pg_stop.log" 2>&1 ||
        echo "the PostgreSQL server in $d did not stop: $(tail -n 5 "$tmp/pg_stop.log")"
    fi
  done
  # (Stopped in the middle of making its cluster, it is told to end too.)
  [ -n "$entry_pid" ] && kill -TERM "$entry_pid" 2>/dev/null
  [ -n "$entry_pid" ] && wait "$entry_pid" 2>/dev/null
  [ -n "$ns_pid" ] && kill "$ns_pid" 2>/dev/null && wait "$ns_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# 1. The overlay, parsed; the patch applied as kustomize applies it. What
# the later steps need goes to files in $tmp.
"$PY" - "$ROOT" "$tmp" >"$tmp/parse.out" 2>&1 <<'PY'
import copy, json, re, sys, urllib.parse, yaml
root, tmp = sys.argv[1], sys.argv[2]
k8s = f"{root}/docker/k8s"
over_dir = f"{k8s}/database"
results = []
def check(ok, what, detail=""):
    results.append(bool(ok))
    print(("PASS: " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + str(detail)))
def load_all(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]
def load(path):
    docs = load_all(path)
    assert len(docs) == 1, f"{path}: one document"
    return docs[0]

over = load(f"{over_dir}/kustomization.yaml")
res = over.get("resources", [])
check(res == ["../base"], "the database overlay builds on the base (docker/k8s/base)", res)
check(not any(k in over for k in ("secretGenerator", "configMapGenerator")),
      "the overlay generates no Secret or ConfigMap (no credential in the repository)")
applied = [load(f"{over_dir}/{r}") for r in res if not r.startswith("../")]
check(not any(d.get("kind") in ("Secret", "ConfigMap") for d in applied), "the overlay applies no Secret or ConfigMap")
patches = over.get("patches", [])
dep = load(f"{k8s}/base/deployment.yaml")
name = dep["metadata"]["name"]
check(len(patches) == 1 and patches[0].get("target", {}).get("kind") == "Deployment"
      and patches[0]["target"].get("name") == name, f"one patch, of the Deployment {name}", patches)

sys.path.insert(0, f"{root}/tests/e2e")
from json_patch import apply  # as kustomize applies it
ops = load(f"{over_dir}/{patches[0]['path']}")
patched = apply(dep, ops)
with open(f"{tmp}/patched.json", "w") as f: json.dump(patched, f)
spec = patched["spec"]["template"]["spec"]
c = spec["containers"][0]
base_args = [str(a) for a in dep["spec"]["template"]["spec"]["containers"][0]["args"]]
args = [str(a) for a in c["args"]]
check(args[:len(base_args)] == base_args, "the patched args keep the base's")
def flag_values(args):
    out = {}
    for i, a in enumerate(args):
        if a.startswith("--") and "=" in a: out.setdefault(a.split("=", 1)[0], []).append(a.split("=", 1)[1])
        elif a.startswith("--") and i + 1 < len(args) and not args[i + 1].startswith("--"):
            out.setdefault(a, []).append(args[i + 1])
        elif a.startswith("--"): out.setdefault(a, []).append(None)
    return out
flags = flag_values(args)

# The examples: the Secrets and the ConfigMap the overlay names.
examples = {}
for fname in ("secret.example.yaml", "writers.example.yaml"):
    for d in load_all(f"{over_dir}/{fname}"):
        data = dict(d.get("data") or {})
        data.update(d.get("stringData") or {})
        examples[(d["kind"], d["metadata"]["name"])] = data
check(("Secret", "scribe-db") in examples and ("Secret", "scribe-tls") in examples
      and ("ConfigMap", "scribe-writers") in examples,
      "secret.example.yaml and writers.example.yaml show Secrets scribe-db, scribe-tls and ConfigMap scribe-writers",
      list(examples))

# The database URL: $(VAR) in the args, VAR from a Secret's key.
env = {e["name"]: e for e in c.get("env", [])}
db = flags.get("--db", [None])
check(len(db) == 1 and db[0] is not None and re.fullmatch(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", db[0]),
      "--db is one $(VAR) (Kubernetes expands it from the container's env)", db)
refs = sorted(set(re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", " ".join(args))))
env_lines = []
for var in refs:
    e = env.get(var, {})
    ref = e.get("valueFrom", {}).get("secretKeyRef", {})
    ok = bool(ref) and ref.get("key") in examples.get(("Secret", ref.get("name")), {})
    check(ok, f"$({var}) is defined in env from Secret {ref.get('name')} key {ref.get('key')}, a key the example Secret has", e)
for var, e in env.items():
    ref = e.get("valueFrom", {}).get("secretKeyRef")
    if ref: env_lines.append(f"{var}\t{ref['name']}\t{ref['key']}")
    else: check(False, f"env {var} comes from a Secret", e)
check(not any(re.search(r"postgres(ql)?://", a) for a in args), "no database URL written out in the args")
url = examples.get(("Secret", "scribe-db"), {}).get("url", "")
u = urllib.parse.urlsplit(url)
q = dict(urllib.parse.parse_qsl(u.query))
check(u.scheme in ("postgresql", "postgres") and u.password is None,
      "the example URL is a postgresql:// URL without a password in it", url)
check(q.get("sslmode") in ("verify-full", "verify-ca", "require"), f"the example URL sets sslmode ({q.get('sslmode')})")
pw_env = [v for v, e in env.items() if e.get("valueFrom", {}).get("secretKeyRef", {}).get("key") == "password"]
check(pw_env == ["PGPASSWORD"], "the password reaches libpq as PGPASSWORD, from the Secret's key password", pw_env)

# Files the flags name: each on a read-only mount of a volume that has it.
vols = {v["name"]: v for v in spec.get("volumes", [])}
mounts = c.get("volumeMounts", [])
check(all(m.get("readOnly") is True for m in mounts), "every mount is read-only", mounts)
check(sorted(m["name"] for m in mounts) == sorted(vols), "every volume is mounted, every mount is a volume",
      (sorted(m["name"] for m in mounts), sorted(vols)))
def provides(vol):
    """The files a volume holds, and the example resource they come from."""
    if "secret" in vol: kind, src = "Secret", vol["secret"]
    elif "configMap" in vol: kind, src = "ConfigMap", vol["configMap"]
    else: return None, {}
    rname = src.get("secretName", src.get("name"))
    data = examples.get((kind, rname), {})
    if src.get("items"): return (kind, rname), {i["path"]: i["key"] for i in src["items"]}
    return (kind, rname), {k: k for k in data}
files = [(f, v) for f in ("--tls-cert", "--tls-key", "--tls-client-ca", "--db-writers", "--table")
         for v in flags.get(f, []) if v]
if q.get("sslrootcert"): files.append(("sslrootcert", q["sslrootcert"]))
mount_lines = []
for m in mounts:
    src, held = provides(vols.get(m["name"], {}))
    data = examples.get(src, {})
    missing = [k for k in held.values() if k not in data]
    check(src is not None and not missing, f"the volume at {m['mountPath']} is {src} and its example has {sorted(held.values())}",
          missing)
    mount_lines.append(m["mountPath"].rstrip("/") + "\t" + ",".join(sorted(held)))
for flag, path in files:
    on = [m for m in mounts if path.startswith(m["mountPath"].rstrip("/") + "/")]
    held = provides(vols.get(on[0]["name"], {}))[1] if on else {}
    rel = path[len(on[0]["mountPath"].rstrip("/")) + 1:] if on else None
    check(bool(on) and rel in held, f"{flag} {path} is a file of the mount {on[0]['mountPath'] if on else '(none)'}")

# The writers: a list, TLS client certificates, optional for readers.
check("--db-writers" in flags and "--db-open-writes" not in flags, "writes by the writers' list (--db-writers), not open")
check(flags.get("--tls-client-auth") == ["optional"], "--tls-client-auth optional (readers need no certificate)")
wl = examples.get(("ConfigMap", "scribe-writers"), {}).get("writers.txt", "")
ids = [l.strip() for l in wl.splitlines() if l.strip() and not l.strip().startswith("#")]
check(ids and all(re.match(r"(cn|subject|dns|uri|email|ip):.", i) for i in ids),
      "every identity of the example list is typed (cn:, subject:, dns:, uri:, email:, ip:)", ids)

# Probes: the kubelet's gRPC probe speaks plaintext, which a TLS port refuses.
listen = flags.get("--listen", ["0.0.0.0:50051"])[-1]
port = int(listen.rsplit(":", 1)[1])
tls = "--tls-cert" in flags
for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
    p = c.get(probe)
    if p is None:
        check(probe != "startupProbe", "a startupProbe (a replica may wait for the schema's migration before it listens)")
        continue
    g = p.get("grpc")
    ok = (p.get("tcpSocket", {}).get("port") == port) or (g and g.get("port") == port and (not tls or g.get("mode") == "TLS"))
    check(ok, f"the {probe} probes port {port} in a way a TLS server answers", p)
sp = c.get("startupProbe", {})
budget = sp.get("periodSeconds", 10) * sp.get("failureThreshold", 3)
check(budget >= 300, f"the startup probe allows {budget} s to open the database (migrations)")
sc = c.get("securityContext", {})
check(sc.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem is still true")
check("--metrics-file" not in flags and not any(v for v in vols.values() if "emptyDir" in v),
      "nothing for scribed to write: no --metrics-file, no writable volume")
psc = spec.get("securityContext", {})
for v in vols.values():
    src = v.get("secret") or v.get("configMap") or {}
    mode = src.get("defaultMode", 0o644)
    readable = mode & 0o004 or (mode & 0o040 and psc.get("fsGroup") == psc.get("runAsGroup"))
    check(readable, f"the volume {v['name']} (mode {oct(mode)}) is readable by the pod's user "
          f"(uid {psc.get('runAsUser')}, fsGroup {psc.get('fsGroup')})")

with open(f"{tmp}/k8s_args", "w") as f: f.write("\n".join(args) + "\n")
with open(f"{tmp}/k8s_env", "w") as f: f.write("\n".join(env_lines) + "\n")
with open(f"{tmp}/k8s_mounts", "w") as f: f.write("\n".join(mount_lines) + "\n")
with open(f"{tmp}/k8s_url", "w") as f: f.write(url)
with open(f"{tmp}/k8s_port", "w") as f: f.write(str(port))
sys.exit(0 if all(results) else 1)
PY
cat "$tmp/parse.out"
passed=$((passed + $(grep -c '^PASS' "$tmp/parse.out")))
failed=$((failed + $(grep -c '^FAIL' "$tmp/parse.out")))
if [ ! -f "$tmp/k8s_port" ]; then fail "the overlay parses"; finish; fi
mapfile -t K8S_ARGS <"$tmp/k8s_args"
K8S_PORT="$(cat "$tmp/k8s_port")"
echo "  patched args: ${K8S_ARGS[*]}"

# 2. kubectl's own kustomize builds the overlay into the same Deployment.
if command -v kubectl >/dev/null && kubectl kustomize --help >/dev/null 2>&1; then
  if kubectl kustomize "$ROOT/docker/k8s/database" >"$tmp/built.yaml" 2>"$tmp/built.log"; then
    out="$("$PY" - "$tmp" <<'PY'
import json, sys, yaml
tmp = sys.argv[1]
docs = [d for d in yaml.safe_load_all(open(f"{tmp}/built.yaml")) if d]
kinds = sorted(d["kind"] for d in docs)
deps = [d for d in docs if d["kind"] == "Deployment"]
same = len(deps) == 1 and deps[0] == json.load(open(f"{tmp}/patched.json"))
print(f"kinds={','.join(kinds)} same={int(same)}")
PY
)"
    if [ "$out" = "kinds=Deployment,HorizontalPodAutoscaler,Service same=1" ]; then
      pass "kubectl kustomize builds the overlay: the Deployment patched as above, the Service, the HPA, no credential"
    else
      fail "kubectl kustomize builds the overlay into the Deployment patched as above" "$out"
    fi
  else
    fail "kubectl kustomize docker/k8s/database" "$(cat "$tmp/built.log")"
  fi
else
  # (Not a skip: scripts/setup.sh installs no kubectl, and the patch is
  # applied above as kustomize applies it.)
  echo "NOTE: kubectl is not installed: the overlay is not built by kustomize itself"
fi

# 3. The compose file, parsed.
"$PY" - "$ROOT" "$tmp" >"$tmp/compose.out" 2>&1 <<'PY'
import re, sys, urllib.parse, yaml
root, tmp = sys.argv[1], sys.argv[2]
results = []
def check(ok, what, detail=""):
    results.append(bool(ok))
    print(("PASS: " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + str(detail)))
compose = yaml.safe_load(open(f"{root}/docker/compose.yaml"))
services = compose.get("services", {})
replicas = {n: s for n, s in services.items() if n.startswith("scribed")}
check("db" in services and len(replicas) == 3, "docker/compose.yaml has a db service and three scribed replicas",
      list(services))
dbs = services.get("db", {})
denv = dbs.get("environment", {})
# The image scripts/container.sh builds; the Dockerfile's numeric USER.
script = open(f"{root}/scripts/container.sh").read()
tag = re.search(r'^TAG="\$\{1:-([^}]+)\}"', script, re.M).group(1)
df = open(f"{root}/docker/Dockerfile").read()
last = df[df.rfind("\nFROM "):]
user = re.findall(r"^USER\s+(\S+)", last, re.M)[-1]
# The db service's image: built from a folder holding a Dockerfile and the entrypoint.
build = dbs.get("build", {})
ctx = f"{root}/docker/{build.get('context', '.')}"
dfile = f"{ctx}/{build.get('dockerfile', 'Dockerfile')}"
try:
    pg_df = open(dfile).read()
except OSError as e:
    pg_df = ""
check(bool(pg_df), f"the db service builds from {dfile}")
entry = re.findall(r"^COPY\s+(\S+)\s+(\S+)", pg_df, re.M)
ep = re.findall(r'^ENTRYPOINT\s+\["([^"]+)"', pg_df, re.M)
check(entry and ep and any(dst == ep[0] for _, dst in entry), "its ENTRYPOINT is the script it copies in", (entry, ep))
with open(f"{tmp}/compose_entrypoint", "w") as f:
    f.write(f"{ctx}/{entry[0][0]}" if entry else "")
entry_text = open(f"{ctx}/{entry[0][0]}").read() if entry else ""
for var in ("POSTGRES_USER", "POSTGRES_DB", "POSTGRES_PASSWORD"):
    check(var in denv and var in entry_text, f"the db service sets {var}, which the entrypoint reads")
check("VOLUME /var/lib/postgresql/data" in pg_df and any(str(v).endswith(":/var/lib/postgresql/data")
      and str(v).split(":")[0] in (compose.get("volumes") or {}) for v in dbs.get("volumes", [])),
      "the data folder is a named volume")
hc = dbs.get("healthcheck", {}).get("test", [])
check(hc[:2] == ["CMD", "pg_isready"], "the db healthcheck is pg_isready", hc)
with open(f"{tmp}/compose_healthcheck", "w") as f: f.write("\n".join(hc[1:]) + "\n")
with open(f"{tmp}/compose_db_env", "w") as f:
    f.write("\n".join(f"{k}={v}" for k, v in denv.items()) + "\n")
# The password: one variable, required, for both sides; in no command.
var_re = r"^\$\{([A-Za-z_][A-Za-z0-9_]*):\?[^}]*\}$"
m = re.match(var_re, str(denv.get("POSTGRES_PASSWORD", "")))
pw_var = m.group(1) if m else None
check(pw_var, "POSTGRES_PASSWORD is ${VAR:?...} (compose stops when it is unset)", denv.get("POSTGRES_PASSWORD"))
lb = open(f"{root}/docker/nginx/scribe-lb.conf").read()
upstreams = sorted(re.findall(r"^\s*server\s+127\.0\.0\.1:(\d+)", lb, re.M))
published = []
for n, s in sorted(replicas.items()):
    cmd = [str(a) for a in s.get("command", [])]
    check(s.get("image") == tag, f"{n}: the image is {tag} (scripts/container.sh)", s.get("image"))
    check(str(s.get("user", "")).split(":")[0] == user.split(":")[0], f"{n}: runs as the image's USER {user}", s.get("user"))
    check(s.get("read_only") is True, f"{n}: a read-only root filesystem")
    dep = s.get("depends_on", {})
    check(isinstance(dep, dict) and dep.get("db", {}).get("condition") == "service_healthy",
          f"{n}: starts once db is healthy", dep)
    m = re.match(var_re, str(s.get("environment", {}).get("PGPASSWORD", "")))
    check(m and m.group(1) == pw_var, f"{n}: PGPASSWORD is ${{{pw_var}}}, the db's password")
    check(not any(pw_var and pw_var in a for a in cmd), f"{n}: the password is in no argument")
    url = cmd[cmd.index("--db") + 1] if "--db" in cmd else ""
    u = urllib.parse.urlsplit(url)
    q = dict(urllib.parse.parse_qsl(u.query))
    check(u.scheme == "postgresql" and u.hostname in services and u.hostname != n,
          f"{n}: --db names the service {u.hostname}", url)
    check(u.password is None and "sslmode" in q, f"{n}: no password in the URL, sslmode set ({q.get('sslmode')})")
    check((u.port or 5432) == 5432 and u.username == denv.get("POSTGRES_USER")
          and u.path.lstrip("/") == denv.get("POSTGRES_DB"),
          f"{n}: the URL's port, user and database are the db service's", (u.port, u.username, u.path))
    listen = cmd[cmd.index("--listen") + 1] if "--listen" in cmd else "0.0.0.0:50051"
    lport = listen.rsplit(":", 1)[1]
    for p in s.get("ports", []):
        parts = str(p).split(":")
        check(len(parts) == 3 and parts[0] == "127.0.0.1" and parts[2] == lport,
              f"{n}: publishes port {lport} on loopback only ({p})")
        published.append(parts[1])
    grace = int(cmd[cmd.index("--shutdown-grace-seconds") + 1]) if "--shutdown-grace-seconds" in cmd else 20
    sg = str(s.get("stop_grace_period", "10s"))
    check(sg.endswith("s") and int(sg[:-1]) > grace, f"{n}: stop_grace_period {sg} exceeds --shutdown-grace-seconds {grace}")
    with open(f"{tmp}/compose_args_{n}", "w") as f: f.write("\n".join(cmd) + "\n")
check(sorted(published) == upstreams, f"the replicas' ports are docker/nginx/scribe-lb.conf's upstreams {upstreams}",
      sorted(published))
with open(f"{tmp}/compose_replica", "w") as f: f.write(sorted(replicas)[0] if replicas else "")
sys.exit(0 if all(results) else 1)
PY
cat "$tmp/compose.out"
passed=$((passed + $(grep -c '^PASS' "$tmp/compose.out")))
failed=$((failed + $(grep -c '^FAIL' "$tmp/compose.out")))
REPLICA="$(cat "$tmp/compose_replica" 2>/dev/null)"
if [ -z "$REPLICA" ]; then fail "the compose file parses"; finish; fi
mapfile -t COMPOSE_ARGS <"$tmp/compose_args_$REPLICA"

# 4. Every flag in the args and the commands is one scribed accepts.
help="$("$SCRIBED" --help 2>&1)"
for f in $(printf '%s\n' "${K8S_ARGS[@]}" "${COMPOSE_ARGS[@]}" | sed -n 's/^\(--[a-z0-9-]*\).*/\1/p' | sort -u); do
  if grep -qE -- "(^|[ ,])${f}( |=|$)" <<<"$help"; then pass "scribed --help lists $f"; else fail "scribed --help lists $f"; fi
done

# 5. At run time.
for tool in openssl node psql pg_dump pg_restore sqlite3; do
  command -v "$tool" >/dev/null || { fail "$tool is installed (scripts/setup.sh)"; finish; }
done
if [ ! -x "$PG_BIN/postgres" ]; then skip "PostgreSQL 15 is not installed (no $PG_BIN/postgres): nothing run"; finish; fi
if ! bash "$NODE_DIR/install.sh" >"$tmp/npm.log" 2>&1; then
  fail "the Node client's npm packages install (tests/e2e/node_client/install.sh)" "$(tail -n 20 "$tmp/npm.log")"; finish
fi
# (As root the servers run as postgres, which must reach their folders.)
[ "$(id -u)" -eq 0 ] && chmod o+x "$tmp"
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# inns CMD...: CMD in the test's network namespace (or here, without one);
# "${INNS[@]}" CMD... & runs it in the background as $! (nsenter execs it).
INNS=()
if unshare -n true 2>/dev/null && command -v nsenter >/dev/null && command -v ip >/dev/null; then
  unshare -n sleep 100000 &
  ns_pid=$!
  INNS=(nsenter -t "$ns_pid" -n --)
  sleep 0.2
  "${INNS[@]}" ip link set lo up
  where="a network namespace of its own (unshare -n): the manifests' ports unchanged"
  PG_PORT=5433; COMPOSE_PG_PORT=5432; RUN_PORT="$K8S_PORT"
else
  where="this machine's loopback, free ports"
  PG_PORT="$(free_port)"; COMPOSE_PG_PORT="$(free_port)"; RUN_PORT="$(free_port)"
fi
inns() { "${INNS[@]}" "$@"; }
echo "  running in $where"
node_client() { inns env "NODE_PATH=$NODE_DIR/node_modules" node "$NODE_DIR/database_deploy.js" "$@"; }
if ! "$SCRIBE" play --ruleset finkel --seed 1 --games "$GAMES" >"$tmp/games.json" 2>"$tmp/play.log"; then
  fail "scribe play makes $GAMES games" "$(cat "$tmp/play.log")"; finish
fi

# Certificates (as tls_test.sh makes them): a CA, the server's (localhost,
# 127.0.0.1: scribed's and PostgreSQL's), a listed writer, an unlisted reader.
certs="$tmp/certs"
mkdir -p "$certs"
source "$ROOT/tests/e2e/certs_lib.sh"
make_certs() {
  ca ca &&
  leaf server ca /CN=localhost "subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth
basicConstraints=CA:false" &&
  leaf writer ca /CN=scribe-deploy-writer "extendedKeyUsage=clientAuth
basicConstraints=CA:false" &&
  leaf reader ca /CN=scribe-deploy-reader "extendedKeyUsage=clientAuth
basicConstraints=CA:false"
}
if ! make_certs 2>"$tmp/certs.log"; then fail "the certificates are made (openssl)" "$(cat "$tmp/certs.log")"; finish; fi
printf '# tests/e2e/database_deploy_test.sh\ncn:scribe-deploy-writer\n' >"$certs/writers.txt"

# PostgreSQL, then made to want TLS and a password: hostssl lines only.
PASSWORD="pa ss/w@rd:1'x"   # percent-encoding and quoting both exercised
pg="$tmp/pg"
pg_dirs+=("$pg/data")
if ! inns bash "$ROOT/bench/pg_server.sh" start "$pg" "$PG_PORT" >"$tmp/pg_url" 2>"$tmp/pg_server.log"; then
  fail "PostgreSQL starts (bench/pg_server.sh)" "$(cat "$tmp/pg_server.log"; tail -n 5 "$pg/log" 2>/dev/null)"; finish
fi
cp "$certs/server.crt" "$certs/server.key" "$pg/data/"
[ "$(id -u)" -eq 0 ] && chown postgres "$pg/data/server.crt" "$pg/data/server.key"
chmod 600 "$pg/data/server.key"
cat >"$pg/data/pg_hba.conf" <<'HBA'
local all all trust
hostssl all all 127.0.0.1/32 scram-sha-256
hostssl all all ::1/128 scram-sha-256
HBA
psql_local() { psql -X -q -v ON_ERROR_STOP=1 -h "$pg" -p "$PG_PORT" -U scribe "$@"; }
if ! psql_local -d postgres -v pw="$PASSWORD" >"$tmp/psql.log" 2>&1 <<'SQL'
ALTER SYSTEM SET ssl = on;
ALTER SYSTEM SET ssl_cert_file = 'server.crt';
ALTER SYSTEM SET ssl_key_file = 'server.key';
ALTER ROLE scribe PASSWORD :'pw';
SELECT pg_reload_conf();
SQL
then fail "PostgreSQL takes TLS and a password" "$(cat "$tmp/psql.log")"; finish; fi
sleep 1
host_url() { echo "postgresql://scribe@localhost:$PG_PORT/$1?sslmode=verify-full&sslrootcert=$certs/ca.crt"; }
if inns env PGPASSWORD="$PASSWORD" psql -X -Atq -d "postgresql://scribe@127.0.0.1:$PG_PORT/bench?sslmode=disable" \
     -c 'SELECT 1' >"$tmp/nossl.log" 2>&1; then
  fail "PostgreSQL refuses a connection without TLS"
elif inns env PGPASSWORD="$PASSWORD" psql -X -Atq -d "$(host_url bench)" -c 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()' \
       >"$tmp/ssl.log" 2>&1 && [ "$(cat "$tmp/ssl.log")" = t ]; then
  pass "PostgreSQL wants TLS (verify-full against the test CA) and the password"
else
  fail "PostgreSQL over TLS with the password" "$(cat "$tmp/ssl.log")"
fi

# The mounts: a folder under $tmp/root for each mountPath, holding the
# files its volume provides (this test's certificates and list).
mnt="$tmp/root"
while IFS=$'\t' read -r path names; do
  [ -n "$path" ] || continue
  mkdir -p "$mnt$path"
  for f in ${names//,/ }; do
    case "$f" in
      tls.crt) cp "$certs/server.crt" "$mnt$path/$f" ;;
      tls.key) cp "$certs/server.key" "$mnt$path/$f" ;;
      ca.crt) cp "$certs/ca.crt" "$mnt$path/$f" ;;
      writers.txt) cp "$certs/writers.txt" "$mnt$path/$f" ;;
      *) fail "the test has a stand-in for $path/$f"; finish ;;
    esac
  done
done <"$tmp/k8s_mounts"
# resolve DB URL ARGS...: the args as the pod runs them, in run_args: $(VAR)
# expanded from the Secret's keys (url: the example's URL pointed at this
# test's server and database DB; password), the mounts' paths under $mnt,
# and without a namespace --listen on 127.0.0.1:$RUN_PORT. run_env: the env.
resolve() {
  local db="$1" a var secret key value url
  shift
  url="$("$PY" -c 'import sys, urllib.parse as p
u = p.urlsplit(sys.argv[1])
print(p.urlunsplit((u.scheme, f"{u.username}@localhost:{sys.argv[2]}", "/" + sys.argv[3], u.query, "")))' \
    "$(cat "$tmp/k8s_url")" "$PG_PORT" "$db")"
  run_env=()
  declare -A values=()
  while IFS=$'\t' read -r var secret key; do
    [ -n "$var" ] || continue
    case "$secret/$key" in
      scribe-db/url) value="$url" ;;
      scribe-db/password) value="$PASSWORD" ;;
      *) fail "the test has a value for Secret $secret key $key"; finish ;;
    esac
    values[$var]="$value"
    run_env+=("$var=$value")
  done <"$tmp/k8s_env"
  run_args=()
  local prev=""
  for a in "$@"; do
    for var in "${!values[@]}"; do a="${a//"\$($var)"/"${values[$var]}"}"; done
    while IFS=$'\t' read -r path _; do
      [ -n "$path" ] && a="${a//"$path/"/"$mnt$path/"}"
    done <"$tmp/k8s_mounts"
    if [ "$RUN_PORT" != "$K8S_PORT" ] && [ "$prev" = --listen ]; then a="127.0.0.1:$RUN_PORT"; fi
    run_args+=("$a"); prev="$a"
  done
}
# start NAME ENV... -- ARGS...: scribed in the namespace, its pid in $pid
# once it prints its port (else a failure and "").
start() {
  local name="$1"
  shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  "${INNS[@]}" env "${envs[@]}" "$SCRIBED" "$@" >"$tmp/$name.out" 2>"$tmp/$name.log" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 1 150); do
    grep -q '^listening on port' "$tmp/$name.out" && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  fail "scribed ($name) starts" "$(tail -n 5 "$tmp/$name.log")"
  pid=""
  return 1
}
# stop: SIGTERM to $pid; its exit status in $stopped.
stop() {
  kill -TERM "$pid" 2>/dev/null
  wait "$pid"
  stopped=$?
  local p keep=()
  for p in "${pids[@]}"; do [ "$p" != "$pid" ] && keep+=("$p"); done
  pids=("${keep[@]}")
}
ADDR="127.0.0.1:$RUN_PORT"
TLS=(--ca "$certs/ca.crt")

# 5a. scribed with the overlay's args.
resolve bench "${K8S_ARGS[@]}"
if start k8s "${run_env[@]}" -- "${run_args[@]}"; then
  log="$(cat "$tmp/k8s.log")"
  if grep -q "game database: PostgreSQL database bench at localhost:$PG_PORT; writes by 1 listed identities" <<<"$log"; then
    pass "scribed with the overlay's args logs 'game database: PostgreSQL database bench at localhost:$PG_PORT; writes by 1 listed identities'"
  else
    fail "scribed with the overlay's args logs 'game database: PostgreSQL database'" "$(tail -n 3 <<<"$log")"
  fi
  if grep -q "with TLS, client certificates verified when sent" <<<"$log"; then
    pass "it serves TLS, client certificates optional"
  else
    fail "it serves TLS, client certificates optional" "$(grep 'serving on' <<<"$log")"
  fi
  if tr '\0' '\n' <"/proc/$pid/cmdline" | grep -qF "$PASSWORD"; then
    fail "the password is in no argument of the process"
  else
    pass "the password is in no argument of the process (/proc/PID/cmdline)"
  fi
  if inns bash -c "exec 3<>/dev/tcp/127.0.0.1/$RUN_PORT" 2>/dev/null; then pass "the TCP probe's port $RUN_PORT accepts"; else
    fail "the TCP probe's port $RUN_PORT accepts"; fi
  out="$(node_client health "$ADDR" 2>&1)"
  if grep -q '^health-error: UNAVAILABLE' <<<"$out"; then
    pass "a plaintext health check (the kubelet's gRPC probe) gets no answer from the TLS port: the probes are TCP"
  else
    fail "a plaintext health check fails on the TLS port" "$out"
  fi
  out="$(node_client health "$ADDR" "${TLS[@]}" 2>&1)"
  if [ "$out" = "health: SERVING" ]; then pass "grpc.health.v1 SERVING over TLS to a client without a certificate"; else
    fail "grpc.health.v1 SERVING over TLS without a certificate" "$out"; fi
  out="$(node_client import "$ADDR" "$tmp/games.json" deploy "${TLS[@]}" 2>&1)"
  if grep -q '^import code=PERMISSION_DENIED' <<<"$out"; then pass "an import without a certificate is refused"; else
    fail "an import without a certificate is refused" "$out"; fi
  out="$(node_client import "$ADDR" "$tmp/games.json" deploy "${TLS[@]}" --cert "$certs/reader.crt" --key "$certs/reader.key" 2>&1)"
  if grep -q '^import code=PERMISSION_DENIED' <<<"$out"; then pass "an import by an unlisted client is refused"; else
    fail "an import by an unlisted client is refused" "$out"; fi
  out="$(node_client import "$ADDR" "$tmp/games.json" deploy "${TLS[@]}" --cert "$certs/writer.crt" --key "$certs/writer.key" 2>&1)"
  if [ "$out" = "import code=OK records=$GAMES added=$GAMES new_sources=0 known_sources=0 duplicates=0 rejected=0" ]; then
    pass "the listed writer imports $GAMES games into PostgreSQL"
  else
    fail "the listed writer imports $GAMES games" "$out"
  fi
  out="$(node_client import "$ADDR" "$tmp/games.json" deploy "${TLS[@]}" --cert "$certs/writer.crt" --key "$certs/writer.key" 2>&1)"
  if [ "$out" = "import code=OK records=$GAMES added=0 new_sources=0 known_sources=$GAMES duplicates=0 rejected=0" ]; then
    pass "the same import again stores nothing twice"
  else
    fail "the same import again stores nothing twice" "$out"
  fi
  out="$(node_client total "$ADDR" "${TLS[@]}" 2>&1)"
  if [ "$out" = "total=$GAMES" ]; then pass "a reader without a certificate lists the $GAMES games"; else
    fail "a reader lists the games" "$out"; fi
  stop
  if [ "$stopped" -eq 0 ]; then pass "scribed exits 0 on SIGTERM"; else fail "scribed exits 0 on SIGTERM" "exit $stopped"; fi
fi

# 5b. The password in the URL, percent-encoded, no PGPASSWORD.
encoded="$("$PY" -c 'import sys, urllib.parse as p; print(p.quote(sys.argv[1], safe=""))' "$PASSWORD")"
url="$(host_url bench)"
url="${url/scribe@/scribe:$encoded@}"
if start inline -- --listen "127.0.0.1:$RUN_PORT" --db "$url"; then
  if grep -q "game database: PostgreSQL database bench" "$tmp/inline.log"; then
    pass "a URL with the password percent-encoded in it connects"
  else
    fail "a URL with the password percent-encoded in it connects" "$(tail -n 3 "$tmp/inline.log")"
  fi
  stop
fi

# 5c. Backup and restore: pg_dump -Fc, pg_restore into a new database.
restored_ok=""
out=""
if inns env PGPASSWORD="$PASSWORD" pg_dump -Fc -d "$(host_url bench)" -f "$tmp/games.dump" 2>"$tmp/dump.log" &&
   psql_local -d postgres -c 'CREATE DATABASE restored' 2>>"$tmp/dump.log" &&
   inns env PGPASSWORD="$PASSWORD" pg_restore --no-owner -d "$(host_url restored)" "$tmp/games.dump" 2>>"$tmp/dump.log"; then
  resolve restored "${K8S_ARGS[@]}"
  if start restored "${run_env[@]}" -- "${run_args[@]}"; then
    out="$(node_client total "$ADDR" "${TLS[@]}" 2>&1)"
    [ "$out" = "total=$GAMES" ] && restored_ok=1
    stop
  fi
  if [ -n "$restored_ok" ]; then pass "pg_dump -Fc, pg_restore into a new database: scribed serves the $GAMES games";
  else fail "pg_dump and pg_restore keep the games" "${out:-}"; fi
else
  fail "pg_dump -Fc and pg_restore" "$(cat "$tmp/dump.log")"
fi

# 5d. SQLite: sqlite3's .backup of a database in use.
if start sqlite -- --listen "127.0.0.1:$RUN_PORT" --db "$tmp/games.db" --db-open-writes; then
  out="$(node_client import "$ADDR" "$tmp/games.json" sqlite 2>&1)"
  sqlite3 "$tmp/games.db" ".backup $tmp/copy.db" 2>"$tmp/backup.log" || out+=" backup: $(cat "$tmp/backup.log")"
  stop
  if start sqlite-copy -- --listen "127.0.0.1:$RUN_PORT" --db "$tmp/copy.db"; then
    out+=" $(node_client total "$ADDR" 2>&1)"
    stop
  fi
  if [ "$out" = "import code=OK records=$GAMES added=$GAMES new_sources=0 known_sources=0 duplicates=0 rejected=0 total=$GAMES" ]; then
    pass "sqlite3 games.db \".backup copy.db\" while scribed has it open: the copy serves the $GAMES games"
  else
    fail "sqlite3's .backup keeps the games" "$out"
  fi
fi

# 5e. The compose file's PostgreSQL (its entrypoint, as the postgres user,
# with the compose environment) and a replica's exact command on it.
cpg="$tmp/compose-pg"
mkdir -p "$cpg"
[ "$(id -u)" -eq 0 ] && chown postgres "$cpg"
pg_dirs+=("$cpg/data")
db_env=()
while IFS= read -r line; do
  [ -n "$line" ] || continue
  case "$line" in
    *'${'*) line="${line%%=*}=$PASSWORD" ;;   # ${SCRIBE_DB_PASSWORD:?...}
  esac
  db_env+=("$line")
done <"$tmp/compose_db_env"
as_postgres=()
[ "$(id -u)" -eq 0 ] && as_postgres=(runuser -u postgres --)
(cd "$cpg" && exec "${INNS[@]}" "${as_postgres[@]}" env "${db_env[@]}" PGDATA="$cpg/data" PATH="$PG_BIN:$PATH" \
  bash "$(cat "$tmp/compose_entrypoint")" -c "port=$COMPOSE_PG_PORT" \
  -c listen_addresses=127.0.0.1 -c "unix_socket_directories=$cpg") >"$cpg/log" 2>&1 &
entry_pid=$!
mapfile -t HEALTH <"$tmp/compose_healthcheck"
[ "$COMPOSE_PG_PORT" != 5432 ] && HEALTH+=(-p "$COMPOSE_PG_PORT")
healthy=""
for _ in $(seq 1 300); do
  if inns env PATH="$PG_BIN:$PATH" "${HEALTH[@]}" >/dev/null 2>&1; then healthy=1; break; fi
  sleep 0.2
done
if [ -n "$healthy" ] && grep -q "made the cluster" "$cpg/log"; then
  pass "the compose db's entrypoint makes its cluster and passes the compose healthcheck (${HEALTH[*]})"
  run_args=()
  prev=""
  for a in "${COMPOSE_ARGS[@]}"; do
    case "$a" in postgresql://*) a="$(sed -E "s#@db:5432/#@127.0.0.1:$COMPOSE_PG_PORT/#" <<<"$a")" ;; esac
    if [ "$RUN_PORT" != "$K8S_PORT" ] && [ "$prev" = --listen ]; then a="127.0.0.1:$RUN_PORT"; fi
    run_args+=("$a"); prev="$a"
  done
  if start compose PGPASSWORD="$PASSWORD" -- "${run_args[@]}"; then
    if grep -q "game database: PostgreSQL database scribe at 127.0.0.1:$COMPOSE_PG_PORT; writes open to every client" \
         "$tmp/compose.log"; then
      pass "scribed with $REPLICA's command logs 'game database: PostgreSQL database scribe at 127.0.0.1:$COMPOSE_PG_PORT'"
    else
      fail "scribed with $REPLICA's command opens the compose database" "$(tail -n 3 "$tmp/compose.log")"
    fi
    out="$(node_client health "$ADDR" 2>&1) $(node_client import "$ADDR" "$tmp/games.json" compose 2>&1)"
    if [ "$out" = "health: SERVING import code=OK records=$GAMES added=$GAMES new_sources=0 known_sources=0 duplicates=0 rejected=0" ]; then
      pass "it answers SERVING and imports $GAMES games"
    else
      fail "it answers SERVING and imports" "$out"
    fi
    stop
    if [ "$stopped" -eq 0 ]; then pass "it exits 0 on SIGTERM"; else fail "it exits 0 on SIGTERM" "exit $stopped"; fi
  fi
else
  fail "the compose db's entrypoint makes its cluster and passes its healthcheck" "$(tail -n 8 "$cpg/log")"
fi
finish
