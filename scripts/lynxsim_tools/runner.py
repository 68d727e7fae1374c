"""Runs the points of a sweep with lynxsim, several at a time.

Each point is one run: `lynxsim --scenario BASE --out <out>/<point> --quiet --set path=JSON ...`,
every value JSON-encoded so that "8192" the string and 8192 the number stay distinct. Where the
Python module lynxsim is built (python/, importable in the project's .venv) and no other binary or
timeout is asked for, the points run in this process through lynxsim.run with the same overrides
and the same results folder (the same bytes), with no process started per point; otherwise each
point is a lynxsim process. Points already done (summary.json present) are skipped, which makes a
rerun after an interruption resume where it stopped. A thread pool of `jobs` workers runs the points
(the module releases the GIL while it simulates; a process is waited on). A failing point does not
stop the others: its command and the tail of its stderr (in-process: the error message) are
returned, and written to <out>/failed/<point>.log for later inspection.

Ctrl-C (or SIGTERM) stops the sweep promptly: no further point starts, the running lynxsim
processes get SIGTERM (each removes its staging folder; a finished point is complete or absent),
points running in this process finish (each writes its folder whole or not at all), run_points
raises Interrupted, and rerunning the same command resumes with the points not done.
"""

import json
import subprocess
import threading
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


class Interrupted(Exception):
    """The sweep was stopped by a signal; `done` points had finished."""

    def __init__(self, done: int):
        super().__init__(f"interrupted after {done} points")
        self.done = done


class _InProcess:
    """Points run by the lynxsim module in this process."""

    def __init__(self, module, base: Path, out: Path):
        self._module, self._base, self._out = module, base, out
        self._stopping = False

    def run(self, point: Point):
        if self._stopping:
            return 130, "not started: the sweep was interrupted"
        try:
            self._module.run(self._base, set=point.sets, out=point.folder(self._out))
        except self._module.LynxsimError as error:
            return error.exit_code, f"lynxsim: {error}\n"
        return 0, ""

    def stop(self) -> None:
        self._stopping = True


class _Children:
    """The lynxsim processes in flight, so that a stop can end them."""

    def __init__(self, lynxsim: Path, base: Path, out: Path, extra=(), timeout_s: float | None = None):
        self._lock = threading.Lock()
        self._running = set()
        self._stopping = False
        self._command = lambda point: lynxsim_command(lynxsim, base, point, out, extra)
        self._timeout_s = timeout_s

    def run(self, point: Point):
        return self._run(self._command(point), self._timeout_s)

    def _run(self, command: list, timeout_s: float | None):
        with self._lock:
            if self._stopping:
                return 130, "not started: the sweep was interrupted"
            try:
                proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True)
            except OSError as error:
                return 127, str(error)
            self._running.add(proc)
        try:
            _, stderr = proc.communicate(timeout=timeout_s)
            return proc.returncode, stderr[-_STDERR_TAIL:]
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return 124, f"timed out after {timeout_s} s"
        finally:
            with self._lock:
                self._running.discard(proc)

    def stop(self, grace_s: float = 10.0) -> None:
        with self._lock:
            self._stopping = True
            running = list(self._running)
        for proc in running:
            proc.terminate()
        for proc in running:
            try:
                proc.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                proc.kill()


def record_failure(out: Path, failure: Failure) -> None:
    folder = out / "failed"
    folder.mkdir(parents=True, exist_ok=True)
    text = (f"exit code {failure.returncode}\ncommand: {' '.join(failure.command)}\n\n"
            f"{failure.stderr}")
    (folder / f"{failure.point.name}.log").write_text(text)


def in_process_module(lynxsim: Path, default: Path, timeout_s: float | None):
    """The lynxsim module when the points may run in this process (the default binary, whose
    build the module comes from, and no timeout), else None."""
    if lynxsim != default or timeout_s is not None:
        return None
    try:
        import lynxsim as module
    except ImportError:
        return None
    return module


def run_points(points: list, *, lynxsim: Path, base: Path, out: Path, jobs: int,
               extra=(), timeout_s: float | None = None, stream=None, module=None) -> list:
    """Runs every point not yet done (with `module`, the lynxsim package, in this process);
    returns the list of Failures (empty on success)."""
    todo = [p for p in points if not p.done(out)]
    out.mkdir(parents=True, exist_ok=True)
    bar = ProgressBar(len(todo), stream=stream)
    failures = []
    if module is not None and not extra:
        children = _InProcess(module, base, out)
    else:
        children = _Children(lynxsim, base, out, extra, timeout_s)
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    finished = 0
    try:
        futures = {pool.submit(children.run, point): point for point in todo}
        for future in as_completed(futures):
            point = futures[future]
            returncode, stderr = future.result()
            if returncode != 0:
                command = lynxsim_command(lynxsim, base, point, out, extra)
                failures.append(Failure(point, returncode, command, stderr))
                record_failure(out, failures[-1])
            else:
                (out / "failed" / f"{point.name}.log").unlink(missing_ok=True)
            finished += returncode == 0
            bar.advance(returncode == 0)
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        children.stop()
        bar.close()
        raise Interrupted(finished) from None
    finally:
        pool.shutdown(wait=True)
    bar.close()
    return sorted(failures, key=lambda f: f.point.index)
