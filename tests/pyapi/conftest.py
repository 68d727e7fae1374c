"""Fixtures of the Python package's tests: the CLI of the same build (LYNXSIM_BINARY, set by
tests/pyapi/CMakeLists.txt; else build/lynxsim) and one accuracy cache for the session, shared by
the CLI and the module so the measurements are made once."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
QUICKSTART = ROOT / "scenarios" / "quickstart.json"


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def cli(cache_dir):
    binary = os.environ.get("LYNXSIM_BINARY", str(ROOT / "build" / "lynxsim"))

    def run(*args, check=True):
        done = subprocess.run([binary, "--cache-dir", str(cache_dir), *map(str, args)],
                              capture_output=True, text=True)
        if check:
            assert done.returncode == 0, done.stderr
        return done

    return run


def files_of(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir())}
