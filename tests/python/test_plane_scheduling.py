"""scripts/plane_scheduling.py: the per-policy rows read from a results summary."""

import importlib.util
import io
import json
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path

from support import SCRIPTS

SPEC = importlib.util.spec_from_file_location("plane_scheduling", SCRIPTS / "plane_scheduling.py")
plane_scheduling = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(plane_scheduling)


def stats(mean: float, p99: float) -> dict:
    return {"mean": mean, "p50": mean, "p90": p99, "p99": p99}


SUMMARY = {
    "method_order": ["int8", "lynx"],
    "methods": {
        "int8": {"ttft_s": stats(1.0, 2.0), "ttft_speculative_s": stats(1.0, 2.0),
                 "ttft_commit_s": stats(1.0, 2.0), "rollbacks": 0, "retracted_tokens": 0},
        "lynx": {"ttft_s": stats(1.1, 2.1), "ttft_speculative_s": stats(0.5, 0.9),
                 "ttft_commit_s": stats(1.1, 2.1), "rollbacks": 3, "retracted_tokens": 17,
                 "kv_admission_wait_s": stats(0.25, 0.75), "achieved_concurrency": 3.5},
    },
}


class PlaneSchedulingTest(unittest.TestCase):
    def test_rows_take_speculative_and_committed_ttft(self):
        rows = plane_scheduling.rows_of("strict", SUMMARY)
        self.assertEqual(rows[0], ["strict", "int8", 1.0, 2.0, 1.0, 2.0, 0, 0, 0.0, 0.0, ""])
        self.assertEqual(rows[1], ["strict", "lynx", 0.5, 0.9, 1.1, 2.1, 3, 17, 0.25, 0.75, 3.5])

    def test_count_goes_to_the_scenarios_workload(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "s.json"
            path.write_text(json.dumps({"workload": {"closed_loop": {"count": 4}}}))
            self.assertEqual(plane_scheduling.workload_kind(path), "closed_loop")
            path.write_text(json.dumps({"workload": {"synthetic": {"count": 4}}}))
            self.assertEqual(plane_scheduling.workload_kind(path), "synthetic")

    def test_every_policy_is_listed_once(self):
        labels = [label for label, _ in plane_scheduling.POLICIES]
        self.assertEqual(len(labels), len(set(labels)))
        policies = {s["policy"] for _, s in plane_scheduling.POLICIES}
        self.assertEqual(policies, {"strict", "request_order", "weighted", "fair", "aging"})

    def test_table_prints_a_header_and_a_line_per_row(self):
        out = io.StringIO()
        with redirect_stdout(out):
            plane_scheduling.print_table(plane_scheduling.rows_of("fair", SUMMARY))
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 3)
        self.assertIn("ttft_commit_p99_s", lines[0])
        self.assertIn("0.900", lines[2])


if __name__ == "__main__":
    unittest.main()
