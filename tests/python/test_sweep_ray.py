"""sweep.py --backend ray on a local Ray instance of 2 CPUs: the same summary.csv as the local
backend, merging with points run by a local shard, and a prompt, resumable stop on SIGINT."""

import importlib.util
import os
import signal
import subprocess
import sys
import time
import unittest

from support import SCRIPTS, TempDirTest, run_script
from lynxsim_tools import points, sweep_file


@unittest.skipUnless(importlib.util.find_spec("ray"), "Ray is not installed (scripts/setup.sh)")
class SweepRayTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.fake = self.fake_lynxsim()
        base = self.write_json("base.json", {"name": "tiny", "model": "llama-3.1-8b",
                                             "network": {"bandwidth": "25Gbps"},
                                             "workload": {"requests": [{"context": 8192, "output": 16}]},
                                             "methods": ["bf16", "int8", "lynx"]})
        self.sweep = self.write_json("sweep.json", {
            "name": "tiny", "base": str(base), "out": str(self.tmp / "out"),
            "axes": {"workload.requests.0.context": [8192, 32768, 131072]}})
        self.points = points.expand_points(sweep_file.load_sweep(self.sweep))

    def sweep_run(self, out, *extra, env=None):
        done = run_script("sweep.py", "run", self.sweep, "--out", out, "--jobs", 2,
                          "--lynxsim", self.fake, "--collect", *extra, env=env)
        self.assertEqual(done.returncode, 0, done.stderr)
        return (out / "summary.csv").read_text()

    def test_ray_writes_the_summary_of_the_local_backend_and_merges_with_a_shard(self):
        local = self.sweep_run(self.tmp / "local")
        merged = self.tmp / "merged"
        run_script("sweep.py", "run", self.sweep, "--out", merged, "--shard", "0/2",
                   "--lynxsim", self.fake)
        self.assertEqual(sum(p.done(merged) for p in self.points), 2)
        log = self.tmp / "ray-runs.log"
        self.assertEqual(self.sweep_run(merged, "--backend", "ray",
                                        env={"FAKE_LYNXSIM_LOG": str(log)}), local)
        self.assertEqual(log.read_text().split(), [self.points[1].name])
        self.assertEqual(local.count("\n"), 1 + 3 * 3)

    def test_sigint_cancels_the_tasks_and_a_rerun_resumes(self):
        log = self.tmp / "runs.log"
        env = dict(os.environ, FAKE_LYNXSIM_LOG=str(log), FAKE_LYNXSIM_SLEEP="30")
        proc = subprocess.Popen([sys.executable, str(SCRIPTS / "sweep.py"), "run", str(self.sweep),
                                 "--jobs", "2", "--lynxsim", str(self.fake), "--backend", "ray"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 60
        while not (log.exists() and len(log.read_text().split()) >= 2):
            self.assertLess(time.monotonic(), deadline, "the Ray tasks did not start")
            time.sleep(0.1)
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
        self.assertLess(time.monotonic() - started, 20.0)
        self.assertEqual(proc.returncode, 130, stderr)
        self.assertIn("Rerun the same command to resume", stderr)
        self.assertFalse(any(p.done(self.tmp / "out") for p in self.points))
        self.sweep_run(self.tmp / "out", "--backend", "ray")
        self.assertTrue(all(p.done(self.tmp / "out") for p in self.points))


if __name__ == "__main__":
    unittest.main()
