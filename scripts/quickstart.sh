#!/usr/bin/env bash
# Installs what is missing, builds the lynxsim program only (the CUDA kernels only when a GPU is
# present, or with LYNXSIM_CUDA=ON) and runs the bundled default scenario. The test command
# (scripts/test.sh) builds everything.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cuda=${LYNXSIM_CUDA:-OFF}
if [[ -z "${LYNXSIM_CUDA:-}" ]] && command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  cuda=AUTO
fi
LYNXSIM_BUILD_TARGET=lynxsim "$root/scripts/build.sh" -DLYNXSIM_CUDA="$cuda"
cd "$root"
exec ./build/lynxsim --scenario scenarios/quickstart.json "$@"
