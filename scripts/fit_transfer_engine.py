#!/usr/bin/env python3
"""Fits the transfer engine's per-descriptor cost and lane rate (sim/net/transfer_engine.hpp).

With one descriptor in flight (nixlbench batch size 1) a block of s bytes takes c + s / G_d. The fit
is a least-squares line through the latencies, each weighted by 1 / latency (relative error), over
the blocks below 256 KiB (single-lane UCX) except the hold-out, fixed before fitting. Prints c,
G_d and the bandwidth residual (model / measured - 1) of every block below 256 KiB.

Usage: scripts/fit_transfer_engine.py [data/transfer_engine/nixlbench_ucx_batch1.csv]
"""

import csv
import sys

import numpy as np

HOLD_OUT = (16384, 131072)
SINGLE_LANE_BELOW = 262144


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "data/transfer_engine/nixlbench_ucx_batch1.csv"
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    size = np.array([float(r["block_size_B"]) for r in rows])
    latency = np.array([float(r["avg_lat_us"]) for r in rows]) * 1e-6
    single = size < SINGLE_LANE_BELOW
    fit = single & ~np.isin(size, HOLD_OUT)
    weight = 1.0 / latency[fit]
    design = np.vstack([np.ones(fit.sum()), size[fit]]).T * weight[:, None]
    (cost, inverse_rate), *_ = np.linalg.lstsq(design, latency[fit] * weight, rcond=None)
    print(f"descriptor_cost {cost * 1e6:.2f} us, descriptor_rate {1e-9 / inverse_rate:.2f} GB/s")
    for s, lat in zip(size[single], latency[single]):
        model = cost + s * inverse_rate
        tag = "hold-out" if s in HOLD_OUT else "fit"
        print(f"{int(s):>8} B  residual {100 * (lat / model - 1):+5.1f}%  ({tag})")


if __name__ == "__main__":
    main()
