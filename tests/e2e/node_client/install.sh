#!/usr/bin/env bash
# Installs the locked npm packages of the Node client (once; tests that run
# at the same time wait for the one install instead of racing it).
set -euo pipefail
cd "$(dirname "$0")"
exec 9>.install.lock
flock 9
if [ ! -d node_modules/@grpc/grpc-js ] || [ ! -d node_modules/@grpc/proto-loader ]; then
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
