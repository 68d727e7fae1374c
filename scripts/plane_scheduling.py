#!/usr/bin/python3
"""Runs a scenario once per plane scheduling policy and prints TTFT, TTFT_commit and rollbacks.

    plane_scheduling.py [SCENARIO] [--count N] [--set path=value]... [--lynxsim PATH] [--out DIR]
                        [--csv PATH]

SCENARIO defaults to scenarios/llama8b-8k-h100-10g-load.json; --count N sets the request count of
the scenario's workload, workload.synthetic.count or workload.closed_loop.count (1000 reproduces
the full load case). Each policy of POLICIES runs as
`lynxsim --scenario SCENARIO --set network.scheduling=... --set speculation.stream="speculative"`
into <out>/<label> (drafts stream, so rolled-back drafts count as retracted tokens); the table
gives, per policy and method, mean and p99 of TTFT_spec and TTFT_commit (seconds), rollbacks,
retracted tokens, the mean and p99 wait for decode-side KV admission (serving.kv_admission) and the
client's achieved concurrency (requests in flight, time-averaged). Exit status: 0 success, 1 a run failed, 2 bad input.
"""

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lynxsim_tools import venv  # noqa: E402

if __name__ == "__main__":
    venv.ensure(__file__)

from lynxsim_tools import repo  # noqa: E402

POLICIES = [
    ("strict", {"policy": "strict"}),
    ("request_order", {"policy": "request_order"}),
    ("weighted-1:1", {"policy": "weighted", "weights": [1, 1]}),
    ("weighted-4:1", {"policy": "weighted", "weights": [4, 1]}),
    ("fair", {"policy": "fair"}),
    ("aging-500ms", {"policy": "aging", "max_wait": "500ms"}),
    ("aging-1s", {"policy": "aging", "max_wait": "1s"}),
    ("aging-2s", {"policy": "aging", "max_wait": "2s"}),
]
COLUMNS = ["policy", "method", "ttft_spec_mean_s", "ttft_spec_p99_s", "ttft_commit_mean_s",
           "ttft_commit_p99_s", "rollbacks", "retracted_tokens", "kv_admission_wait_mean_s",
           "kv_admission_wait_p99_s", "achieved_concurrency"]


def rows_of(label: str, summary: dict) -> list:
    rows = []
    for method in summary["method_order"]:
        m = summary["methods"][method]
        retracted = m.get("retracted_tokens", "")
        spec = m.get("ttft_speculative_s", m["ttft_s"])
        admission = m.get("kv_admission_wait_s", {"mean": 0.0, "p99": 0.0})
        rows.append([label, method, spec["mean"], spec["p99"],
                     m["ttft_commit_s"]["mean"], m["ttft_commit_s"]["p99"], m["rollbacks"],
                     retracted, admission["mean"], admission["p99"],
                     m.get("achieved_concurrency", "")])
    return rows


def run_policy(args, label: str, scheduling: dict) -> list:
    out = args.out / label
    command = [str(args.lynxsim), "--scenario", str(args.scenario), "--out", str(out), "--quiet",
               "--force",
               "--set", "network.scheduling=" + json.dumps(scheduling),
               "--set", 'speculation.stream="speculative"']
    if args.count:
        command += ["--set", f"workload.{workload_kind(args.scenario)}.count={args.count}"]
    for extra in args.set:
        command += ["--set", extra]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{label}: lynxsim exited {done.returncode}: {done.stderr.strip()}")
    return rows_of(label, json.loads((out / "summary.json").read_text()))


def workload_kind(scenario: Path) -> str:
    workload = json.loads(scenario.read_text()).get("workload", {})
    return "closed_loop" if "closed_loop" in workload else "synthetic"


def cell(value) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def print_table(rows: list) -> None:
    text = [COLUMNS] + [[cell(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in text) for i in range(len(COLUMNS))]
    for r in text:
        print("  ".join(v.ljust(w) if i < 2 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", type=Path, nargs="?",
                        default=repo.ROOT / "scenarios/llama8b-8k-h100-10g-load.json")
    parser.add_argument("--count", type=int,
                        help="workload.synthetic.count or workload.closed_loop.count")
    parser.add_argument("--set", action="append", default=[], help="extra override path=value")
    parser.add_argument("--lynxsim", type=Path, default=repo.ROOT / "build/lynxsim")
    parser.add_argument("--out", type=Path, default=repo.ROOT / "results/runs/plane-scheduling")
    parser.add_argument("--csv", type=Path, help="also write the table as CSV")
    args = parser.parse_args()
    if not args.scenario.is_file() or not args.lynxsim.is_file():
        print(f"plane_scheduling.py: no {args.scenario} or no {args.lynxsim}", file=sys.stderr)
        return 2
    rows = []
    try:
        for label, scheduling in POLICIES:
            rows += run_policy(args, label, scheduling)
    except RuntimeError as e:
        print(f"plane_scheduling.py: {e}", file=sys.stderr)
        return 1
    print_table(rows)
    if args.csv:
        with args.csv.open("w", newline="") as f:
            csv.writer(f).writerows([COLUMNS] + rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
