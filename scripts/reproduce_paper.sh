#!/usr/bin/env bash
# Rebuilds results/paper/ from the sweeps sweeps/paper.json and sweeps/ttft-vs-bandwidth-models.json: runs every point not yet run (so an
# interrupted run resumes; --fresh starts over), merges the results into CSV files, draws the
# figures and prints how long it took.
#
#   scripts/reproduce_paper.sh [--fresh] [--jobs N] [--lynxsim PATH]
#
# Output: results/paper/summary.csv (one row per point and method), results/paper/requests.csv
# (one row per request), results/paper/models.csv (the model sweep, one row per point and method),
# results/paper/plots/*.png, results/paper/README.md (the headline ratios, computed from summary.csv,
# and a model-class section from models.csv), and the raw results folders under results/paper/runs/
# and runs-models/ (not committed).
# On a cluster, run `scripts/sweep.py run sweeps/paper.json --shard i/n` on
# each machine first (docs/sweeps.md), copy the runs/ folders together, then run this script.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup_venv.sh"
python="$root/.venv/bin/python3"
lynxsim="$root/build/lynxsim"
jobs=$(nproc)
fresh=0
while (($#)); do
  case "$1" in
    --fresh) fresh=1; shift ;;
    --jobs) jobs="$2"; shift 2 ;;
    --lynxsim) lynxsim="$2"; shift 2 ;;
    *) echo "usage: $0 [--fresh] [--jobs N] [--lynxsim PATH]" >&2; exit 2 ;;
  esac
done

out="$root/results/paper"
plots="$out/plots"
started=$(date +%s)
[[ -x "$lynxsim" ]] || "$root/scripts/build.sh"
((fresh)) && rm -rf "$out/runs" "$out/runs-models"

sweep() { "$python" "$root/scripts/sweep.py" "$@"; }
sweep run "$root/sweeps/paper.json" --jobs "$jobs" --lynxsim "$lynxsim" --collect
cp "$out/runs/summary.csv" "$out/summary.csv"
cp "$out/runs/requests.csv" "$out/requests.csv"
sweep run "$root/sweeps/ttft-vs-bandwidth-models.json" --out "$out/runs-models" --jobs "$jobs" \
  --lynxsim "$lynxsim" --collect
cp "$out/runs-models/summary.csv" "$out/models.csv"

mkdir -p "$plots"
rm -f "$plots"/*.png
for model in llama-3.1-8b llama-3.1-70b qwen2.5-7b; do
  for hardware in ascend-910b h100-sxm; do
    for streaming in layerwise after_prefill; do
      only=(--where "model=$model" --where "hardware=$hardware" --where "serving.streaming=$streaming")
      tag="$model-$hardware-$streaming"
      sweep plot "$out/summary.csv" --kind ttft-vs-context "${only[@]}" -o "$plots/ttft-vs-context-$tag.png"
      sweep plot "$out/summary.csv" --kind exposed-vs-context "${only[@]}" -o "$plots/exposed-vs-context-$tag.png"
      sweep plot "$out/summary.csv" --kind speedup-vs-bandwidth "${only[@]}" \
        --where workload.requests.0.context=32768 -o "$plots/speedup-vs-bandwidth-32k-$tag.png"
    done
    sweep plot "$out/summary.csv" --kind accuracy-vs-ttft --where "model=$model" --where "hardware=$hardware" \
      --where serving.streaming=after_prefill --where workload.requests.0.context=32768 \
      --where network.bandwidth=25Gbps -o "$plots/accuracy-vs-ttft-32k-25g-$model-$hardware-after_prefill.png"
  done
done

elapsed=$(($(date +%s) - started))
took="$((elapsed / 60)) min $((elapsed % 60)) s with $jobs jobs on $(nproc) cores"
sweep paper-report "$out/summary.csv" --models "$out/models.csv" --output "$out/README.md" --elapsed "$took"
echo "results/paper rebuilt in $took"
