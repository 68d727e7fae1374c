"""The Ray task of a sweep point: one lynxsim run on whichever node Ray picks.

Standard library only, and shipped to the workers by value (ray_backend registers it), so a
worker needs Ray and nothing of scripts/. The lynxsim binary and the base scenario must be at the
same absolute paths on every node (a shared file system, or the same checkout and build on each).
The run writes into a temporary folder on the worker (the command's --out is relative, the task's
working directory is that folder); the task returns the results folder as an uncompressed tar
archive, so the driver writes every point into one output folder without a shared file system.

Cancelling the task (ray.cancel, as the driver does on Ctrl-C) raises KeyboardInterrupt here: the
lynxsim process gets SIGTERM (it removes its staging folder) and the temporary folder is removed.
"""

import io
import subprocess
import tarfile
import tempfile
from pathlib import Path

STDERR_TAIL = 4000


def _archive(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        archive.add(folder, arcname=".")
    return buffer.getvalue()


def run_point(command: list, folder_name: str, timeout_s):
    """Runs command in a temporary folder; returns (returncode, stderr tail, tar bytes or None)."""
    with tempfile.TemporaryDirectory(prefix="lynxsim-ray-") as work:
        proc = subprocess.Popen(command, cwd=work, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        try:
            _, stderr = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return 124, f"timed out after {timeout_s} s", None
        except BaseException:
            proc.terminate()
            proc.wait()
            raise
        folder = Path(work) / folder_name
        if proc.returncode != 0 or not (folder / "summary.json").is_file():
            return proc.returncode or 1, stderr[-STDERR_TAIL:], None
        return 0, stderr[-STDERR_TAIL:], _archive(folder)
