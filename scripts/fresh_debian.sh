#!/usr/bin/env bash
# Runs the README's two commands on a brand-new Debian 12 machine: a base
# image made now by debootstrap --variant=minbase (scripts/container.sh
# --base-only under a name no image has, so nothing of an earlier run is
# reused: no image, no apt cache, no package), a clone of this checkout's
# HEAD, and
#
#   scripts/example.sh && scripts/test.sh
#
# in a privileged container of that base (test.sh builds the container
# image with podman inside it: the vfs storage driver). Both logs are kept.
# The container reaches the network as this machine does: where this
# machine trusts certificate authorities of its own (an egress proxy's,
# in /usr/local/share/ca-certificates), npm in the container is given
# this machine's CA bundle (NODE_EXTRA_CA_CERTS); nothing is installed
# for it.
#
# Usage: scripts/fresh_debian.sh [WORKDIR [COMMAND...]]
#   WORKDIR: default a new /var/tmp folder; COMMAND: example, test (default
#   both, in that order, each in a new container of the same base).
#   Prints the logs' paths and exits with the commands' status. About an
#   hour on 2 cores. Run as root.
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "fresh_debian.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")/.."
work="${1:-$(mktemp -d /var/tmp/scribe-fresh.XXXXXX)}"
shift || true
commands=("$@")
[ "${#commands[@]}" -gt 0 ] || commands=(example test)
mkdir -p "$work"
stamp="$(date +%Y%m%d%H%M%S)"
base="localhost/scribe-fresh-base:$stamp"
conf="$(SCRIBE_BASE_IMAGE="$base" SCRIBE_CONTAINERS_CONF_DIR="$work/podman" scripts/container.sh --base-only | tail -n 1)"
export CONTAINERS_CONF="${conf#containers_conf=}"
rm -rf "$work/scribe"
git clone -q "$(pwd)" "$work/scribe"
echo "fresh_debian: $(git -C "$work/scribe" log --oneline -1) in $base; logs in $work" >&2
ca=()
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null && [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  cp /etc/ssl/certs/ca-certificates.crt "$work/host-ca.crt"
  ca=(-v "$work/host-ca.crt:/etc/host-ca.crt:ro" -e NODE_EXTRA_CA_CERTS=/etc/host-ca.crt)
fi
run() {  # NAME COMMAND: one README command in its own new container
  local name="$1" command="$2"
  podman run --rm --privileged --network=host --name "scribe-fresh-$name-$stamp" "${ca[@]}" \
    -v "$work/scribe:/scribe" -w /scribe "$base" bash -c "$command" >"$work/$name.log" 2>&1
}
status=0
for name in "${commands[@]}"; do
  start=$SECONDS
  if run "$name" "scripts/$name.sh"; then
    echo "fresh_debian: scripts/$name.sh passed ($((SECONDS - start)) s)" >&2
  else
    rc=$?
    status=$rc
    echo "fresh_debian: scripts/$name.sh failed (exit $rc): $work/$name.log" >&2
  fi
done
podman rmi "$base" >/dev/null 2>&1 || true
exit "$status"
