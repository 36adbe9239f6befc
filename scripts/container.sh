#!/usr/bin/env bash
# Builds the scribed container image (docker/Dockerfile) with podman.
#
#  1. installs podman, buildah, runc, debootstrap and git when missing (Debian 12);
#  2. makes the base image "debian:bookworm" when missing: debootstrap
#     --variant=minbase from this machine's Debian mirror, then podman import
#     (no image registry is reachable here; with one, the Dockerfile's
#     default BASE=debian:bookworm is pulled as usual); its / is 755, as
#     Debian makes it, and a base in which a user other than root cannot
#     run a program (an earlier import whose / was 0700, as a mktemp -d
#     folder is: with the vfs storage driver a container's / keeps that
#     mode) is made again;
#  3. writes the containers.conf podman needs here and exports CONTAINERS_CONF;
#     where podman's storage would be on overlayfs (this machine is itself a
#     container) and no storage.conf says otherwise, writes one choosing vfs;
#  4. builds scribe:latest (tests run inside the build), labelled with a hash
#     of the source files and the base image; an image with the same hash is
#     reused.
#
# Usage: scripts/container.sh [TAG]        (default scribe:latest)
#        scripts/container.sh --base-only   steps 1-3 alone (the base image)
#   SCRIBE_BASE_IMAGE=NAME names the base image (default debian:bookworm;
#     a name no image has yet makes a brand-new base: scripts/fresh_debian.sh).
#   SCRIBE_REBUILD=1 forces a build even when the source hash matches.
#   SCRIBE_CTEST_EXCLUDE=REGEX skips the tests it matches during the build
#   (ctest -E; for a known failure only: the default runs them all).
# Other scripts may source the CONTAINERS_CONF it prints on its last line:
#   "containers_conf=PATH".
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "container.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")/.."
base_only=0
if [ "${1:-}" = "--base-only" ]; then base_only=1; shift; fi
TAG="${1:-scribe:latest}"
BASE="${SCRIBE_BASE_IMAGE:-debian:bookworm}"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "container: run as root (podman here runs rootful)" >&2; exit 1
  fi
fi

# 1. The tools, idempotently (scripts/setup.sh's style).
TOOLS=(podman buildah runc debootstrap git)  # (git: the source hash in step 4)
missing=()
for p in "${TOOLS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "container: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 3. containers.conf: ulimits podman can set here, runc, cgroupfs.
conf_dir="${SCRIBE_CONTAINERS_CONF_DIR:-${TMPDIR:-/tmp}/scribe-podman}"
mkdir -p "$conf_dir"
export CONTAINERS_CONF="$conf_dir/containers.conf"
cat > "$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF

# 3b. The storage driver. Podman's default, overlay, cannot stack on a
# folder that is itself on overlayfs (a machine that is a container, such
# as scripts/fresh_debian.sh's: "'overlay' is not supported over overlayfs,
# a mount_program is required"). There, and only where the machine has no
# storage.conf of its own, podman is given the vfs driver.
storage_conf=/etc/containers/storage.conf
graph=/var/lib/containers/storage
probe="$graph"
while [ ! -e "$probe" ]; do probe="$(dirname "$probe")"; done
if [ ! -e "$storage_conf" ] && [ -z "${CONTAINERS_STORAGE_CONF:-}" ] && \
   [ "$(stat -f -c %T "$probe")" = overlayfs ]; then
  echo "container: $probe is on overlayfs; podman storage driver vfs ($storage_conf)" >&2
  $SUDO mkdir -p "$(dirname "$storage_conf")"
  printf '[storage]\ndriver = "vfs"\nrunroot = "/run/containers/storage"\ngraphroot = "%s"\n' "$graph" |
    $SUDO tee "$storage_conf" >/dev/null
fi

# 2. The base image.
# A user other than root must be able to run a program in it (the image's
# scribed runs as one, and so do tests in the build): its / and folders must
# be readable and searchable by all, as Debian makes them. With the overlay
# storage driver a container's / is 755 whatever the image says; with vfs
# (the usual driver where the machine is itself a container) it is what the
# image's first layer says.
make_base=1
if podman image exists "$BASE"; then
  make_base=0
  if ! out="$(podman run --rm --network=none --user 65534:65534 --entrypoint /bin/cat "$BASE" /etc/debian_version 2>&1)"; then
    echo "container: in $BASE a user other than root cannot run a program ($out): making it again" >&2
    make_base=1
  fi
fi
if [ "$make_base" = 1 ]; then
  mirror=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    mirror="$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)"
  fi
  if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
    mirror="$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; exit}}' /etc/apt/sources.list)"
  fi
  mirror="${mirror:-http://deb.debian.org/debian}"
  root="$(mktemp -d "${TMPDIR:-/tmp}/scribe-bookworm.XXXXXX")"
  # debootstrap mounts /proc (and /sys) inside the tree while it runs:
  # unmount whatever is left there before removing it.
  # (No mount left is the usual case: grep then finds nothing, which must
  # not end the script under pipefail.)
  remove_root() {
    { findmnt -rn -o TARGET | grep -F "$root/" || true; } | sort -r | while read -r m; do $SUDO umount -l "$m"; done
    $SUDO rm -rf --one-file-system "$root"
  }
  trap remove_root EXIT
  echo "container: debootstrap --variant=minbase bookworm from $mirror" >&2
  log="${TMPDIR:-/tmp}/scribe-debootstrap.log"
  if ! $SUDO debootstrap --variant=minbase bookworm "$root" "$mirror" >"$log" 2>&1; then
    echo "container: debootstrap failed; the end of its log ($log):" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
  # Keep the image small: no package lists or caches.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
  # The tree's top is a mktemp -d folder, mode 0700; it becomes the image's
  # / (the tar's first entry, "./", carries its mode and owner): make it
  # Debian's 755 root:root, or no user but root can load a shared library
  # where the storage driver keeps that mode (vfs).
  $SUDO chown 0:0 "$root"
  $SUDO chmod 755 "$root"
  tar -C "$root" -c . | podman import --quiet - "$BASE" >/dev/null
  remove_root
  trap - EXIT
  echo "container: imported $BASE" >&2
fi
if [ "$base_only" = 1 ]; then
  echo "containers_conf=$CONTAINERS_CONF"
  exit 0
fi

# 4. The image, unless one built from the same source exists.
# The hash covers what the Dockerfile copies in (every file git would track
# there, committed or not) and the Dockerfile itself. The list is read from
# the Dockerfile's COPY lines (not those --from a stage), so a folder the
# Dockerfile starts copying is hashed too.
mapfile -t SOURCES < <(awk '$1 == "COPY" && $2 !~ /^--/ { for (i = 2; i < NF; i++) print $i }' docker/Dockerfile)
SOURCES+=(docker/Dockerfile)
# (less what .dockerignore keeps out of the context).
# A file git tracks but the worktree has deleted is not in the context
# either: left out (sha256sum would fail on it, and the script end).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list_sources() { git ls-files -co --exclude-standard -z -- "${SOURCES[@]}"; }
else
  # Not a git checkout (an unpacked archive): every file there.
  list_sources() { find "${SOURCES[@]}" -type f -print0; }
fi
mapfile -d '' listed < <(list_sources \
  | { grep -zvE '/node_modules/|^tests/e2e/(node_client|browser)/|^tests/e2e/(container|k8s_manifest|replicas|failover|review_browser)_test\.sh$|^tests/e2e/replicas_lib\.sh$' || true; } \
  | sort -z)
hashed=()
for f in "${listed[@]}"; do [ -f "$f" ] && hashed+=("$f"); done
if [ "${#hashed[@]}" -eq 0 ]; then
  echo "container: no source file found to hash (${SOURCES[*]})" >&2
  exit 1
fi
# The base image's id is hashed too: a base made again (step 2) builds the
# image again on it.
base_id="$(podman image inspect --format '{{.Id}}' "$BASE")"
hash="$({ sha256sum -- "${hashed[@]}"; echo "base $base_id"; } | sha256sum | cut -c1-16)"
if [ "${SCRIBE_REBUILD:-0}" != 1 ] && podman image exists "$TAG" && \
   [ "$(podman image inspect --format '{{index .Labels "scribe.source-hash"}}' "$TAG")" = "$hash" ]; then
  echo "container: $TAG is up to date (source $hash)" >&2
else
  echo "container: building $TAG (source $hash)" >&2
  podman build --network=host --pull=never -f docker/Dockerfile \
    --build-arg "BASE=$BASE" --build-arg "CTEST_EXCLUDE=${SCRIBE_CTEST_EXCLUDE:-}" \
    --label "scribe.source-hash=$hash" -t "$TAG" .
fi
echo "containers_conf=$CONTAINERS_CONF"
