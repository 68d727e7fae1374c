#!/usr/bin/env bash
# Installs what is missing, builds lynxsim and runs the bundled default scenario.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "$root"
exec ./build/lynxsim --scenario scenarios/quickstart.json "$@"
