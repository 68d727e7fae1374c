#!/usr/bin/python3
"""A stand-in for the lynxsim binary with its command-line and results-folder contract.

Takes --scenario FILE --out DIR [--set path=value]... [--quiet] [--seed N], applies the overrides
(value parsed as JSON when valid, else a string) and writes scenario.resolved.json, summary.json
and requests.csv atomically (a staging folder renamed into place). Its numbers follow a closed
form so tests can predict them: per request, TTFT = context * 1e-5 s + KV bytes * 8 / bandwidth,
KV bytes = context * 1000 * bits / 8, with bits 16 (bf16), 8 (int8), 4 (int4, lynx: the anchor),
2 (kivi2). Accuracy: snr_db = 6 * bits (lynx counts as 8 after verification).

Environment: FAKE_LYNXSIM_LOG appends one line per run (its --out); FAKE_LYNXSIM_FAIL_CONTEXT
makes a run whose first request has that context exit 2; FAKE_LYNXSIM_SHIFT adds that many
seconds to the lynx TTFT, to move a regression ratio; FAKE_LYNXSIM_SLEEP makes every run take that
many seconds first.
"""

import json
import os
import shutil
import sys
import time
from pathlib import Path

BITS = {"bf16": 16, "int8": 8, "int4": 4, "kivi2": 2, "lynx": 4}
RATE = {"Gbps": 1e9, "Mbps": 1e6}


def parse(argv):
    options = {"sets": []}
    i = 0
    while i < len(argv):
        flag = argv[i]
        if flag == "--quiet":
            i += 1
            continue
        value = argv[i + 1]
        if flag == "--set":
            options["sets"].append(value)
        else:
            options[flag.lstrip("-")] = value
        i += 2
    return options


def apply_set(scenario, text):
    path, _, raw = text.partition("=")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    keys = path.split(".")
    node = scenario
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node.setdefault(key, {})
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def bandwidth_bps(text):
    for suffix, scale in RATE.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * scale
    raise ValueError(text)


def stats_of(values):
    mean = sum(values) / len(values)
    return {"mean": mean, "p50": mean, "p90": max(values), "p99": max(values)}


def method_summary(name, ttfts, commits, bits):
    stats, commit = stats_of(ttfts), stats_of(commits)
    accuracy_bits = 8 if name == "lynx" else bits
    return {"family": name, "speculative": name == "lynx", "planes_bits": [bits],
            "requests": len(ttfts), "ttft_s": commit, "ttft_speculative_s": stats,
            "ttft_commit_s": commit,
            "exposed_transfer_s": {k: v / 2 for k, v in stats.items()},
            "bytes_per_plane": [1000 * bits], "bytes_total": 1000 * bits, "rollbacks": 0,
            "acceptance": None, "accuracy": {"snr_db": 6.0 * accuracy_bits},
            "speedup_vs": {}}


def simulate(scenario):
    rate = bandwidth_bps(scenario["network"]["bandwidth"])
    shift = float(os.environ.get("FAKE_LYNXSIM_SHIFT", "0"))
    summary, rows = {}, []
    for name in scenario["methods"]:
        bits = BITS[name]
        ttfts, commits = [], []
        for i, request in enumerate(scenario["workload"]["requests"]):
            context = request["context"]
            ttft = context * 1e-5 + context * 1000 * bits / 8 * 8 / rate
            ttft += shift if name == "lynx" else 0.0
            ttfts.append(ttft)
            commits.append(ttft + (context * 1000 * 4 / rate + 1e-3 if name == "lynx" else 0.0))
            rows.append(f"{name},{i},{context},{request['output']},{commits[-1]:.12f}")
        summary[name] = method_summary(name, ttfts, commits, bits)
    for name, method in summary.items():
        method["speedup"] = {"ttft_speculative_s": {}, "ttft_commit_s": {}}
        for base in ("int8", "bf16"):
            if base in summary:
                method["speedup_vs"][base] = summary[base]["ttft_s"]["mean"] / method["ttft_s"]["mean"]
                for metric, ratios in method["speedup"].items():
                    ratios[base] = summary[base][metric]["mean"] / method[metric]["mean"]
    return summary, rows


def write_folder(out, scenario, summary, rows):
    staging = out.with_name(out.name + ".staging")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    (staging / "scenario.resolved.json").write_text(json.dumps(scenario))
    (staging / "summary.json").write_text(json.dumps(
        {"schema_version": 1, "scenario": scenario["name"], "method_order": list(summary),
         "methods": summary}))
    (staging / "requests.csv").write_text(
        "method,id,context_tokens,output_tokens,ttft_s\n" + "\n".join(rows) + "\n")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)


def main():
    options = parse(sys.argv[1:])
    scenario = json.loads(Path(options["scenario"]).read_text())
    for text in options["sets"]:
        apply_set(scenario, text)
    out = Path(options["out"])
    if os.environ.get("FAKE_LYNXSIM_LOG"):
        with open(os.environ["FAKE_LYNXSIM_LOG"], "a") as log:
            log.write(f"{out}\n")
    if os.environ.get("FAKE_LYNXSIM_SLEEP"):
        time.sleep(float(os.environ["FAKE_LYNXSIM_SLEEP"]))
    fail = os.environ.get("FAKE_LYNXSIM_FAIL_CONTEXT")
    if fail and str(scenario["workload"]["requests"][0]["context"]) == fail:
        print("fake failure", file=sys.stderr)
        return 2
    summary, rows = simulate(scenario)
    write_folder(out, scenario, summary, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
