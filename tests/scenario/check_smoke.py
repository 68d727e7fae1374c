"""Runs one bundled scenario and checks what a run must deliver, beyond its exit status.

usage: check_smoke.py LYNXSIM SCENARIO OUT_DIR [lynxsim arguments...]

Checks: the results folder holds its five files and manifest, both naming the same lynxsim version
and commit; summary.json lists the scenario's
methods in order; every method served every request of requests.csv (as many rows per method, all
output tokens committed); per request 0 < TTFT_spec <= TTFT_commit <= E2E and the client's TTFT is
one of the two; a speculative method's drafts are accounted (accepted + wasted = drafted); the
written scenario.resolved.json, run again from a folder that sees the scenario folder's other files
(its relative paths are the scenario's), gives byte-identical requests.csv, summary.json and index.html.
"""

import csv
import json
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

FILES = ("summary.json", "requests.csv", "scenario.resolved.json", "index.html", "lynxsim-results.json")
TOLERANCE = 1e-9


def fail(message: str) -> None:
    print(f"check_smoke: {message}", file=sys.stderr)
    sys.exit(1)


def check_request(method: str, row: dict) -> None:
    spec, commit = float(row["ttft_speculative_s"]), float(row["ttft_commit_s"])
    ttft, e2e = float(row["ttft_s"]), float(row["e2e_s"])
    where = f"{method} request {row['id']}"
    if not 0.0 < spec <= commit + TOLERANCE:
        fail(f"{where}: TTFT_spec {spec} and TTFT_commit {commit} out of order")
    if commit > e2e + TOLERANCE:
        fail(f"{where}: TTFT_commit {commit} after the last token ({e2e})")
    if ttft not in (spec, commit):
        fail(f"{where}: TTFT {ttft} is neither reading")
    if int(row["committed_tokens"]) != int(row["output_tokens"]):
        fail(f"{where}: {row['committed_tokens']} of {row['output_tokens']} tokens committed")
    drafted = int(row["drafted_tokens"])
    if int(row["accepted_tokens"]) + int(row["wasted_draft_tokens"]) != drafted:
        fail(f"{where}: accepted + wasted drafts != {drafted} drafted")


def check_rerun(lynxsim: str, scenario: Path, out: Path, extra: list) -> None:
    stage = Path(f"{out}-resolved-scenario")
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    for entry in scenario.parent.iterdir():
        if entry.suffix != ".json":
            (stage / entry.name).symlink_to(entry.resolve())
    again_file = stage / scenario.name
    shutil.copyfile(out / "scenario.resolved.json", again_file)
    again = Path(f"{out}-resolved")
    command = [lynxsim, "--scenario", str(again_file), "--out", str(again), "--quiet", "--force", *extra]
    if subprocess.run(command).returncode != 0:
        fail(f"{' '.join(command)} failed")
    for name in ("requests.csv", "summary.json", "scenario.resolved.json", "index.html"):
        if (out / name).read_bytes() != (again / name).read_bytes():
            fail(f"{again / name} differs from {out / name}: the resolved scenario is not the same run")


def main() -> None:
    if len(sys.argv) < 4:
        fail(__doc__)
    lynxsim, scenario, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    command = [lynxsim, "--scenario", scenario, "--out", str(out), "--quiet", "--force", *sys.argv[4:]]
    if subprocess.run(command).returncode != 0:
        fail(f"{' '.join(command)} failed")
    for name in FILES:
        if not (out / name).is_file():
            fail(f"{out / name} missing")
    resolved = json.loads((out / "scenario.resolved.json").read_text())
    summary = json.loads((out / "summary.json").read_text())
    manifest = json.loads((out / "lynxsim-results.json").read_text())
    for key in ("lynxsim_version", "lynxsim_commit"):
        if not summary.get(key) or summary[key] != manifest.get(key):
            fail(f"{key}: summary.json has {summary.get(key)!r}, the manifest {manifest.get(key)!r}")
    names = [m if isinstance(m, str) else m.get("name", m.get("preset")) for m in resolved["methods"]]
    if summary["method_order"] != names:
        fail(f"summary lists {summary['method_order']}, the scenario {names}")
    rows = defaultdict(list)
    with open(out / "requests.csv", newline="") as f:
        for row in csv.DictReader(f):
            rows[row["method"]].append(row)
    counts = {m: len(rows[m]) for m in names}
    if len(set(counts.values())) != 1 or 0 in counts.values():
        fail(f"requests per method differ or are missing: {counts}")
    for method in names:
        if summary["methods"][method]["requests"] != counts[method]:
            fail(f"{method}: summary counts {summary['methods'][method]['requests']} requests")
        for row in rows[method]:
            check_request(method, row)
    check_rerun(lynxsim, Path(scenario), out, sys.argv[4:])
    print(f"check_smoke: {out.name}: {len(names)} methods x {counts[names[0]]} requests checked")


if __name__ == "__main__":
    main()
