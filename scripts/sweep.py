#!/usr/bin/python3
"""Runs, collects and plots lynxsim parameter sweeps.

    sweep.py run SWEEP.json [--jobs N] [--shard i/n] [--backend local|ray [--address ADDR]]
                 [--lynxsim PATH] [--collect]
    sweep.py points SWEEP.json [--shard i/n]
    sweep.py collect SWEEP.json [--csv PATH]
    sweep.py plot INPUT --kind KIND [--output PNG] [--where column=value]...
    sweep.py paper-report SUMMARY.csv --output README.md [--elapsed TEXT] [--models MODELS.csv]

`run` executes every point of the sweep not yet done (so rerunning resumes), --jobs at a time,
with a progress bar on stderr (in this process through the Python module lynxsim where it is built
and neither --lynxsim nor --timeout is given; runner.py); --shard i/n runs only the points with index % n == i, for a Slurm
array or GNU parallel spreading one sweep over machines that share (or later merge) the output
folder; --backend ray runs the points as Ray tasks on the cluster at --address (or on a local Ray
instance of --jobs CPUs) and writes them into the same output folder. `collect` writes
<out>/summary.csv, <out>/requests.csv and <out>/index.html (the sweep's curves and table as a page,
sweep_page.py). `plot` draws one figure from a sweep file, a collected CSV or a single results
folder. `paper-report` writes the README of
results/paper/ from its collected CSV. `sweep.py SWEEP.json` alone means `run`.
docs/sweeps.md describes the sweep file and every option. Exit status: 0 success, 1 some point
failed or is missing, 2 bad input.
"""

import argparse
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lynxsim_tools import venv  # noqa: E402

if __name__ == "__main__":
    venv.ensure(__file__)

from lynxsim_tools import collect, points, repo, runner, sweep_file, sweep_page  # noqa: E402
from lynxsim_tools.plot_kinds import KINDS  # noqa: E402

COMMANDS = ("run", "points", "collect", "plot", "paper-report")


def _sweep_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sweep", type=Path, help="sweep file (JSON)")
    parser.add_argument("--out", type=Path, help="output folder (default: the sweep's \"out\")")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the points not yet done")
    _sweep_arguments(run)
    run.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    run.add_argument("--shard", type=points.parse_shard, help="i/n: run points with index %% n == i")
    run.add_argument("--lynxsim", type=Path, default=repo.default_lynxsim())
    run.add_argument("--timeout", type=float, help="seconds allowed per point")
    run.add_argument("--backend", choices=("local", "ray"), default="local",
                     help="local processes (default) or Ray tasks")
    run.add_argument("--address", help="Ray cluster to join (default: start a local instance)")
    run.add_argument("--collect", action="store_true", help="collect the CSVs afterwards")
    listing = sub.add_parser("points", help="list the points, their folders and whether done")
    _sweep_arguments(listing)
    listing.add_argument("--shard", type=points.parse_shard)
    merge = sub.add_parser("collect", help="merge the results into CSV files")
    _sweep_arguments(merge)
    merge.add_argument("--csv", type=Path, help="summary CSV path (default <out>/summary.csv)")
    plot = sub.add_parser("plot", help="draw a figure (PNG)")
    plot.add_argument("input", type=Path, help="sweep file, collected CSV or results folder")
    plot.add_argument("--kind", required=True, choices=sorted(KINDS))
    plot.add_argument("--output", "-o", type=Path, help="PNG path (default next to the input)")
    plot.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                      help="keep only rows with this value (repeatable)")
    plot.add_argument("--metric", help="accuracy column for accuracy-vs-ttft")
    report = sub.add_parser("paper-report", help="write results/paper/README.md from its summary.csv")
    report.add_argument("summary", type=Path, help="collected summary.csv of sweeps/paper.json")
    report.add_argument("--output", "-o", type=Path, required=True, help="README path")
    report.add_argument("--elapsed", default="(not timed)", help="how long the rebuild took")
    report.add_argument("--models", type=Path,
                        help="collected summary.csv of sweeps/ttft-vs-bandwidth-models.json (a model-class section)")
    return parser


def _load(args):
    sweep = sweep_file.load_sweep(args.sweep)
    out = repo.resolve(args.out, Path.cwd()) if args.out else sweep.out
    return sweep, out, points.expand_points(sweep)


def command_points(args) -> int:
    sweep, out, all_points = _load(args)
    chosen = points.shard_points(all_points, args.shard) if args.shard else all_points
    for point in chosen:
        state = "done" if point.done(out) else "todo"
        print(f"{point.index}\t{state}\t{point.name}")
    return 0


def command_collect(args) -> int:
    sweep, out, all_points = _load(args)
    collected = collect.collect_points(sweep.name, all_points, out)
    summary_csv = repo.resolve(args.csv, Path.cwd()) if args.csv else out / "summary.csv"
    collect.write_collected(collected, summary_csv, out / "requests.csv")
    page = sweep_page.write_sweep_page(sweep.name, collected.rows, out)
    print(f"{summary_csv}: {len(collected.rows)} rows from "
          f"{len(all_points) - len(collected.missing)}/{len(all_points)} points; page {page}")
    for point in collected.missing:
        print(f"missing: {point.index} {point.name}", file=sys.stderr)
    return 1 if collected.missing else 0


def command_run(args) -> int:
    sweep, out, all_points = _load(args)
    chosen = points.shard_points(all_points, args.shard) if args.shard else all_points
    lynxsim = repo.check_lynxsim(repo.resolve(args.lynxsim, Path.cwd()))
    pending = sum(not p.done(out) for p in chosen)
    if args.address and args.backend != "ray":
        raise ValueError("--address needs --backend ray")
    print(f"sweep {sweep.name}: {len(chosen)} points, {len(chosen) - pending} already done, "
          f"{pending} to run with {_workers(args)} -> {out}", file=sys.stderr)
    failures = _run(args, chosen, lynxsim=lynxsim, base=sweep.base_path, out=out,
                    jobs=args.jobs, timeout_s=args.timeout)
    for failure in failures:
        print(f"FAILED point {failure.point.index} ({failure.point.name}), exit "
              f"{failure.returncode}: see {out / 'failed' / (failure.point.name + '.log')}\n"
              f"{failure.stderr.strip()[-500:]}", file=sys.stderr)
    status = 1 if failures else 0
    if args.collect:
        args.csv = None
        status = max(status, command_collect(args))
    return status


def _workers(args) -> str:
    if args.backend == "local":
        return f"{args.jobs} jobs"
    return f"Ray at {args.address}" if args.address else f"a local Ray instance of {args.jobs} CPUs"


def _run(args, chosen: list, **options) -> list:
    if args.backend == "local":
        module = runner.in_process_module(options["lynxsim"], repo.default_lynxsim(), args.timeout)
        return runner.run_points(chosen, module=module, **options)
    from lynxsim_tools import ray_backend

    return ray_backend.run_points_ray(chosen, address=args.address, **options)


def command_plot(args) -> int:
    from lynxsim_tools import plots

    output = plots.plot(args.input, args.kind, output=args.output, where=args.where,
                        metric=args.metric)
    print(output)
    return 0


def command_paper_report(args) -> int:
    from lynxsim_tools import paper_report

    paper_report.write_report(args.summary, args.output, args.elapsed, args.models)
    print(args.output)
    return 0


def main(argv=None) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        argv.insert(0, "run")
    args = build_parser().parse_args(argv)
    handlers = {"run": command_run, "points": command_points, "collect": command_collect,
                "plot": command_plot, "paper-report": command_paper_report}
    signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        return handlers[args.command](args)
    except (sweep_file.SweepError, ValueError, FileNotFoundError) as error:
        print(f"sweep.py: {error}", file=sys.stderr)
        return 2
    except runner.Interrupted as stop:
        print(f"sweep.py: interrupted; {stop.done} points finished in this run. Rerun the same "
              "command to resume with the points not done.", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("sweep.py: interrupted", file=sys.stderr)
        return 130


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
