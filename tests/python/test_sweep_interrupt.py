"""sweep.py stops promptly on SIGINT or SIGTERM, ends its lynxsim processes and resumes later."""

import os
import signal
import subprocess
import sys
import time
import unittest

from support import SCRIPTS, TempDirTest
from lynxsim_tools import points, sweep_file


class SweepInterruptTest(TempDirTest):
    def start(self, sweep, log, sleep):
        env = dict(os.environ, FAKE_LYNXSIM_LOG=str(log), FAKE_LYNXSIM_SLEEP=str(sleep))
        return subprocess.Popen([sys.executable, str(SCRIPTS / "sweep.py"), "run", str(sweep),
                                 "--jobs", "2", "--lynxsim", str(self.fake)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def wait_for_runs(self, log, count, limit_s=20.0):
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            if log.exists() and len(log.read_text().splitlines()) >= count:
                return
            time.sleep(0.05)
        self.fail(f"fewer than {count} runs started")

    def interrupt(self, signum):
        self.fake = self.fake_lynxsim()
        sweep = self.tiny_sweep()
        all_points = points.expand_points(sweep_file.load_sweep(sweep))
        log = self.tmp / "runs.log"
        proc = self.start(sweep, log, sleep=30)
        self.wait_for_runs(log, 2)
        started = time.monotonic()
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=20)
        self.assertLess(time.monotonic() - started, 15.0)
        self.assertEqual(proc.returncode, 130, stderr)
        self.assertIn("Rerun the same command to resume", stderr)
        self.assertEqual(len(log.read_text().splitlines()), 2)
        self.assertFalse(any(p.done(self.tmp / "out") for p in all_points))
        log.unlink()
        proc = self.start(sweep, log, sleep=0)
        _, stderr = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 0, stderr)
        self.assertTrue(all(p.done(self.tmp / "out") for p in all_points))

    def test_sigint_stops_the_sweep_and_a_rerun_resumes(self):
        self.interrupt(signal.SIGINT)

    def test_sigterm_stops_the_sweep_and_a_rerun_resumes(self):
        self.interrupt(signal.SIGTERM)


if __name__ == "__main__":
    unittest.main()
