#!/usr/bin/env bash
# Sets up, builds, and runs Scribe's main job on a bundled example: replays
# a game record throw by throw, says what every move did, validates it, and
# prints its review for the players (accuracy, luck, key moves).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build >/dev/null
build/cli/scribe replay examples/finkel-game.json
build/cli/scribe validate examples/finkel-game.json
build/cli/scribe review examples/finkel-game.json
