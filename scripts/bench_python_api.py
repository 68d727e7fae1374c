#!/usr/bin/python3
"""The Python package's overhead against the CLI: wall time of N runs of one scenario each way.

    bench_python_api.py [--scenario scenarios/quickstart.json] [--runs 50] [--lynxsim build/lynxsim]

Runs, interleaved so both see the same machine: the CLI (`lynxsim --scenario S --out DIR --quiet`,
one process per run, results written), lynxsim.run(S, out=DIR) (the same files, in this process)
and lynxsim.run(S) (the tables only, no files). Both share the accuracy cache, warmed by one run
first. Prints the median and total seconds of each and their ratios to the CLI.
"""

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lynxsim_tools import repo, venv  # noqa: E402

if __name__ == "__main__":
    venv.ensure(__file__)

import lynxsim  # noqa: E402


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", type=Path, default=repo.ROOT / "scenarios" / "quickstart.json")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--lynxsim", type=Path, default=repo.default_lynxsim())
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-python-api-"))
    cli = [str(args.lynxsim), "--scenario", str(args.scenario), "--out", str(work / "cli"), "--quiet"]
    ways = {
        "cli": lambda: subprocess.run(cli, check=True, stdout=subprocess.DEVNULL),
        "run(out=)": lambda: lynxsim.run(args.scenario, out=work / "api"),
        "run()": lambda: lynxsim.run(args.scenario),
    }
    times = {name: [] for name in ways}
    try:
        for action in ways.values():
            action()
        for _ in range(args.runs):
            for name, action in ways.items():
                times[name].append(timed(action))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = statistics.median(times["cli"])
    print(f"{args.scenario.name}, {args.runs} runs each")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<10} median {median * 1e3:8.2f} ms  total {sum(values):7.3f} s  "
              f"ratio to cli {median / base:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
