"""Flattening summary.json into CSV columns, and reading numbers and rates for plots."""

import unittest

from support import TempDirTest  # noqa: F401  (puts scripts/ on the path)
from lynxsim_tools import plot_data, results

METHOD = {"family": "lynx", "speculative": True, "planes_bits": [4, 4], "requests": 2,
          "ttft_s": {"mean": 0.5, "p50": 0.4, "p90": 0.9, "p99": 1.0},
          "bytes_per_plane": [10, 20], "bytes_total": 30, "acceptance": None,
          "accuracy": {"snr_k_db": 30.5}, "speedup_vs": {"int8": 1.4, "bf16": 2.1},
          "speedup": {"ttft_speculative_s": {"int8": 1.4}, "ttft_commit_s": {"int8": 0.98}}}


class ResultsTest(unittest.TestCase):
    def test_a_method_flattens_to_named_scalar_columns(self):
        flat = results.flatten_method(METHOD)
        self.assertEqual(flat["planes_bits"], "4+4")
        self.assertEqual([flat[f"ttft_s_{k}"] for k in ("mean", "p50", "p90", "p99")],
                         [0.5, 0.4, 0.9, 1.0])
        self.assertEqual((flat["bytes_per_plane_0"], flat["bytes_per_plane_1"]), (10, 20))
        self.assertEqual(flat["accuracy_snr_k_db"], 30.5)
        self.assertEqual(flat["speedup_vs_int8"], 1.4)
        self.assertEqual(flat["speedup_ttft_speculative_s_int8"], 1.4)
        self.assertEqual(flat["speedup_ttft_commit_s_int8"], 0.98)
        self.assertEqual(flat["acceptance"], "")
        self.assertTrue(all(not isinstance(v, (dict, list)) for v in flat.values()))

    def test_csv_columns_are_the_union_in_first_seen_order(self):
        text = results.csv_text([{"a": 1, "b": 2}, {"a": 3, "c": 4}])
        self.assertEqual(text, "a,b,c\n1,2,\n3,,4\n")

    def test_numbers_and_rates_are_read_for_plotting(self):
        self.assertEqual(plot_data.number("8192"), 8192.0)
        self.assertEqual(plot_data.number("25Gbps"), 25.0)
        self.assertEqual(plot_data.number("400Mbps"), 0.4)
        self.assertEqual(plot_data.number("1.6Tbps"), 1600.0)
        self.assertIsNone(plot_data.number("llama-3.1-8b"))

    def test_a_summary_with_another_schema_version_is_refused(self):
        import json
        import tempfile
        from pathlib import Path
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "summary.json").write_text(json.dumps({"schema_version": 2,
                                                                "methods": {}}))
            with self.assertRaises(results.ResultsError):
                results.read_summary(Path(folder))


    def test_expanded_cards_are_named_by_their_preset(self):
        import json
        import tempfile
        from pathlib import Path
        resolved = {"model": {"preset": "llama-3.1-8b", "name": "Llama-3.1-8B"},
                    "prefill": {"gpu": {"preset": "h100-sxm", "name": "H100 SXM"}},
                    "decode": [{"gpu": "h200"}, {"gpu": {"name": "custom"}}],
                    "serving": {"streaming": "layerwise", "engine": {"preset": "vllm", "name": "vllm"}},
                    "network": {"topology": {"link": {"rate": "25Gbps"}}}}
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "scenario.resolved.json").write_text(json.dumps(resolved))
            columns = results.scenario_columns(Path(folder))
        self.assertEqual(columns, {"model": "llama-3.1-8b", "prefill_gpu": "h100-sxm",
                                   "decode_gpu": "h200+custom", "streaming": "layerwise",
                                   "engine": "vllm", "link_rate": "25Gbps"})


if __name__ == "__main__":
    unittest.main()
