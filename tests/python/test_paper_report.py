"""The README of results/paper/ is computed from summary.csv: closed-form ratios on a hand-made CSV."""

import unittest
from pathlib import Path

from support import TempDirTest, run_script
from lynxsim_tools import model_report, paper_report, results

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


def make_model_rows() -> list:
    ttft = {"deepseek-v3": {"bf16": (3.0, 3.0), "int8": (2.0, 2.0), "lynx": (1.6, 2.0)},
            "llama-3.1-70b": {"bf16": (8.0, 8.0), "int8": (5.0, 5.0), "lynx": (4.0, 5.5)}}
    rows = []
    for model, methods in ttft.items():
        for method, (spec, commit) in methods.items():
            rows.append({"model": model, "network.bandwidth": "25Gbps", "method": method,
                         "ttft_speculative_s_mean": str(spec), "ttft_commit_s_mean": str(commit),
                         "bytes_total": str(2**30 if method != "bf16" else 2**31)})
    rows.append({"model": "gemma-3-27b", "network.bandwidth": "25Gbps", "method": "int8",
                 "ttft_speculative_s_mean": "1", "ttft_commit_s_mean": "1", "bytes_total": "1"})
    return rows


class ModelReportTest(TempDirTest):
    def test_one_row_per_model_and_bandwidth_with_both_readings(self):
        lines = model_report.model_rows(make_model_rows())
        self.assertEqual(len(lines), 4)
        self.assertIn("| deepseek-v3 | 25Gbps | 1.00 / 1.00 | 3.000 s | 2.000 s | 1.600 s | 2.000 s | 1.25x | 1.00x |",
                      lines)
        self.assertIn("| llama-3.1-70b | 25Gbps | 1.00 / 1.00 | 8.000 s | 5.000 s | 4.000 s | 5.500 s | 1.25x | 0.91x |",
                      lines)

    def test_a_model_csv_without_the_three_methods_is_an_error(self):
        rows = [r for r in make_model_rows() if r["method"] != "lynx"]
        with self.assertRaises(results.ResultsError):
            model_report.model_rows(rows)

    def test_the_readme_carries_the_model_section_when_given_the_model_csv(self):
        csv_path, models_path = self.tmp / "summary.csv", self.tmp / "models.csv"
        results.write_csv(make_rows(), csv_path)
        results.write_csv(make_model_rows(), models_path)
        out = self.tmp / "README.md"
        ran = run_script("sweep.py", "paper-report", csv_path, "--models", models_path, "--output", out)
        self.assertEqual(ran.returncode, 0, ran.stderr)
        text = out.read_text()
        self.assertIn("## Model classes at 32K tokens", text)
        self.assertIn("| deepseek-v3 | 25Gbps |", text)
        self.assertNotIn("Model classes", paper_report.render(make_rows(), "", []))

    def test_the_rebuild_script_runs_and_reports_the_model_sweep(self):
        script = (Path(__file__).resolve().parents[2] / "scripts" / "reproduce_paper.sh").read_text()
        self.assertIn('sweep run "$root/sweeps/ttft-vs-bandwidth-models.json"', script)
        self.assertIn('--models "$out/models.csv"', script)


if __name__ == "__main__":
    unittest.main()
