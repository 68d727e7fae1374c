"""Runs lynxsim with --trace on the quickstart scenario and checks trace.json: valid Chrome
trace-event JSON holding every event kind docs/scenario.md documents.

usage: check_trace.py LYNXSIM OUT_DIR
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
OVERRIDES = [
    'methods=["bf16","lynx"]', "accuracy.enabled=false", "speculation.acceptance=0.9", "speculation.max_draft_tokens=4",
    "network.bandwidth=5Gbps",
    'workload.requests=[' + ",".join(f'{{"context":8192,"output":32,"arrival":"{i * 100}ms"}}' for i in range(6)) + "]",
]


def run(lynxsim: str, out: Path) -> list:
    command = [lynxsim, "--scenario", str(ROOT / "scenarios" / "quickstart.json"), "--out", str(out),
               "--trace", "--quiet"]
    for o in OVERRIDES:
        command += ["--set", o]
    subprocess.run(command, check=True)
    document = json.loads((out / "trace.json").read_text())
    return document["traceEvents"]


def check_shapes(events: list) -> list:
    problems = []
    for i, e in enumerate(events):
        if e.get("ph") not in ("X", "i", "C", "M") or not isinstance(e.get("pid"), int):
            problems.append(f"event {i}: bad ph or pid: {e}")
        elif e["ph"] != "M" and not isinstance(e.get("ts"), (int, float)):
            problems.append(f"event {i}: no numeric ts")
        elif e["ph"] == "X" and not e.get("dur", -1) >= 0:
            problems.append(f"event {i}: span without a non-negative dur")
    return problems


def check_kinds(events: list) -> list:
    names = {(e["ph"], e.get("name")) for e in events}
    processes = {e["args"]["name"] for e in events if e.get("name") == "process_name"}
    wanted = [("X", "prefill"), ("X", "decode"), ("X", "dequantize"), ("X", "merge"),
              ("X", "KV"), ("X", "anchor"), ("X", "residual"),
              ("i", "verified"), ("i", "rollback"), ("i", "first token"), ("i", "first commit"),
              ("i", "request done"), ("C", "KV"), ("C", "anchor"), ("C", "residual"), ("C", "waiting")]
    problems = [f"no {kind} event named {name!r}" for kind, name in wanted if (kind, name) not in names]
    if not any(ph == "C" and "->" in (n or "") for ph, n in names):
        problems.append("no link utilisation counter")
    for method in ("bf16", "lynx"):
        for part in ("network", "prefill 0 (ascend-910b, TP1)", "decode 0 (ascend-910b, TP1)"):
            if f"{method}: {part}" not in processes:
                problems.append(f"no process {method}: {part}")
    for e in events:
        if e.get("name") in ("verified", "rollback") and not {"drafted", "accepted"} <= set(e["args"]):
            problems.append(f"verification without drafted/accepted: {e}")
            break
    return problems


def main() -> int:
    events = run(sys.argv[1], Path(sys.argv[2]))
    problems = check_shapes(events) + check_kinds(events)
    for p in problems:
        print(f"trace.json: {p}", file=sys.stderr)
    print(f"trace.json: {len(events)} events, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
