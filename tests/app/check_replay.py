"""`lynxsim replay` on the fixtures of tests/fixtures/replay/ (made from lynxsim runs of
deployment.json's cluster, make_fixtures.py, in vLLM's, genai-perf's and AIPerf's formats):
replaying them on that deployment must give their latencies back, every metric within 1e-6
relative (genai-perf's timestamps are whole nanoseconds); on the same cluster with a 10x slower link the
simulated TTFT must be longer than the measured one.
    check_replay.py LYNXSIM SOURCE_DIR
"""
import json
import pathlib
import subprocess
import sys

TOLERANCE = 1e-6
FIXTURES = ("vllm_closed_loop.json", "vllm_open_loop.json", "genai_perf_closed_loop/profile_export.json",
            "genai_perf_request_rate.json", "aiperf_closed_loop/profile_export.jsonl", "aiperf_open_loop.jsonl")


def replay(lynxsim, fixtures, name, *extra):
    out = subprocess.run([lynxsim, "replay", str(fixtures / name), "--scenario",
                          str(fixtures / "deployment.json"), "--json", *extra],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["metrics"]


def main():
    lynxsim, source = sys.argv[1], pathlib.Path(sys.argv[2])
    fixtures = source / "tests" / "fixtures" / "replay"
    failures = []
    for name in FIXTURES:
        for metric, m in replay(lynxsim, fixtures, name).items():
            error = m["simulated"]["int8"]["relative_error"]
            if error is None or abs(error) > TOLERANCE:
                failures.append(f"{name} {metric}: relative error {error}")
    slow = replay(lynxsim, fixtures, "vllm_closed_loop.json", "--set", "network.bandwidth=10Gbps")
    if not slow["ttft_mean_s"]["simulated"]["int8"]["relative_error"] > 0.0:
        failures.append("a 10x slower link did not lengthen the simulated TTFT")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
