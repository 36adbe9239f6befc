#!/usr/bin/env bash
# Runs the Node client tests against a scribed binary: installs the locked
# npm packages first when they are missing.
# Usage: run.sh PATH_TO_SCRIBED
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "run.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")"
./install.sh
SCRIBED="$(realpath "$1")" exec node --test client_test.js
