"""Checks the bound on trace.json (--trace-limit): a run whose trace could not fit is refused before
it starts (exit 2, by validate and by the run alike, nothing written), and a run that records more
events than the limit keeps the first ones, ends the trace with a "trace truncated" marker, marks
it in "otherData" and warns on stderr.

usage: check_trace_limit.py LYNXSIM OUT_DIR
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIO = str(ROOT / "scenarios" / "quickstart.json")
SETS = ['methods=["bf16","lynx"]', "accuracy.enabled=false", "speculation.acceptance=0.9",
        'workload.requests=[' + ",".join(f'{{"context":4096,"output":32,"arrival":"{i * 50}ms"}}'
                                         for i in range(4)) + "]"]


def lynxsim(binary: str, *args: str) -> subprocess.CompletedProcess:
    command = [binary, *args]
    for s in SETS:
        command += ["--set", s]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def check_refusal(binary: str, out: Path) -> list:
    problems = []
    validate = lynxsim(binary, "validate", SCENARIO, "--trace", "--trace-limit", "10")
    run = lynxsim(binary, "--scenario", SCENARIO, "--out", str(out), "--trace", "--trace-limit", "10")
    for name, p in (("validate", validate), ("run", run)):
        if p.returncode != 2 or "/workload: with --trace" not in p.stderr or "trace limit of 10" not in p.stderr:
            problems.append(f"{name} with --trace-limit 10: exit {p.returncode}, stderr {p.stderr!r}")
    if out.exists():
        problems.append("a refused run created its results folder")
    return problems


def check_truncation(binary: str, out: Path) -> list:
    validate = lynxsim(binary, "validate", SCENARIO, "--trace")
    found = re.search(r"at least (\d+) trace events", validate.stdout)
    if validate.returncode != 0 or not found:
        return [f"validate --trace: exit {validate.returncode}, stdout {validate.stdout!r}"]
    limit = int(found.group(1)) + 1
    run = lynxsim(binary, "--scenario", SCENARIO, "--out", str(out), "--quiet", "--trace",
                  "--trace-limit", str(limit))
    if run.returncode != 0:
        return [f"run with --trace-limit {limit}: exit {run.returncode}, stderr {run.stderr!r}"]
    document = json.loads((out / "trace.json").read_text())
    events = [e for e in document["traceEvents"] if e["ph"] != "M"]
    other = document.get("otherData", {})
    problems = []
    if other.get("truncated") is not True or other.get("event_limit") != limit:
        problems.append(f"otherData does not mark the truncation: {other}")
    if len(events) != limit + 1 or events[-1].get("name") != "trace truncated":
        problems.append(f"{len(events)} events, last {events[-1] if events else None}; wanted {limit} + a marker")
    if f"trace.json holds the first {limit} events" not in run.stderr:
        problems.append(f"no truncation warning on stderr: {run.stderr!r}")
    return problems


def main() -> int:
    binary, out = sys.argv[1], Path(sys.argv[2])
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    problems = check_refusal(binary, out / "refused") + check_truncation(binary, out / "truncated")
    for p in problems:
        print(f"trace limit: {p}", file=sys.stderr)
    print(f"trace limit: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
