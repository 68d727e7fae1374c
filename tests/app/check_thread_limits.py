"""Commands that start threads run to their result when the system refuses threads.

Usage: check_thread_limits.py LYNXSIM WORKDIR

Under RLIMIT_STACK of 4 GB and RLIMIT_AS of 3 GB every thread's stack (glibc gives a thread
RLIMIT_STACK of address space) fails to map, so every pthread_create fails with EAGAIN: the
commands must give the same output as without the limits (the work runs on the threads they got,
core/thread_start.hpp). --threads beyond its bound is refused with exit code 2 naming it. With the
real model fetched (scripts/fetch_model.sh) llm-logits and `bench llm` are run under the limits too.
"""
import pathlib
import resource
import subprocess
import sys

import workdir

LIMIT_S = 120
GB = 1 << 30


def refuse_threads():
    resource.setrlimit(resource.RLIMIT_STACK, (4 * GB, 4 * GB))
    resource.setrlimit(resource.RLIMIT_AS, (3 * GB, 3 * GB))


def run(args, limited=False):
    return subprocess.run(args, capture_output=True, text=True, timeout=LIMIT_S,
                          preexec_fn=refuse_threads if limited else None)


def expect(condition, what, result):
    if not condition:
        sys.exit(f"{what}\nexit {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr}")


def check_refusals(lynxsim):
    for args in (["bench", "llm", "--threads", "100000"], ["bench", "llm", "--threads", "0"],
                 ["llm-logits", "--prompt", "x", "--out", "never-written.json", "--threads", "2000"]):
        r = run([lynxsim] + args)
        expect(r.returncode == 2 and "--threads" in r.stderr and not r.stdout,
               f"{args}: expected exit 2 naming --threads", r)


def check_same_under_limits(name, args):
    free = run(args)
    expect(free.returncode == 0, f"{name}: failed without limits", free)
    limited = run(args, limited=True)
    expect(limited.returncode == 0, f"{name}: failed when threads are refused", limited)
    expect(limited.stdout == free.stdout, f"{name}: output differs when threads are refused", limited)
    return limited


def check_real_model(lynxsim, work):
    models = sorted((pathlib.Path.home() / ".cache/lynxsim/models/smollm2-135m").glob("*.gguf"))
    if not models:
        print("real model absent (scripts/fetch_model.sh): llm-logits and bench llm not checked")
        return
    outputs = []
    for limited in (False, True):
        out = work / f"logits-{int(limited)}.json"
        out.unlink(missing_ok=True)
        r = run([lynxsim, "llm-logits", "--model", str(models[0]), "--prompt", "The capital of France is",
                 "--threads", "8", "--out", str(out)], limited)
        expect(r.returncode == 0, "llm-logits failed", r)
        outputs.append(out.read_bytes())
        out.unlink()
    if outputs[0] != outputs[1]:
        sys.exit("llm-logits: logits differ when threads are refused")
    r = run([lynxsim, "bench", "llm", "--threads", "1000", "--context", "64", "--decode", "2"], limited=True)
    expect(r.returncode == 0 and "--threads 1000" in r.stderr, "bench llm: expected a warning naming --threads", r)


def main():
    lynxsim, work = sys.argv[1], workdir.fresh(sys.argv[2])
    check_refusals(lynxsim)
    check_same_under_limits("accuracy", [lynxsim, "accuracy", "--model", "llama-3.1-8b", "--context", "2048",
                                         "--no-cache", "--json"])
    check_real_model(lynxsim, work)
    workdir.finish(work)


if __name__ == "__main__":
    main()
