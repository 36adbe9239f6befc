#!/usr/bin/env bash
# Installs the locked npm packages of the browser test (puppeteer-core, once;
# tests that run at the same time wait for the one install instead of racing
# it). puppeteer-core drives Debian's chromium (scripts/setup.sh): nothing
# here downloads a browser.
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "install.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")"
exec 9>.install.lock
flock 9
if [ ! -d node_modules/puppeteer-core ]; then
  PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
