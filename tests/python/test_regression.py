"""regression.py with the fake lynxsim: update, pass, fail on a perturbed expectation."""

import json

from support import BASE_SCENARIO, TempDirTest, run_script
from lynxsim_tools import regression_check as check


class RegressionTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.fake = self.fake_lynxsim()
        self.write_json("scenarios/slow-link.json",
                        dict(BASE_SCENARIO, network={"bandwidth": "10Gbps"}))
        self.write_json("scenarios/fast-link.json",
                        dict(BASE_SCENARIO, network={"bandwidth": "100Gbps"}))
        self.expected = self.tmp / "expected.json"

    def check(self, *extra, env=None):
        return run_script("regression.py", "--lynxsim", self.fake, "--scenarios",
                          self.tmp / "scenarios", "--expected", self.expected, *extra, env=env)

    def test_without_expectations_it_fails_and_says_how_to_make_them(self):
        done = self.check()
        self.assertEqual(done.returncode, 1)
        self.assertIn("no expectations", done.stderr)
        self.assertIn("--update", done.stderr)

    def test_update_records_the_closed_form_ratios_then_the_check_passes(self):
        self.assertEqual(self.check("--update").returncode, 0)
        expected = json.loads(self.expected.read_text())
        slow = expected["slow-link"]
        ttft = {bits: 8192e-5 + 8192 * 1000 * bits / 10e9 for bits in (16, 8, 4)}
        self.assertAlmostEqual(slow["lynx_spec_speedup_vs_int8"]["value"], ttft[8] / ttft[4], 5)
        self.assertAlmostEqual(slow["lynx_spec_speedup_vs_bf16"]["value"], ttft[16] / ttft[4], 5)
        self.assertAlmostEqual(slow["lynx_spec_ttft_over_int4"]["value"], 1.0, 6)
        self.assertAlmostEqual(slow["lynx_commit_speedup_vs_int8"]["value"], ttft[8] / (ttft[8] + 1e-3), 5)
        self.assertAlmostEqual(slow["lynx_commit_ttft_over_int4"]["value"], (ttft[8] + 1e-3) / ttft[4], 5)
        self.assertEqual(slow["lynx_minus_int4_snr_db"]["value"], 24.0)
        self.assertEqual(slow["lynx_minus_bf16_snr_db"]["tolerance"], 0.96)
        done = self.check()
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("18/18 ratios within tolerance", done.stdout)

    def test_a_perturbed_expectation_fails_with_a_table_naming_it(self):
        self.check("--update")
        expected = json.loads(self.expected.read_text())
        expected["fast-link"]["lynx_commit_speedup_vs_int8"]["value"] += 0.05
        self.expected.write_text(json.dumps(expected))
        done = self.check()
        self.assertEqual(done.returncode, 1)
        moved = [line for line in done.stdout.splitlines() if "MOVED" in line]
        self.assertEqual(len(moved), 1)
        self.assertIn("fast-link", moved[0])
        self.assertIn("lynx_commit_speedup_vs_int8", moved[0])
        self.assertIn("-0.05", moved[0])

    def test_a_change_in_the_simulator_is_caught(self):
        self.check("--update")
        done = self.check(env={"FAKE_LYNXSIM_SHIFT": "0.01"})
        self.assertEqual(done.returncode, 1)
        self.assertIn("MOVED", done.stdout)

    def test_update_keeps_committed_tolerances(self):
        self.check("--update")
        expected = json.loads(self.expected.read_text())
        expected["slow-link"]["lynx_spec_ttft_over_int4"]["tolerance"] = 0.5
        self.expected.write_text(json.dumps(expected))
        self.check("--update", env={"FAKE_LYNXSIM_SHIFT": "0.01"})
        updated = json.loads(self.expected.read_text())["slow-link"]["lynx_spec_ttft_over_int4"]
        self.assertEqual(updated["tolerance"], 0.5)
        self.assertGreater(updated["value"], 1.0)

    def test_compare_flags_missing_and_unexpected_ratios(self):
        expected = {"a": {"r1": {"value": 1.0, "tolerance": 0.1}}, "gone": {
            "r": {"value": 1.0, "tolerance": 0.1}}}
        actual = {"a": {"r1": 1.05, "r2": 2.0}, "new": {"r": 1.0}}
        statuses = {(r.scenario, r.ratio): r.status for r in check.compare(expected, actual)}
        self.assertEqual(statuses, {("a", "r1"): "ok", ("a", "r2"): "NEW",
                                    ("gone", "r"): "MISSING", ("new", "r"): "UNEXPECTED"})
