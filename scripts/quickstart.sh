#!/usr/bin/env bash
# Installs what is missing, builds the lynxsim program only (the CUDA kernels only when a GPU is
# present, or with LYNXSIM_CUDA=ON) and runs the bundled default scenario twice: with the KV sent
# after prefill (the paper's setting, where the transfer method matters) and as bundled (layer-wise,
# where it hides behind prefill); each table ends with a line saying how much transfer is exposed.
# The test command (scripts/test.sh) builds everything. LYNXSIM_TIMINGS=1 prints the wall and CPU
# time of each phase (packages, configure, compile, each run; scripts/phase_timer.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/phase_timer.sh"
phase packages "$root/scripts/setup.sh" --program-only
cuda=${LYNXSIM_CUDA:-OFF}
if [[ -z "${LYNXSIM_CUDA:-}" ]] && command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  cuda=AUTO
fi
LYNXSIM_BUILD_TARGET=lynxsim "$root/scripts/build.sh" -DLYNXSIM_CUDA="$cuda" -DLYNXSIM_TESTS=OFF
cd "$root"
echo "== The paper's setting: the KV leaves after prefill, so its transfer delays the first token"
phase run-1 ./build/lynxsim --scenario scenarios/quickstart.json --set serving.streaming=after_prefill \
  --out results/runs/quickstart-after-prefill "$@"
echo
echo "== The bundled default: the KV streams layer by layer and hides behind prefill"
phase run-2 ./build/lynxsim --scenario scenarios/quickstart.json "$@"
