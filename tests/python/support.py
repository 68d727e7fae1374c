"""Shared fixtures of the Python tests: paths, a temporary folder, the fake lynxsim, a tiny sweep.

The tests run the real scripts as subprocesses with the interpreter running them (the project's
.venv, tests/CMakeLists.txt) against fake_lynxsim.py, so they need no built simulator. Temporary folders go under
LYNXSIM_TEST_TMP when ctest sets it (the build tree), else the system temporary folder.
"""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS))

BASE_SCENARIO = {
    "name": "tiny", "seed": 1, "model": "llama-3.1-8b",
    "network": {"bandwidth": "25Gbps"},
    "workload": {"requests": [{"context": 8192, "output": 16}]},
    "methods": ["bf16", "int8", "int4", "lynx"],
}


def make_temp_dir(prefix: str) -> Path:
    parent = os.environ.get("LYNXSIM_TEST_TMP")
    if parent:
        Path(parent).mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{prefix}-", dir=parent))


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self.tmp = make_temp_dir(type(self).__name__)
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def fake_lynxsim(self) -> Path:
        target = self.tmp / "fake_lynxsim.py"
        shutil.copy(Path(__file__).parent / "fake_lynxsim.py", target)
        target.chmod(target.stat().st_mode | stat.S_IXUSR)
        return target

    def write_json(self, name: str, value) -> Path:
        path = self.tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value, indent=2))
        return path

    def tiny_sweep(self, out_name: str = "out") -> Path:
        base = self.write_json("base.json", BASE_SCENARIO)
        return self.write_json(f"sweep-{out_name}.json", {
            "name": "tiny", "base": str(base), "out": str(self.tmp / out_name),
            "axes": {"workload.requests.0.context": [8192, 32768, 131072],
                     "network.bandwidth": ["10Gbps", "100Gbps"]},
            "fixed": {"methods": ["bf16", "int8", "int4", "lynx"]}})


def run_script(name: str, *args, env=None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, str(SCRIPTS / name), *map(str, args)],
                          capture_output=True, text=True, env=full_env)
