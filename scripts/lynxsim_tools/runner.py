"""Runs the points of a sweep with lynxsim, several at a time.

Each point is one process: `lynxsim --scenario BASE --out <out>/<point> --quiet --set path=JSON
...`, every value JSON-encoded so that "8192" the string and 8192 the number stay distinct. Points
already done (summary.json present) are skipped, which makes a rerun after an interruption resume
where it stopped. A thread pool of `jobs` workers waits on the processes (the work happens in the
subprocesses, so threads suffice). A failing point does not stop the others: its command and the
tail of its stderr are returned, and written to <out>/failed/<point>.log for later inspection.
"""

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from .points import Point
from .progress import ProgressBar

_STDERR_TAIL = 4000


@dataclass
class Failure:
    point: Point
    returncode: int
    command: list
    stderr: str


def lynxsim_command(lynxsim: Path, base: Path, point: Point, out: Path, extra=()) -> list:
    command = [str(lynxsim), "--scenario", str(base), "--out", str(point.folder(out)), "--quiet"]
    for path, value in point.sets:
        command += ["--set", f"{path}={json.dumps(value, separators=(',', ':'))}"]
    return command + list(extra)


def _run_one(command: list, timeout_s: float | None):
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
        return done.returncode, done.stderr[-_STDERR_TAIL:]
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout_s} s"
    except OSError as error:
        return 127, str(error)


def _record_failure(out: Path, failure: Failure) -> None:
    folder = out / "failed"
    folder.mkdir(parents=True, exist_ok=True)
    text = (f"exit code {failure.returncode}\ncommand: {' '.join(failure.command)}\n\n"
            f"{failure.stderr}")
    (folder / f"{failure.point.name}.log").write_text(text)


def run_points(points: list, *, lynxsim: Path, base: Path, out: Path, jobs: int,
               extra=(), timeout_s: float | None = None, stream=None) -> list:
    """Runs every point not yet done; returns the list of Failures (empty on success)."""
    todo = [p for p in points if not p.done(out)]
    out.mkdir(parents=True, exist_ok=True)
    bar = ProgressBar(len(todo), stream=stream)
    failures = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {}
        for point in todo:
            command = lynxsim_command(lynxsim, base, point, out, extra)
            futures[pool.submit(_run_one, command, timeout_s)] = (point, command)
        for future in as_completed(futures):
            point, command = futures[future]
            returncode, stderr = future.result()
            if returncode != 0:
                failures.append(Failure(point, returncode, command, stderr))
                _record_failure(out, failures[-1])
            else:
                (out / "failed" / f"{point.name}.log").unlink(missing_ok=True)
            bar.advance(returncode == 0)
    bar.close()
    return sorted(failures, key=lambda f: f.point.index)
