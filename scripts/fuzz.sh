#!/usr/bin/env bash
# Builds the fuzz targets with clang (ASan+UBSan+libFuzzer) into build-fuzz/ and runs them for
# SECONDS in all (default 60), split among them: the scenario loader (seed corpus: the bundled
# scenarios and the bad-scenario tests), `--set` overrides of a bundled scenario, and the other
# file readers (traces, length files, bandwidth traces, flow lists, KV files, GGUF models, cache
# entries; fuzz/input_file_fuzz.cpp). The JSON targets get a dictionary of the scenario keys that
# fuzz/scenario_dictionary.cpp writes from the field tables at fuzz time.
# Exits 0 when no target found anything, 1 on a finding (the input is left in build-fuzz/findings/),
# and 77 when clang's fuzzer runtime is unavailable. --build-only builds the targets and stops
# (scripts/test.sh builds them beside the main build, so the fuzz test only runs them).
#   ./scripts/fuzz.sh [SECONDS | --build-only]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/phase_timer.sh"
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
phase fuzz-configure cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DLYNXSIM_FUZZ=ON -DLYNXSIM_TESTS=OFF \
  -DLYNXSIM_CUDA=OFF \
  ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
phase fuzz-compile cmake --build "$build_dir" -j "$(nproc)" \
  --target scenario_loader_fuzz set_override_fuzz input_file_fuzz scenario_dictionary
[[ "$seconds" == --build-only ]] && exit 0
findings="$build_dir/findings"
rm -rf "$build_dir/corpus" "$build_dir/tmp"
mkdir -p "$findings" "$build_dir/tmp" "$build_dir/corpus/scenario" "$build_dir/corpus/set" \
  "$build_dir/corpus/input"
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TMPDIR="$build_dir/tmp"
trap 'rm -rf "$probe" "$build_dir/tmp"' EXIT
"$build_dir/fuzz/scenario_dictionary" >"$build_dir/scenario_keys.dict"

cp "$root"/scenarios/*.json "$root"/tests/scenario/bad/*.json "$build_dir/corpus/scenario/"
printf 'network.bandwidth=10Gbps\nseed=7' >"$build_dir/corpus/set/bandwidth"
printf 'methods=["int8","lynx"]\nworkload.requests.0.context=8192' >"$build_dir/corpus/set/methods"
printf 'accuracy.enabled=false\nnetwork.traces=[]' >"$build_dir/corpus/set/accuracy"
python3 - "$root" "$build_dir/corpus/input" <<'PY'
import struct, sys
from pathlib import Path
root, out = Path(sys.argv[1]), Path(sys.argv[2])
def head(path, lines):
    return b"".join(path.read_bytes().splitlines(keepends=True)[:lines])
header = b'{"k.0":{"dtype":"F32","shape":[1,2,2],"data_offsets":[0,16]},' \
         b'"v.0":{"dtype":"F32","shape":[1,2,2],"data_offsets":[16,32]}}'
npy = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 2), }"
npy = npy + b" " * (63 - 10 - len(npy)) + b"\n"
seeds = {
    0: head(root / "scenarios/traces/mooncake_conversation.jsonl", 8),
    1: head(root / "scenarios/traces/azure_llm_2023_code.csv", 8),
    2: b"arrived_at,num_prefill_tokens,num_decode_tokens\n0.5,100,10\n1.0,2048,64\n",
    3: b"# lengths\n100\n2048\n\n7\n",
    4: b"time_s,rate_Gbps\n0,10\n0.5,2.5\n",
    5: b'{"flows": [{"src": "p0", "dst": "d0", "size": "1MB", "start": "0s"}]}',
    6: b"src,dst,size_B,start_s,class\np0,d0,1000000,0,0\n",
    7: struct.pack("<Q", len(header)) + header + bytes(32),
    8: b"\x93NUMPY\x01\x00" + struct.pack("<H", len(npy)) + npy + bytes(16),
    9: b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 4) + b"name"
       + struct.pack("<IQ", 8, 3) + b"abc",
    255: b'{"cache_key": "fuzz", "result": {"a": 1}}',
}
for reader, content in seeds.items():
    (out / f"seed-{reader}").write_bytes(bytes([reader]) + content)
PY

run_target() {
  local target=$1 corpus=$2 time=$3
  shift 3
  "$build_dir/fuzz/$target" "$build_dir/corpus/$corpus" -max_total_time="$time" \
    -rss_limit_mb=4096 -malloc_limit_mb=2048 -timeout=20 -error_exitcode=1 -timeout_exitcode=1 \
    -artifact_prefix="$findings/$target-" -print_final_stats=1 "$@"
}
share=$((seconds / 3 > 0 ? seconds / 3 : 1))
last=$((seconds - 2 * share > 0 ? seconds - 2 * share : 1))
phase fuzz-scenario run_target scenario_loader_fuzz scenario "$share" -max_len=262144 \
  -dict="$build_dir/scenario_keys.dict"
phase fuzz-set run_target set_override_fuzz set "$share" -max_len=4096 \
  -dict="$build_dir/scenario_keys.dict"
phase fuzz-inputs run_target input_file_fuzz input "$last" -max_len=65536
