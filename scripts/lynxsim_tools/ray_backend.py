"""Runs the points of a sweep as Ray tasks (`sweep.py run --backend ray [--address ADDR]`).

With an address (e.g. ray://head:10001, or "auto" on a node of a running cluster) the driver joins
that cluster; without one it starts a local Ray instance with `jobs` CPUs. Each point not yet done
becomes one task of one CPU (ray_task.run_point) with no retries: a failing point is reported and
logged like a local one. A successful task returns its results folder as a tar archive, which the
driver unpacks into <out>/.<point>.ray-<pid> and renames to <out>/<point>, so a point appears
complete or not at all, and the output folder has the layout of the local and --shard backends
(`collect` merges all of them into one summary.csv).

Ctrl-C (or SIGTERM) cancels the tasks not finished (a running one ends its lynxsim process), keeps
the points already unpacked and raises runner.Interrupted: rerunning resumes. A local instance
started here is shut down on the way out; a cluster joined by address is only disconnected.
"""

import io
import os
import shutil
import tarfile
from pathlib import Path

from . import ray_task
from .progress import ProgressBar
from .runner import Failure, Interrupted, lynxsim_command, record_failure

_CANCEL_GRACE_S = 10.0


def _install(archive: bytes, out: Path, name: str) -> None:
    staging = out / f".{name}.ray-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(staging)
    target = out / name
    if (target / "summary.json").is_file():
        shutil.rmtree(staging)
        return
    try:
        os.replace(staging, target)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise OSError(f"cannot move the results of {name} into {target}: {error}") from None


def _connect(ray, address: str | None, jobs: int) -> None:
    options = {"log_to_driver": False, "logging_level": "ERROR"}
    if address:
        ray.init(address=address, **options)
    else:
        ray.init(address="local", num_cpus=max(1, jobs), include_dashboard=False, **options)


def _cancel(ray, pending: dict) -> None:
    for ref in pending:
        ray.cancel(ref)
    if pending:
        ray.wait(list(pending), num_returns=len(pending), timeout=_CANCEL_GRACE_S)


def run_points_ray(points: list, *, lynxsim: Path, base: Path, out: Path, jobs: int,
                   address: str | None = None, extra=(), timeout_s: float | None = None,
                   stream=None) -> list:
    """Runs every point not yet done as Ray tasks; returns the list of Failures."""
    import ray

    todo = [p for p in points if not p.done(out)]
    out.mkdir(parents=True, exist_ok=True)
    ray.cloudpickle.register_pickle_by_value(ray_task)
    _connect(ray, address, jobs)
    task = ray.remote(num_cpus=1, max_retries=0)(ray_task.run_point)
    bar = ProgressBar(len(todo), stream=stream)
    failures, pending, finished = [], {}, 0
    try:
        for point in todo:
            command = lynxsim_command(lynxsim, base, point, Path(), extra)
            pending[task.remote(command, point.name, timeout_s)] = (point, command)
        while pending:
            [ref], _ = ray.wait(list(pending), num_returns=1)
            point, command = pending.pop(ref)
            ok = _settle(ray, ref, point, command, out, failures)
            finished += ok
            bar.advance(ok)
    except KeyboardInterrupt:
        _cancel(ray, pending)
        bar.close()
        raise Interrupted(finished) from None
    finally:
        ray.shutdown()
    bar.close()
    return sorted(failures, key=lambda f: f.point.index)


def _settle(ray, ref, point, command: list, out: Path, failures: list) -> bool:
    try:
        returncode, stderr, archive = ray.get(ref)
        if archive is not None:
            _install(archive, out, point.name)
    except (ray.exceptions.RayError, OSError) as error:
        returncode, stderr = 1, str(error)
    if returncode == 0:
        (out / "failed" / f"{point.name}.log").unlink(missing_ok=True)
        return True
    failures.append(Failure(point, returncode, command, stderr))
    record_failure(out, failures[-1])
    return False
