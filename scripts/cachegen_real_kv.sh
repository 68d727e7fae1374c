#!/usr/bin/env bash
# CacheGen's coded size on real KV against the synthetic generator's, for the two real models.
#
#   scripts/cachegen_real_kv.sh PYTHON [TOKENS]      e.g. /tmp/hfenv/bin/python 2048
#
# PYTHON must have torch, transformers, safetensors and gguf (a throwaway environment, as for
# scripts/hf_crosscheck.py). For SmolLM2-135M and Gemma 3 270M (scripts/fetch_model.sh) it captures
# the K/V of the first TOKENS tokens of the Vim user manual with scripts/capture_kv.py (from the same
# GGUF files lynxsim runs), then runs one single-request scenario per model twice, with
# accuracy.kv_file set to the capture and without it (synthetic KV of the same geometry), with the
# methods bf16, int8 and cachegen-0..3. The bytes each method sent (requests.csv) go to
# data/calibration/cachegen-real-kv/sizes.csv. Gemma is described by an inline card of its geometry
# without sliding windows, so every layer's full-length K/V is coded (the codec's ratio, not Gemma's
# transfer volume).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${1:?usage: scripts/cachegen_real_kv.sh PYTHON [TOKENS]}"
tokens="${2:-2048}"
lynxsim="${LYNXSIM:-$root/build/lynxsim}"
models="${LYNXSIM_CACHE_DIR_MODELS:-$HOME/.cache/lynxsim/models}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$root/data/calibration/cachegen-real-kv/sizes.csv"

capture() {  # model folder, gguf file, output
  "$python" "$root/scripts/capture_kv.py" --model "$models/$1" --gguf-file "$2" --queries 0 \
    --prompt "$root/data/texts/vim_user_manual.txt" --max-tokens "$tokens" --out "$3" >/dev/null 2>&1
}

scenario() {  # model (card name or inline JSON), kv file or "", output file
  "$python" - "$1" "$2" "$3" "$tokens" <<'PY'
import json, sys
model, kv_file, path, tokens = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s = {"schema_version": 1, "name": "cachegen-real-kv", "seed": 1,
     "model": json.loads(model) if model.startswith("{") else model,
     "prefill": {"gpu": "h100-sxm", "tp": 1}, "decode": {"gpu": "h100-sxm", "tp": 1},
     "network": {"topology": "single-link", "bandwidth": "1Gbps", "latency": "2ms"},
     "workload": {"requests": [{"context": tokens, "output": 16, "arrival": "0s"}]},
     "methods": ["bf16", "int8", "cachegen-0", "cachegen-1", "cachegen-2", "cachegen-3"],
     "serving": {"streaming": "after_prefill"},
     "accuracy": {"enabled": True}}
if kv_file:
    s["accuracy"]["kv_file"] = kv_file
json.dump(s, open(path, "w"))
PY
}

gemma_card='{"schema_version": 1, "name": "gemma3-270m-geometry", "description": "Gemma 3 270M K/V geometry, every layer full length", "num_layers": 18, "hidden_size": 640, "num_heads": 4, "num_kv_heads": 1, "head_dim": 256, "ffn_dim": 2048, "vocab_size": 262144, "num_params": 268098176.0, "rope_theta": 1000000, "max_context": 32768, "source": "the GGUF metadata of scripts/fetch_model.sh gemma3-270m"}'

echo "model,tokens,kv,method,bytes" > "$out.tmp"
for spec in "smollm2-135m|SmolLM2-135M-Instruct.Q4_1.gguf|smollm2-135m" "gemma3-270m|gemma-3-270m-q4_k_m.gguf|$gemma_card"; do
  IFS='|' read -r name gguf card <<<"$spec"
  capture "$name" "$gguf" "$work/$name.safetensors"
  for kv in real synthetic; do
    file=""
    [[ $kv == real ]] && file="$work/$name.safetensors"
    scenario "$card" "$file" "$work/$name-$kv.json"
    "$lynxsim" --scenario "$work/$name-$kv.json" --out "$work/$name-$kv" --quiet >/dev/null
    awk -F, -v m="$name" -v t="$tokens" -v k="$kv" \
      'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "bytes_total") c = i; next } { print m "," t "," k "," $1 "," $c }' \
      "$work/$name-$kv/requests.csv" >> "$out.tmp"
  done
done
mv "$out.tmp" "$out"
cat "$out"
