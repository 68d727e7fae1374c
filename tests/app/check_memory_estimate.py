"""The memory estimate of `validate` against the peak RSS of the run it estimates.

Usage: check_memory_estimate.py LYNXSIM WORKDIR

Runs small scenarios (synthetic requests without the accuracy measurement, and a leaf-spine
network) and reads each run's peak resident set (ru_maxrss of the child, measured in a fresh
process). The model of scenario/memory_estimate.hpp must be an upper bound of every run, and its
per-request and per-request-and-method slopes (the differences between two sizes, which cancel
the base term) must match the measured differences within 30%. Then `validate`, a run and
`accuracy` refuse what exceeds --memory-limit (or, without it, `ulimit -v`), with exit code 2, the
file and JSON path, and leave nothing behind.
"""
import json
import re
import resource
import shutil
import subprocess
import sys

import workdir

LIMIT_S = 60
SLOPE_TOLERANCE = 0.30
MEASURE = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
           "stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}


def scenario(name, requests, methods, topology="single-link"):
    return {"schema_version": 1, "name": name, "model": "llama-3.1-8b",
            "prefill": {"gpu": "h100-sxm", "tp": 1}, "decode": {"gpu": "h100-sxm", "tp": 1},
            "network": {"topology": topology, "bandwidth": "400Gbps", "latency": "10us"}
            if topology == "single-link" else {"topology": topology},
            "workload": {"synthetic": {"count": requests, "rate_per_s": 1000,
                                       "context": {"kind": "fixed", "value": 16},
                                       "output": {"kind": "fixed", "value": 1}}},
            "methods": ["int8", "bf16"][:methods], "accuracy": {"enabled": False}}


LEAF_SPINE = {"kind": "leaf-spine", "leaves": 256, "hosts_per_leaf": 256, "spines": 128,
              "host_link": {"rate": "100Gbps", "latency": "1us"},
              "uplink": {"rate": "400Gbps", "latency": "1us"}}


def estimate(lynxsim, path):
    r = subprocess.run([lynxsim, "validate", str(path)], capture_output=True, text=True, timeout=LIMIT_S)
    match = re.search(r"estimated memory ([0-9.]+) (\w+) of", r.stdout)
    if r.returncode != 0 or not match:
        sys.exit(f"validate {path}: no estimate\n{r.stdout}{r.stderr}")
    return float(match.group(1)) * UNITS[match.group(2)]


def peak_rss(lynxsim, path, out):
    r = subprocess.run([sys.executable, "-c", MEASURE, lynxsim, "--scenario", str(path), "--out", str(out),
                        "--quiet"], capture_output=True, text=True, timeout=LIMIT_S)
    if r.returncode != 0:
        sys.exit(f"run {path} failed\n{r.stderr}")
    shutil.rmtree(out)
    return int(r.stdout.strip()) * 1024


def check_model(lynxsim, work):
    cases = {"small": scenario("small", 20000, 1), "twice": scenario("twice", 40000, 1),
             "two_methods": scenario("two_methods", 20000, 2), "network": scenario("network", 1, 1, LEAF_SPINE)}
    measured = {}
    for name, s in cases.items():
        path = work / f"{name}.json"
        path.write_text(json.dumps(s))
        measured[name] = (estimate(lynxsim, path), peak_rss(lynxsim, path, work / f"{name}-out"))
        path.unlink()
        print(f"{name}: estimated {measured[name][0] / 2**20:.1f} MiB, measured {measured[name][1] / 2**20:.1f} MiB")
        if measured[name][0] < measured[name][1]:
            sys.exit(f"{name}: the estimate is below the measured peak")
    for a, b in (("small", "twice"), ("small", "two_methods")):
        model = measured[b][0] - measured[a][0]
        real = measured[b][1] - measured[a][1]
        if abs(model - real) > SLOPE_TOLERANCE * real:
            sys.exit(f"{a} -> {b}: the estimate grows by {model:.0f} bytes, the run by {real:.0f}")


def limit_address_space():
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def expect_refusal(args, expected, out=None, preexec_fn=None):
    r = subprocess.run(args, capture_output=True, text=True, timeout=LIMIT_S, preexec_fn=preexec_fn)
    if r.returncode != 2 or expected not in r.stderr or r.stdout:
        sys.exit(f"{args}: expected exit 2 naming {expected!r}\nexit {r.returncode}\n{r.stdout}{r.stderr}")
    if out is not None and out.exists():
        sys.exit(f"{args}: left {out} behind")


def check_refusals(lynxsim, work):
    path = work / "refused.json"
    path.write_text(json.dumps(scenario("refused", 1000, 2)))
    expected = f"{path}: /workload: the run needs an estimated"
    expect_refusal([lynxsim, "validate", str(path), "--memory-limit", "16MiB"], expected)
    out = work / "refused-out"
    expect_refusal([lynxsim, "--scenario", str(path), "--memory-limit", "16MiB", "--out", str(out)], expected, out)
    network = work / "network.json"
    network.write_text(json.dumps(scenario("network", 1, 1, LEAF_SPINE)))
    expect_refusal([lynxsim, "validate", str(network), "--memory-limit", "64MiB"], "/network/topology: the run needs")
    for bad in ("0", "-1GiB", "2x", ""):
        expect_refusal([lynxsim, "validate", str(path), "--memory-limit", bad], "--memory-limit")
    expect_refusal([lynxsim, "accuracy", "--model", "llama-3.1-8b", "--context", "1048576", "--no-cache",
                    "--memory-limit", "1GiB"], "--context 1048576: the accuracy measurement needs an estimated")
    expect_refusal([lynxsim, "accuracy", "--model", "llama-3.1-8b", "--context", "1048576", "--no-cache"],
                   "ulimit -v", preexec_fn=limit_address_space)
    path.unlink()
    network.unlink()


def main():
    lynxsim, work = sys.argv[1], workdir.fresh(sys.argv[2])
    check_model(lynxsim, work)
    check_refusals(lynxsim, work)
    workdir.finish(work)


if __name__ == "__main__":
    main()
