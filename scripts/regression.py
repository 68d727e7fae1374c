#!/usr/bin/python3
"""The speedup regression check: do the key ratios of the canonical scenarios still hold?

    regression.py [--lynxsim PATH] [--update] [--scenarios DIR] [--expected FILE] [--work DIR]

Runs every tests/regression/scenarios/*.json with lynxsim (in parallel, into a temporary folder
unless --work keeps them), computes the ratios of each summary.json (regression_check.py: Lynx TTFT
speedup over int8 and bf16, Lynx TTFT over int4 TTFT, accuracy deltas), and prints a table of
expected, actual, delta, tolerance and status against tests/regression/expected.json. Exit status
0 when every ratio is within its tolerance, 1 when one moved (or a run failed, or expectations
are missing), 2 on bad arguments. --update rewrites expected.json from this run, on purpose,
keeping the committed tolerances; review the diff before committing it.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lynxsim_tools import venv  # noqa: E402

if __name__ == "__main__":
    venv.ensure(__file__)

from lynxsim_tools import regression_check as check  # noqa: E402
from lynxsim_tools import repo, results  # noqa: E402

REGRESSION_DIR = repo.ROOT / "tests" / "regression"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lynxsim", type=Path, default=repo.default_lynxsim())
    parser.add_argument("--update", action="store_true", help="rewrite the expectations")
    parser.add_argument("--scenarios", type=Path, default=REGRESSION_DIR / "scenarios")
    parser.add_argument("--expected", type=Path, default=REGRESSION_DIR / "expected.json")
    parser.add_argument("--work", type=Path, help="keep the results folders here")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--failing-only", action="store_true", help="print only rows not ok")
    return parser


def _run(lynxsim: Path, scenario: Path, work: Path):
    out = work / scenario.stem
    done = subprocess.run([str(lynxsim), "--scenario", str(scenario), "--out", str(out),
                           "--quiet"], capture_output=True, text=True)
    if done.returncode != 0:
        return scenario.stem, None, f"exit {done.returncode}: {done.stderr.strip()[-2000:]}"
    return scenario.stem, check.ratios(results.read_summary(out)), ""


def run_all(lynxsim: Path, scenarios: list, work: Path, jobs: int):
    """scenario name -> ratios, and scenario name -> error text for the runs that failed."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        outcomes = list(pool.map(lambda s: _run(lynxsim, s, work), scenarios))
    actual = {name: values for name, values, _ in outcomes if values is not None}
    errors = {name: error for name, values, error in outcomes if values is None}
    return actual, errors


def _report(args, actual: dict) -> int:
    if args.update:
        old = check.load_expected(args.expected) if args.expected.is_file() else {}
        check.save_expected(args.expected, check.updated(old, actual))
        print(f"wrote {args.expected} ({sum(len(v) for v in actual.values())} ratios)")
        return 0
    if not args.expected.is_file():
        print(f"no expectations at {args.expected}: run scripts/regression.py --update",
              file=sys.stderr)
        return 1
    rows = check.compare(check.load_expected(args.expected), actual)
    print(check.format_table(rows, only_failing=args.failing_only))
    failing = [r for r in rows if r.status in check.FAILING]
    print(f"\n{len(rows) - len(failing)}/{len(rows)} ratios within tolerance")
    if failing:
        print("regression: key ratios moved; if intended, run scripts/regression.py --update "
              "and commit tests/regression/expected.json", file=sys.stderr)
    return 1 if failing else 0


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        lynxsim = repo.check_lynxsim(repo.resolve(args.lynxsim, Path.cwd()))
    except FileNotFoundError as error:
        print(f"regression.py: {error}", file=sys.stderr)
        return 2
    scenarios = sorted(args.scenarios.glob("*.json"))
    if not scenarios:
        print(f"regression.py: no scenarios in {args.scenarios}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="lynxsim-regression-") as temporary:
        work = args.work or Path(temporary)
        actual, errors = run_all(lynxsim, scenarios, work, args.jobs)
    for name, error in sorted(errors.items()):
        print(f"regression: scenario {name} failed to run: {error}", file=sys.stderr)
    if errors and args.update:
        print("regression.py: expectations not updated because runs failed", file=sys.stderr)
        return 1
    return max(_report(args, actual), 1 if errors else 0)


if __name__ == "__main__":
    sys.exit(main())
