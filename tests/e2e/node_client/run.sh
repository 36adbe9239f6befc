#!/usr/bin/env bash
# Runs the Node client tests against a scribed binary: installs the locked
# npm packages first when they are missing.
# Usage: run.sh PATH_TO_SCRIBED
set -euo pipefail
cd "$(dirname "$0")"
./install.sh
SCRIBED="$(realpath "$1")" exec node --test client_test.js
