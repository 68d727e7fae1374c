"""The README of results/paper/ is computed from summary.csv: closed-form ratios on a hand-made CSV."""

import unittest

from support import TempDirTest, run_script
from lynxsim_tools import paper_report, results

TTFT = {  # (context, bandwidth) -> {method: TTFT seconds}
    ("8192", "10Gbps"): {"bf16": 4.0, "int8": 2.0, "int4": 1.2, "lynx": 1.25},
    ("8192", "100Gbps"): {"bf16": 1.1, "int8": 1.05, "int4": 1.0, "lynx": 1.0},
    ("32768", "25Gbps"): {"bf16": 6.0, "int8": 4.5, "int4": 3.0, "lynx": 3.0, "cachegen": 3.3},
}


def make_rows(streaming: str = "", scale: float = 1.0) -> list:
    rows = []
    for (context, bandwidth), methods in TTFT.items():
        for method, ttft in methods.items():
            ttft = ttft * scale if method == "lynx" else ttft
            rows.append({"model": "llama-3.1-8b", "hardware": "ascend-910b",
                         "workload.requests.0.context": context, "network.bandwidth": bandwidth,
                         "serving.streaming": streaming, "accuracy_attention_kl": "0.001",
                         "accuracy_needle_accuracy": "0.75" if method == "int4" else "0.8",
                         "method": method, "ttft_s_mean": str(ttft), "ttft_commit_s_mean": str(ttft * 1.01),
                         "speculative": "True" if method == "lynx" else "False", "acceptance": "0.95",
                         "acceptance_source": "proxy", "rollbacks": "2", "accuracy_key_snr_db": "38.8"})
    return rows


class PaperReportTest(TempDirTest):
    def test_ratios_per_point(self):
        ratios = paper_report.point_ratios(make_rows())
        self.assertEqual(len(ratios), 3)
        best = max(ratios, key=lambda r: r.over_int8)
        self.assertEqual(best.key[2:], ("8192", "10Gbps", "layerwise"))
        self.assertAlmostEqual(best.over_int8, 1.6)
        self.assertAlmostEqual(best.over_bf16, 3.2)
        self.assertAlmostEqual(best.over_int4, 1.25 / 1.2)
        with_cachegen = next(r for r in ratios if r.key[2] == "32768")
        self.assertAlmostEqual(with_cachegen.over_cachegen, 1.1)
        self.assertAlmostEqual(best.commit_over_int8, 2.0 / 1.25)

    def test_the_committed_reading_is_reported_beside_the_speculative_one(self):
        rows = make_rows()
        for row in rows:
            if row["method"] == "lynx":
                row["ttft_speculative_s_mean"] = row["ttft_s_mean"]
                row["ttft_commit_s_mean"] = str(float(row["ttft_s_mean"]) * 1.6)
        ratios = paper_report.point_ratios(rows)
        best = max(ratios, key=lambda r: r.over_int8)
        self.assertAlmostEqual(best.over_int8, 1.6)
        self.assertAlmostEqual(best.commit_over_int8, 2.0 * 1.01 / (1.25 * 1.6))
        text = paper_report.render(rows, "", [])
        self.assertIn("first *verified* token", text)
        self.assertIn("| 25Gbps | 1.50x [1.50, 1.50] | 0.95x [0.95, 0.95] | 1.000 |", text)

    def test_headline_states_the_paper_comparison(self):
        text = paper_report.render(make_rows(), "1 min 2 s", [])
        self.assertIn("up to 1.60x (llama-3.1-8b, ascend-910b, 8K tokens, 10Gbps)", text)
        self.assertIn("2 of 3 points reach 1.43x", text)
        self.assertIn("within 4.2% of int4's", text)
        self.assertIn("| 25Gbps | 1.50x [1.50, 1.50] | 1.50x [1.50, 1.50] | 1.000 |", text)
        self.assertIn("| llama-3.1-8b | lynx | 38.8 | - | 0.001 | 0.8 | 0.950 (proxy) | 2 | 1.010 |", text)
        self.assertIn("needle 0.80 (bf16 0.80, int4 0.75)", text)
        self.assertIn("last rebuild took\n1 min 2 s", text)

    def test_streaming_modes_are_reported_apart(self):
        rows = make_rows("layerwise", scale=1.6) + make_rows("after_prefill")
        text = paper_report.render(rows, "", [])
        self.assertIn("KV streamed layer by layer: up to 1.00x", text)
        self.assertIn("KV sent after prefill: up to 1.60x (llama-3.1-8b, ascend-910b, 8K tokens, 10Gbps), "
                      "median 1.50x over 3 points; 2 of 3 points reach 1.43x.", text)
        self.assertIn("| after_prefill | 10Gbps | 1.60x [1.60, 1.60] | 1.60x [1.60, 1.60] | 1.042 |", text)
        self.assertIn("| layerwise | 10Gbps | 1.00x [1.00, 1.00] | 1.00x [1.00, 1.00] | 1.667 |", text)
        self.assertIn("Ascend 910B, KV sent after prefill", text)

    def test_the_command_writes_the_readme(self):
        csv_path = self.tmp / "summary.csv"
        results.write_csv(make_rows(), csv_path)
        out = self.tmp / "README.md"
        ran = run_script("sweep.py", "paper-report", csv_path, "--output", out, "--elapsed", "3 s")
        self.assertEqual(ran.returncode, 0, ran.stderr)
        self.assertIn("# Reference results", out.read_text())

    def test_a_csv_without_the_four_methods_is_an_error(self):
        rows = [r for r in make_rows() if r["method"] != "int4"]
        with self.assertRaises(results.ResultsError):
            paper_report.render(rows, "", [])


if __name__ == "__main__":
    unittest.main()
