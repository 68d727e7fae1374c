#!/usr/bin/env bash
# The offline long-context measurement of issue "acceptance and accuracy at the paper's context
# lengths": for each real model and context, every Lynx split's anchor acceptance (4 windows of
# 16 drafts), teacher-forced agreement and perplexity change over the next 128 tokens of the text,
# and passkey retrieval with the needle hidden in the text itself (depths 0.1, 0.5, 0.9), on the
# Vim user manual (data/texts/vim_user_manual.txt). Each result is written as JSON to
# data/calibration/long-context/<model>-<context>.json with its wall time in a .time file beside it.
#
#   scripts/long_context_accuracy.sh [--no-passkey] MODEL CONTEXT...     e.g. gemma3-270m 2048 8192
#
# --no-passkey skips the three passkey prompts (each a full prefill of CONTEXT tokens: most of the
# cost at long contexts).
#
# Needs the model (scripts/fetch_model.sh MODEL) and a build (build/lynxsim). Runs at low priority;
# about 30-60 minutes per 8K context on 2 busy cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lynxsim="${LYNXSIM:-$root/build/lynxsim}"
out_dir="$root/data/calibration/long-context"
passkey=(--passkey-in-text)
if [[ "${1:-}" == "--no-passkey" ]]; then
  passkey=(--no-passkey)
  shift
fi
[[ $# -ge 2 ]] || { echo "usage: scripts/long_context_accuracy.sh [--no-passkey] MODEL CONTEXT..." >&2; exit 2; }
model="$1"
shift
mkdir -p "$out_dir"
for context in "$@"; do
  out="$out_dir/$model-$context.json"
  start=$(date +%s)
  nice -n 10 "$lynxsim" accuracy --model "$model" --context "$context" \
    --methods lynx,lynx-3+5,lynx-2+6,lynx-2+2+4,lynx-qs \
    --text "$root/data/texts/vim_user_manual.txt" "${passkey[@]}" \
    --continuation 128 --samples 4 --json > "$out.tmp"
  mv "$out.tmp" "$out"
  echo "$model $context: $(( $(date +%s) - start )) s wall" | tee "$out_dir/$model-$context.time"
done
