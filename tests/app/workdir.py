"""The working folder of a CLI check: made empty before the checks, and empty again after them."""
import pathlib
import shutil
import sys


def fresh(path):
    work = pathlib.Path(path)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    return work


def finish(work):
    leftovers = list(work.iterdir())
    if leftovers:
        sys.exit(f"left behind: {leftovers}")
    print("ok")
