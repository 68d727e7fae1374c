#!/usr/bin/python3
"""Completion-time error of the relaxed flow solver against the exact one.

Generates seeded flow lists on fat-trees (100 Gb/s links, 1 us latency; uniformly random host
pairs, sizes uniform in [1 MB, 64 MB], the bench network's flows) and runs each through
`lynxsim flows` at the exact tolerance and at the relaxed tolerances; prints, per list and
tolerance, the worst and mean relative error of the completion times (finish - start) and the
wall time. The set (--quick leaves out the k=16 list, whose exact run takes minutes):
  k8-5k-burst    k=8,  5,000 flows started at once
  k8-10k-burst   k=8, 10,000 flows started at once
  k8-10k-open    k=8, 10,000 flows starting uniformly over 0.5 s
  k16-20k-open   k=16, 20,000 flows starting uniformly over 40 ms

  scripts/solver_accuracy.py --lynxsim build/lynxsim [--quick]
"""
import argparse
import csv
import json
import os
import random
import subprocess
import tempfile
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lynxsim_tools import venv  # noqa: E402

if __name__ == "__main__":
    venv.ensure(__file__)

CASES = [("k8-5k-burst", 8, 5000, 0.0, 1), ("k8-10k-burst", 8, 10000, 0.0, 1),
         ("k8-10k-open", 8, 10000, 0.5, 1), ("k16-20k-open", 16, 20000, 0.04, 5)]
EXACT = 1e-12
RELAXED = [1e-3, 1e-2]


def write_flows(path, k, n, span, seed):
    rng = random.Random(seed)
    hosts = [f"pod{p}.edge{e}.h{i}" for p in range(k) for e in range(k // 2) for i in range(k // 2)]
    with open(path, "w") as f:
        f.write("src,dst,size_B,start_s,class\n")
        for _ in range(n):
            s = rng.randrange(len(hosts))
            d = rng.randrange(len(hosts) - 1)
            d += d >= s
            f.write(f"{hosts[s]},{hosts[d]},{rng.randint(1_000_000, 64_000_000)},"
                    f"{rng.uniform(0, span):.9f},0\n")


def run(lynxsim, flows, k, tolerance, workdir):
    network = os.path.join(workdir, f"net-{k}-{tolerance:g}.json")
    with open(network, "w") as f:
        json.dump({"topology": {"kind": "fat-tree", "k": k,
                                "link": {"rate": "100Gbps", "latency": "1us"}},
                   "rate_tolerance": tolerance}, f)
    out = os.path.join(workdir, f"out-{k}-{tolerance:g}.csv")
    t0 = time.monotonic()
    subprocess.run([lynxsim, "flows", flows, "--network", network, "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    with open(out) as f:
        return [float(r["fct_s"]) for r in csv.DictReader(f)], wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lynxsim", default="build/lynxsim")
    ap.add_argument("--quick", action="store_true", help="leave out the k=16 list")
    args = ap.parse_args()
    print(f"{'flow list':<14} {'tolerance':>9} {'worst':>9} {'mean':>9} {'wall s':>7}")
    with tempfile.TemporaryDirectory() as workdir:
        for name, k, n, span, seed in CASES:
            if args.quick and k > 8:
                continue
            flows = os.path.join(workdir, f"{name}.csv")
            write_flows(flows, k, n, span, seed)
            exact, wall = run(args.lynxsim, flows, k, EXACT, workdir)
            print(f"{name:<14} {EXACT:>9g} {'-':>9} {'-':>9} {wall:>7.1f}", flush=True)
            for tol in RELAXED:
                fct, wall = run(args.lynxsim, flows, k, tol, workdir)
                err = [abs(a - b) / b for a, b in zip(fct, exact)]
                print(f"{name:<14} {tol:>9g} {max(err):>9.2%} {sum(err) / len(err):>9.3%} "
                      f"{wall:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
