"""Sweep-file parsing and point expansion: order, names, shards."""

import os
import unittest

from support import TempDirTest
from lynxsim_tools import points, sweep_file


def sweep(**changes):
    raw = {"name": "s", "base": "/b.json", "out": "/o",
           "axes": {"workload.requests.0.context": [8192, 32768, 131072],
                    "network.bandwidth": ["10Gbps", "25Gbps"],
                    "hardware": [{"label": "910b", "set": {"prefill.gpu": "ascend-910b",
                                                          "decode.gpu": "ascend-910b"}},
                                 {"label": "h100", "set": {"prefill.gpu": "h100-sxm",
                                                          "decode.gpu": "h100-sxm"}}]},
           "fixed": {"methods": ["int8", "lynx"]}}
    raw.update(changes)
    return sweep_file.parse_sweep(raw)


class SweepFileTest(unittest.TestCase):
    def test_points_are_the_cartesian_product_with_the_first_axis_slowest(self):
        expanded = points.expand_points(sweep())
        self.assertEqual(len(expanded), 12)
        self.assertEqual([p.index for p in expanded], list(range(12)))
        self.assertEqual(expanded[0].labels, (("workload.requests.0.context", "8192"),
                                              ("network.bandwidth", "10Gbps"),
                                              ("hardware", "910b")))
        self.assertEqual(dict(expanded[1].labels)["hardware"], "h100")
        self.assertEqual(dict(expanded[4].labels)["workload.requests.0.context"], "32768")

    def test_a_point_sets_the_fixed_overrides_then_every_axis_path(self):
        point = points.expand_points(sweep())[1]
        self.assertEqual(point.sets, (("methods", ["int8", "lynx"]),
                                      ("workload.requests.0.context", 8192),
                                      ("network.bandwidth", "10Gbps"),
                                      ("prefill.gpu", "h100-sxm"), ("decode.gpu", "h100-sxm")))

    def test_folder_names_are_readable_unique_and_stable(self):
        names = [p.name for p in points.expand_points(sweep())]
        self.assertEqual(len(set(names)), len(names))
        self.assertTrue(names[0].startswith("context=8192_bandwidth=10Gbps_hardware=910b-"))
        self.assertEqual(names, [p.name for p in points.expand_points(sweep())])
        changed = points.expand_points(sweep(fixed={"methods": ["bf16"]}))
        self.assertNotEqual(names[0], changed[0].name)

    def test_shards_partition_the_points_exactly(self):
        expanded = points.expand_points(sweep())
        for n in (1, 2, 3, 5, 12, 20):
            shards = [points.shard_points(expanded, (i, n)) for i in range(n)]
            indices = sorted(p.index for shard in shards for p in shard)
            self.assertEqual(indices, list(range(len(expanded))), f"n={n}")
            self.assertTrue(all(len(s) in (len(expanded) // n, -(-len(expanded) // n))
                                for s in shards))

    def test_shard_text_is_validated(self):
        self.assertEqual(points.parse_shard("2/4"), (2, 4))
        for bad in ("4/4", "1", "-1/2", "a/b", "0/0"):
            with self.assertRaises(ValueError):
                points.parse_shard(bad)

    def test_malformed_sweeps_are_rejected_with_the_offending_key(self):
        cases = [({"axes": {"x": []}}, "axes/x"),
                 ({"axes": {"x": [1, 1]}}, "duplicate"),
                 ({"colour": 1}, "unknown keys"),
                 ({"fixed": {"network.bandwidth": "1Gbps"}}, "network.bandwidth"),
                 ({"axes": {"h": [{"label": "a"}]}}, "axes/h/0"),
                 ({"name": "../../x"}, "sweep/name"),
                 ({"name": "/tmp/x"}, "sweep/name"),
                 ({"name": ""}, "sweep/name"),
                 ({"name": "a" * 101}, "sweep/name"),
                 ({"name": "a\x1b]0;t\x07"}, "sweep/name")]
        for change, message in cases:
            with self.assertRaises(sweep_file.SweepError) as caught:
                sweep(**change)
            self.assertIn(message, str(caught.exception))


class SweepFileReadTest(TempDirTest):
    def test_a_fifo_or_a_folder_is_refused_without_blocking(self):
        fifo = self.tmp / "sweep.json"
        os.mkfifo(fifo)
        for path in (fifo, self.tmp):
            with self.assertRaises(sweep_file.SweepError) as caught:
                sweep_file.load_sweep(path)
            self.assertIn(str(path), str(caught.exception))


if __name__ == "__main__":
    unittest.main()
