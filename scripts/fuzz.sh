#!/usr/bin/env bash
# Builds the scenario-loader fuzz target with clang (ASan+UBSan+libFuzzer) into build-fuzz/ and runs
# it for SECONDS (default 60) on a seed corpus of the bundled scenarios and the bad-scenario tests.
# Exits 0 when no crash was found, 1 on a finding (the input is left in build-fuzz/findings/), and
# 77 when clang's fuzzer runtime is unavailable.
#   ./scripts/fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build_dir=${LYNXSIM_FUZZ_BUILD_DIR:-$root/build-fuzz}
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }\n' \
  >"$probe/probe.cpp"
if ! command -v clang++ >/dev/null ||
   ! clang++ -fsanitize=fuzzer "$probe/probe.cpp" -o "$probe/probe" 2>/dev/null; then
  echo "lynxsim fuzz: clang++ with the libFuzzer runtime is not available; skipped"
  exit 77
fi
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_COMPILER=clang -DLYNXSIM_FUZZ=ON -DLYNXSIM_TESTS=OFF -DLYNXSIM_CUDA=OFF \
  ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target scenario_loader_fuzz
corpus="$build_dir/corpus"
findings="$build_dir/findings"
mkdir -p "$corpus" "$findings"
cp "$root"/scenarios/*.json "$root"/tests/scenario/bad/*.json "$corpus/"
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$build_dir/fuzz/scenario_loader_fuzz" "$corpus" -max_total_time="$seconds" -max_len=262144 \
  -rss_limit_mb=4096 -timeout=20 -artifact_prefix="$findings/" -print_final_stats=1
