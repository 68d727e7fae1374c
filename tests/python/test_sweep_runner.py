"""sweep.py end to end on a tiny sweep with the fake lynxsim: run, resume, shards, collect."""

import csv
import shutil
import unittest

from support import TempDirTest, run_script
from lynxsim_tools import points, sweep_file


class SweepRunnerTest(TempDirTest):
    def run_sweep(self, sweep, *extra, env=None):
        log = self.tmp / "invocations.log"
        done = run_script("sweep.py", "run", sweep, "--jobs", 3, "--lynxsim", self.fake,
                          *extra, env={"FAKE_LYNXSIM_LOG": str(log), **(env or {})})
        runs = log.read_text().splitlines() if log.exists() else []
        log.unlink(missing_ok=True)
        return done, runs

    def setUp(self):
        super().setUp()
        self.fake = self.fake_lynxsim()
        self.sweep = self.tiny_sweep()
        self.points = points.expand_points(sweep_file.load_sweep(self.sweep))
        self.out = self.tmp / "out"

    def test_runs_every_point_once_then_resumes_without_rerunning(self):
        done, runs = self.run_sweep(self.sweep)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(runs), 6)
        self.assertTrue(all(p.done(self.out) for p in self.points))
        self.assertIn("6/6", done.stderr)
        done, runs = self.run_sweep(self.sweep)
        self.assertEqual((done.returncode, runs), (0, []))
        shutil.rmtree(self.points[4].folder(self.out))
        done, runs = self.run_sweep(self.sweep)
        self.assertEqual(runs, [str(self.points[4].folder(self.out))])

    def test_shards_run_disjoint_sets_that_cover_the_sweep(self):
        seen = []
        for i in range(4):
            done, runs = self.run_sweep(self.sweep, "--shard", f"{i}/4")
            self.assertEqual(done.returncode, 0, done.stderr)
            expected = [p for p in self.points if p.index % 4 == i]
            self.assertEqual(sorted(runs), sorted(str(p.folder(self.out)) for p in expected))
            seen += runs
        self.assertEqual(sorted(seen), sorted(str(p.folder(self.out)) for p in self.points))

    def test_collect_writes_one_row_per_point_and_method(self):
        done, _ = self.run_sweep(self.sweep, "--collect")
        self.assertEqual(done.returncode, 0, done.stderr)
        with (self.out / "summary.csv").open() as handle:
            rows = list(csv.DictReader(handle))
        self.assertEqual(len(rows), 6 * 4)
        row = next(r for r in rows if r["method"] == "int8" and r["network.bandwidth"] == "10Gbps"
                   and r["workload.requests.0.context"] == "8192")
        expected_ttft = 8192 * 1e-5 + 8192 * 1000 * 8 / 10e9
        self.assertAlmostEqual(float(row["ttft_s_mean"]), expected_ttft, places=9)
        self.assertEqual(float(row["context_tokens_mean"]), 8192)
        self.assertEqual(row["accuracy_snr_db"], "48.0")
        self.assertIn("speedup_vs_bf16", row)
        with (self.out / "requests.csv").open() as handle:
            self.assertEqual(len(list(csv.DictReader(handle))), 6 * 4)

    def test_collect_writes_the_sweep_page_with_its_curves(self):
        self.run_sweep(self.sweep, "--collect")
        page = (self.out / "index.html").read_text()
        # Two numeric axes (bandwidth, context), each against TTFT_spec and TTFT_commit.
        self.assertEqual(page.count("<svg"), 4)
        self.assertIn("TTFT_spec mean (ms) vs network.bandwidth", page)
        self.assertEqual(page.count("<tr>"), 1 + 6 * 4)
        self.assertNotIn("<script", page)
        first = page
        done = run_script("sweep.py", "collect", self.sweep)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual((self.out / "index.html").read_text(), first)

    def test_collect_of_a_partial_sweep_lists_what_is_missing(self):
        self.run_sweep(self.sweep, "--shard", "0/2")
        done = run_script("sweep.py", "collect", self.sweep)
        self.assertEqual(done.returncode, 1)
        self.assertIn("12 rows from 3/6 points", done.stdout)
        self.assertEqual(done.stderr.count("missing:"), 3)

    def test_a_failing_point_is_reported_and_the_others_still_run(self):
        done, runs = self.run_sweep(self.sweep, env={"FAKE_LYNXSIM_FAIL_CONTEXT": "32768"})
        self.assertEqual(done.returncode, 1)
        self.assertEqual(len(runs), 6)
        self.assertIn("FAILED point 2", done.stderr)
        self.assertEqual(len(list((self.out / "failed").glob("*.log"))), 2)
        self.assertEqual(sum(p.done(self.out) for p in self.points), 4)

    def test_bad_input_exits_2(self):
        bad = self.write_json("bad.json", {"name": "x", "axes": {}})
        self.assertEqual(run_script("sweep.py", "run", bad, "--lynxsim", self.fake).returncode, 2)
        missing = run_script("sweep.py", "run", self.sweep, "--lynxsim", self.tmp / "nope")
        self.assertEqual(missing.returncode, 2)
        self.assertIn("lynxsim binary not found", missing.stderr)

    def test_points_lists_every_point_and_its_state(self):
        self.run_sweep(self.sweep, "--shard", "1/3")
        listing = run_script("sweep.py", "points", self.sweep).stdout.splitlines()
        self.assertEqual(len(listing), 6)
        self.assertEqual([line.split("\t")[1] for line in listing],
                         ["done" if i % 3 == 1 else "todo" for i in range(6)])


if __name__ == "__main__":
    unittest.main()
