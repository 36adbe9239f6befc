#!/usr/bin/env bash
# Installs what Scribe needs to build and test, from Debian 12 packages.
# Idempotent: when everything is there already it changes nothing and
# asks no package server. Runs as root, or through sudo when present.
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "setup.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR

PACKAGES=(
  # toolchain (ccache: scripts/ccache_env.sh)
  g++ cmake ninja-build pkg-config ccache
  # fuzzing (scripts/fuzz.sh): clang with its sanitizer and libFuzzer runtimes
  clang-14 libclang-rt-14-dev
  # libraries
  libprotobuf-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc grpc-proto
  libabsl-dev libssl-dev libcli11-dev nlohmann-json3-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev
  # deployment tests: nginx in front of replicas (tests/e2e/replicas_test.sh),
  # the Kubernetes manifests parsed by tests/e2e/k8s_manifest_test.sh, and
  # Python's gRPC as a client of a failover (tests/e2e/failover_test.sh)
  nginx python3-yaml python3-grpcio
  # the game database: SQLite (embedded) and PostgreSQL 15 (a real server
  # started by the tests, tests/storage), with libpq
  libsqlite3-dev sqlite3 postgresql-15 libpq-dev
  # TLS test certificates, made at test time (tests/e2e/tls_test.sh)
  openssl
  # the replica serving a stream, found by its connection (ss:
  # tests/e2e/database_replicas_test.sh)
  iproute2
  # the size check of the source (scripts/check_sizes.py)
  python3
  # peak memory in tests and benchmarks (/usr/bin/time -v: large_records_cli_test,
  # scripts_test through bench/solve_bench.sh, bench/review_bench.sh)
  time
  # well-formed XML of the SVGs written (xmllint: cli_test, annotate_values_cli_test)
  libxml2-utils
  # the review page in a real browser (tests/e2e/review_browser_test.sh):
  # headless chromium, driven by puppeteer-core from npm (tests/e2e/browser)
  chromium
)
# The gRPC client no one here wrote (tests/e2e/node_client: @grpc/grpc-js from
# npm) and the browser test (tests/e2e/browser: puppeteer-core) need Node.js
# and npm; a machine with its own Node.js (e.g. from NodeSource, which bundles
# npm) keeps it.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  PACKAGES+=(nodejs npm)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "setup: these Debian packages are missing and you are not root: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
