#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole test suite.
#   ./scripts/test.sh              the suite in build/, with a 60 s run of the scenario-loader fuzz
#                                  target (built with clang in build/fuzz-build/)
#   ./scripts/test.sh --sanitize   the suite under AddressSanitizer + UndefinedBehaviorSanitizer in
#                                  build-sanitize/ (trace-driven smoke scenarios run shortened), the
#                                  fuzz target for 60 s
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
if [[ "${1:-}" == "--sanitize" ]]; then
  export LYNXSIM_BUILD_DIR=${LYNXSIM_BUILD_DIR:-$root/build-sanitize}
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
  "$root/scripts/build.sh" -DLYNXSIM_SANITIZE=ON -DLYNXSIM_FUZZ_SECONDS=60 -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cd "$LYNXSIM_BUILD_DIR"
  ctest --output-on-failure -j "$(nproc)" --timeout 1800
  exit
fi
"$root/scripts/build.sh" -DLYNXSIM_CUDA="${LYNXSIM_CUDA:-AUTO}"
"$root/scripts/fetch_model.sh" || echo "lynxsim: SmolLM2 is not available; its real-model tests will be skipped"
"$root/scripts/fetch_model.sh" gemma3-270m ||
  echo "lynxsim: Gemma 3 270M is not available; its real-model tests will be skipped"
cd "${LYNXSIM_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)"
