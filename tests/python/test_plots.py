"""Every plot kind draws a PNG from one tiny sweep run with the fake lynxsim.

The figures are drawn in this process (importing matplotlib once); one test goes through the
command line.
"""

import shutil
import unittest

from support import TempDirTest, make_temp_dir, run_script
from lynxsim_tools import plots
from lynxsim_tools.plot_kinds import KINDS

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class PlotsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        fixture = TempDirTest()
        fixture.tmp = cls.tmp = make_temp_dir(cls.__name__)
        cls.sweep = fixture.tiny_sweep()
        cls.ran = run_script("sweep.py", "run", cls.sweep, "--lynxsim", fixture.fake_lynxsim(),
                             "--collect")
        cls.folder = next(p for p in (cls.tmp / "out").iterdir() if (p / "summary.json").exists())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def assert_png(self, path):
        self.assertTrue(path.is_file(), path)
        self.assertEqual(path.read_bytes()[:8], PNG_MAGIC)
        self.assertGreater(path.stat().st_size, 5000)

    def test_the_fixture_sweep_ran(self):
        self.assertEqual(self.ran.returncode, 0, self.ran.stderr)

    def test_each_kind_draws_from_the_sweep_file(self):
        for kind in sorted(KINDS):
            output = plots.plot(self.sweep, kind, output=self.tmp / "plots" / f"{kind}.png")
            self.assert_png(output)

    def test_the_collected_csv_and_filters_are_accepted(self):
        output = plots.plot(self.tmp / "out" / "summary.csv", "accuracy-vs-ttft",
                            where=["workload.requests.0.context=8192"])
        self.assertEqual(output, self.tmp / "out" / "plots" / "summary-accuracy-vs-ttft.png")
        self.assert_png(output)

    def test_a_single_results_folder_draws_a_cdf_from_the_command_line(self):
        done = run_script("sweep.py", "plot", self.folder, "--kind", "ttft-cdf")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assert_png(self.folder / "plots" / f"{self.folder.name}-ttft-cdf.png")

    def test_a_plot_without_its_data_fails_with_a_message(self):
        with self.assertRaisesRegex(ValueError, "no bandwidth axis"):
            plots.plot(self.folder, "speedup-vs-bandwidth")
        with self.assertRaisesRegex(ValueError, "no accuracy column accuracy_bleu"):
            plots.plot(self.folder, "accuracy-vs-ttft", metric="bleu")

    def test_each_method_keeps_its_colour_and_marker_in_every_figure(self):
        self.assertEqual(plots.method_style("lynx"), plots.method_style("lynx"))
        styles = {plots.method_style(m) for m in ("bf16", "int8", "int4", "lynx", "cachegen")}
        self.assertEqual(len(styles), 5)
        self.assertEqual(plots.method_style("my-method"), plots.method_style("my-method"))
        a = plots._styles([{"method": "lynx"}], [])
        b = plots._styles([{"method": "int8"}, {"method": "lynx"}], [])
        self.assertEqual(a["lynx"]["color"], b["lynx"]["color"])

    def test_the_caption_names_what_the_runs_share_and_what_is_swept(self):
        rows = [{"run_model": "llama-3.1-8b", "run_engine": "vllm", "context_tokens_mean": "32768",
                 "run_streaming": s} for s in ("layerwise", "after_prefill")]
        text = plots.caption(rows)
        self.assertIn("llama-3.1-8b", text)
        self.assertIn("engine vllm", text)
        self.assertIn("context 32,768 tokens", text)
        self.assertIn("streaming swept", text)


if __name__ == "__main__":
    unittest.main()
