"""The scripts run in the project's .venv: another interpreter re-runs them with .venv/bin/python3,
and without the environment they say how to make it and exit with status 2."""

import shutil
import subprocess
import sys
import unittest

from support import ROOT, SCRIPTS, TempDirTest
from lynxsim_tools import venv


class VenvTest(TempDirTest):
    def test_a_script_started_by_debian_python_runs_in_the_venv(self):
        if not venv.in_venv():
            self.skipTest("the tests do not run in the project's .venv")
        probe = subprocess.run(["/usr/bin/python3", str(SCRIPTS / "sweep.py"), "points", "--help"],
                               capture_output=True, text=True)
        self.assertEqual(probe.returncode, 0, probe.stderr)
        self.assertEqual(venv.VENV, ROOT / ".venv")

    def test_without_the_venv_a_script_exits_2_and_names_setup(self):
        copy = self.tmp / "repo" / "scripts"
        shutil.copytree(SCRIPTS / "lynxsim_tools", copy / "lynxsim_tools")
        shutil.copy(SCRIPTS / "sweep.py", copy / "sweep.py")
        done = subprocess.run([sys.executable, str(copy / "sweep.py"), "points", "x.json"],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("scripts/setup.sh", done.stderr)


if __name__ == "__main__":
    unittest.main()
