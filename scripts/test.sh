#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole test suite.
#   ./scripts/test.sh              the suite in build/, with a 60 s run of the scenario-loader fuzz
#                                  target (built with clang in build/fuzz-build/)
#   ./scripts/test.sh --sanitize   the suite under AddressSanitizer + UndefinedBehaviorSanitizer in
#                                  build-sanitize/ (trace-driven smoke scenarios run shortened), the
#                                  fuzz target for 60 s
# The clang build of the fuzz targets runs beside the main build (its log:
# <build>/fuzz-build.log), so the fuzz test of the suite only runs them. LYNXSIM_TIMINGS=1 prints
# the wall and CPU time of each phase (scripts/phase_timer.sh; the fuzz test's own phases are in
# ctest's log, <build>/Testing/Temporary/LastTest.log).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/phase_timer.sh"
phase packages "$root/scripts/setup.sh"
if [[ "${1:-}" == "--sanitize" ]]; then
  export LYNXSIM_BUILD_DIR=${LYNXSIM_BUILD_DIR:-$root/build-sanitize}
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
  "$root/scripts/build.sh" -DLYNXSIM_SANITIZE=ON -DLYNXSIM_FUZZ_SECONDS=60 -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cd "$LYNXSIM_BUILD_DIR"
  ctest --output-on-failure -j "$(nproc)" --timeout 1800
  exit
fi
build_dir=${LYNXSIM_BUILD_DIR:-$root/build}
mkdir -p "$build_dir"
# The fuzz test passes the build's compiler launcher to fuzz.sh; so does this build.
launcher=$(sed -n 's/^CMAKE_CXX_COMPILER_LAUNCHER:[A-Z]*=//p' "$build_dir/CMakeCache.txt" 2>/dev/null || true)
CMAKE_CXX_COMPILER_LAUNCHER=$launcher LYNXSIM_FUZZ_BUILD_DIR="$build_dir/fuzz-build" \
  "$root/scripts/fuzz.sh" --build-only >"$build_dir/fuzz-build.log" 2>&1 &
fuzz_build=$!
phase build "$root/scripts/build.sh" -DLYNXSIM_CUDA="${LYNXSIM_CUDA:-AUTO}" -DLYNXSIM_TESTS=ON
phase models "$root/scripts/fetch_model.sh" ||
  echo "lynxsim: SmolLM2 is not available; its real-model tests will be skipped"
phase models "$root/scripts/fetch_model.sh" gemma3-270m ||
  echo "lynxsim: Gemma 3 270M is not available; its real-model tests will be skipped"
# Whatever failed here, the fuzz test builds again and reports (or skips without libFuzzer).
phase fuzz-build-wait wait "$fuzz_build" || true
cd "$build_dir"
phase tests ctest --output-on-failure -j "$(nproc)"
