#!/usr/bin/env bash
# Installs the locked npm packages of the Node client (once; tests that run
# at the same time wait for the one install instead of racing it).
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "install.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")"
exec 9>.install.lock
flock 9
if [ ! -d node_modules/@grpc/grpc-js ] || [ ! -d node_modules/@grpc/proto-loader ]; then
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
