"""CLI checks of issue-35 classes: every hostile or careless input is refused with exit code 2 and
a message naming the file (and the JSON path where there is one), in bounded time, leaving nothing
behind; a run that is not refused ends with exit 0.

  4  files that are not regular (FIFO, device), headers larger than their bound, cache entries
  7  unwritable --out paths, malformed GGUF models, allocation failures
  8  existing --out files (replaced only with --force), empty --cache-dir and --data-dir
  9  control characters of input never reach the terminal raw
  10 seeds out of range name --seed

usage: check_inputs.py LYNXSIM SCRATCH CASE
"""

import json
import os
import resource
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
QUICKSTART = str(ROOT / "scenarios" / "quickstart.json")
FAST = ["--set", 'methods=["int8"]', "--set", "accuracy.enabled=false",
        "--set", 'workload.requests=[{"context":1024,"output":4}]']
TIMEOUT_S = 50


class Check:
    def __init__(self, binary: str, scratch: Path):
        self.binary = binary
        self.scratch = scratch
        self.problems = []

    def run(self, *args, memory_bytes=None):
        def limit():
            if memory_bytes:
                resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        return subprocess.run([self.binary, *args], capture_output=True, timeout=TIMEOUT_S,
                              check=False, preexec_fn=limit)

    def refused(self, args, *expected, memory_bytes=None):
        p = self.run(*args, memory_bytes=memory_bytes)
        err = p.stderr.decode(errors="replace")
        if p.returncode != 2:
            self.problems.append(f"{args}: exit {p.returncode}, expected 2\n{err}")
        for text in expected:
            if text not in err:
                self.problems.append(f"{args}: the error does not name {text!r}:\n{err}")
        if p.stdout.strip():
            self.problems.append(f"{args}: a refused command printed {p.stdout!r}")
        return p

    def succeeded(self, args):
        p = self.run(*args)
        if p.returncode != 0:
            self.problems.append(f"{args}: exit {p.returncode}\n{p.stderr.decode(errors='replace')}")
        return p

    def absent(self, path: Path):
        if os.path.lexists(path):
            self.problems.append(f"{path} was left behind")

    def scenario(self, name: str, **changes) -> Path:
        document = json.loads(Path(QUICKSTART).read_text())
        document.update({"methods": ["int8"], "workload": {"requests": [{"context": 1024, "output": 4}]}})
        document.update(changes)
        path = self.scratch / name
        path.write_text(json.dumps(document))
        return path

    def fifo(self, name: str) -> Path:
        path = self.scratch / name
        os.mkfifo(path)
        return path

    def validate_and_run_refused(self, scenario: Path, *expected):
        self.refused(["validate", str(scenario)], *expected)
        out = self.scratch / "out"
        self.refused(["--scenario", str(scenario), "--out", str(out), "--quiet"], *expected)
        self.absent(out)


def safetensors(path: Path, header_length: int, size: int) -> Path:
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", header_length))
        f.truncate(size)
    return path


# Class 4: files that are not regular, oversized headers, cache entries.
def kv_file_fifo(c):
    c.fifo("kv.safetensors")
    c.validate_and_run_refused(c.scenario("s.json", accuracy={"kv_file": "kv.safetensors"}),
                               "/accuracy/kv_file", "kv.safetensors", "a FIFO")


def kv_file_device(c):
    (c.scratch / "kv.safetensors").symlink_to("/dev/zero")
    c.validate_and_run_refused(c.scenario("s.json", accuracy={"kv_file": "kv.safetensors"}),
                               "/accuracy/kv_file", "kv.safetensors", "a device")


def safetensors_header_too_large(c):
    safetensors(c.scratch / "kv.safetensors", 150_000_000, 160_000_000)
    c.validate_and_run_refused(c.scenario("s.json", accuracy={"kv_file": "kv.safetensors"}),
                               "/accuracy/kv_file", "more than the 100000000 bytes")


def safetensors_header_past_file(c):
    safetensors(c.scratch / "kv.safetensors", 3 << 30, 4096)
    c.validate_and_run_refused(c.scenario("s.json", accuracy={"kv_file": "kv.safetensors"}),
                               "/accuracy/kv_file", "exceeds the file")


def npy_header_too_large(c):
    (c.scratch / "kv").mkdir()
    with open(c.scratch / "kv" / "k_0.npy", "wb") as f:
        f.write(b"\x93NUMPY\x02\x00" + struct.pack("<I", 1 << 20))
        f.truncate(2 << 20)
    c.validate_and_run_refused(c.scenario("s.json", accuracy={"kv_file": "kv"}),
                               "/accuracy/kv_file", "k_0.npy", ".npy header")


def trace_fifo(c):
    c.fifo("trace.jsonl")
    workload = {"trace": {"file": "trace.jsonl", "format": "mooncake"}}
    c.validate_and_run_refused(c.scenario("s.json", workload=workload),
                               "/workload/trace", "trace.jsonl", "a FIFO")


def length_file_fifo(c):
    c.fifo("lengths.txt")
    workload = {"synthetic": {"rate_per_s": 2.0, "count": 10, "output": 16,
                              "context": {"kind": "empirical", "file": "lengths.txt"}}}
    c.validate_and_run_refused(c.scenario("s.json", workload=workload),
                               "/workload/synthetic/context", "lengths.txt", "a FIFO")


def accuracy_kv_file_fifo(c):
    fifo = c.fifo("kv.safetensors")
    c.refused(["accuracy", "--model", "llama-3.1-8b", "--context", "1024", "--kv-file", str(fifo)],
              str(fifo), "a FIFO")


def gguf_fifo(c):
    fifo = c.fifo("model.gguf")
    out = c.scratch / "logits.txt"
    c.refused(["llm-logits", "--model", str(fifo), "--prompt", "x", "--out", str(out)], str(fifo), "a FIFO")
    c.absent(out)


def cache_entries_not_regular(c):
    cache = c.scratch / "cache"
    args = ["--scenario", QUICKSTART, "--cache-dir", str(cache), "--quiet", "--set", 'methods=["int8"]',
            "--set", 'workload.requests=[{"context":1024,"output":4}]']
    c.succeeded([*args, "--out", str(c.scratch / "first")])
    entries = sorted((cache / "accuracy").glob("*.json"))
    if not entries:
        c.problems.append(f"the first run cached nothing in {cache}")
    for i, entry in enumerate(entries):
        entry.unlink()
        if i % 2 == 0:
            os.mkfifo(entry)
        else:
            entry.symlink_to("/dev/zero")
    second = c.succeeded([*args, "--out", str(c.scratch / "second")])
    if entries and b"cache entry ignored" not in second.stderr:
        c.problems.append(f"the second run did not report the ignored entries: {second.stderr!r}")


# Class 7: output paths, malformed models, allocation failures.
def out_empty(c):
    c.refused(["--scenario", QUICKSTART, *FAST, "--out", ""], "--out: an empty path")


def out_unwritable(c):
    c.refused(["--scenario", QUICKSTART, *FAST, "--out", "/proc/lynxsim-results"], "/proc/lynxsim-results")
    c.absent(Path("/proc/lynxsim-results"))


def out_name_too_long(c):
    out = c.scratch / ("a" * 300)
    c.refused(["--scenario", QUICKSTART, *FAST, "--out", str(out)], "--out", "a name of 300 bytes")


def out_below_a_file(c):
    (c.scratch / "file").write_text("x")
    out = c.scratch / "file" / "run"
    c.refused(["--scenario", QUICKSTART, *FAST, "--out", str(out)], str(out), "is not a folder")


def gguf_malformed(c):
    model = c.scratch / "model.gguf"
    model.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 1 << 40, 0))
    out = c.scratch / "logits.txt"
    c.refused(["llm-logits", "--model", str(model), "--prompt", "x", "--out", str(out)],
              str(model), "malformed GGUF")
    c.absent(out)


# The limit lets the run past its estimate, so the allocation itself fails under the 1 GiB ulimit.
def allocation_failure(c):
    c.refused(["accuracy", "--model", "llama-3.1-8b", "--context", "1048576", "--no-cache",
               "--memory-limit", "64GiB"],
              "out of memory while measuring the accuracy of llama-3.1-8b at --context 1048576",
              memory_bytes=1 << 30)


# Class 8: writes nobody asked for.
def logits_out_exists(c):
    out = c.scratch / "logits.txt"
    out.write_text("keep")
    c.refused(["llm-logits", "--model", str(c.scratch / "none.gguf"), "--prompt", "x", "--out", str(out)],
              str(out), "give --force")
    if out.read_text() != "keep":
        c.problems.append("llm-logits replaced an existing --out without --force")


def flows_out(c):
    flows = c.scratch / "flows.csv"
    flows.write_text("src,dst,size_B,start_s\nprefill,decode,1000000,0\n")
    out = c.scratch / "fct.csv"
    out.write_text("keep")
    args = ["flows", str(flows), "--network", "single-link-100g-rdma", "--out", str(out)]
    c.refused(args, str(out), "give --force")
    if out.read_text() != "keep":
        c.problems.append("flows replaced an existing --out without --force")
    c.succeeded([*args, "--force"])
    if not out.read_text().startswith("index,"):
        c.problems.append("flows --force did not write the CSV")
    fifo = c.fifo("fct.fifo")
    c.refused([*args[:-1], str(fifo), "--force"], str(fifo), "not a regular file")
    leftovers = [p.name for p in c.scratch.iterdir() if ".tmp-" in p.name]
    if leftovers:
        c.problems.append(f"temporary files left behind: {leftovers}")


def cache_dir_empty(c):
    c.refused(["validate", QUICKSTART, "--cache-dir", ""], "--cache-dir: an empty path")
    c.refused(["--scenario", QUICKSTART, *FAST, "--cache-dir", "", "--out", str(c.scratch / "o")],
              "--cache-dir: an empty path")
    c.absent(c.scratch / "o")


def data_dir_empty(c):
    c.refused(["list", "--data-dir", ""], "--data-dir: an empty path")


# Class 9: no control character of input reaches the terminal raw.
def raw_control_characters(c, p):
    for name, stream in (("stdout", p.stdout), ("stderr", p.stderr)):
        if b"\x1b" in stream or b"\x07" in stream or b"\x9b" in stream:
            c.problems.append(f"raw control characters on {name}: {stream!r}")


def description_escaped(c):
    scenario = c.scenario("s.json", description="\x1b]0;title\x07\x1b[2J\u009b31m")
    p = c.succeeded(["--scenario", str(scenario), *FAST, "--out", str(c.scratch / "o")])
    raw_control_characters(c, p)
    if b"\\x1b]0;title\\x07\\x1b[2J\\u009b31m" not in p.stdout:
        c.problems.append(f"the description is not shown escaped: {p.stdout!r}")


def messages_escaped(c):
    raw_control_characters(c, c.refused(["validate", str(c.scratch / "\x1b[2Jmissing.json")], "missing.json"))
    raw_control_characters(c, c.refused(["validate", QUICKSTART, "--set", "model=\x1b]0;x\x07"], "/model"))
    raw_control_characters(c, c.refused(["validate", QUICKSTART, "--set", "colour\x1b[31m=1"], "colour"))
    raw_control_characters(c, c.refused(["validate", QUICKSTART, "--set", b"description=\x1b\xff\x9a"],
                                        "--set description=", "not valid UTF-8"))


# Class 10: seeds.
def seed_out_of_range(c):
    for seed in ("-1", "9223372036854775808", "1e3", ""):
        p = c.refused(["--scenario", QUICKSTART, *FAST, "--seed", seed, "--out", str(c.scratch / "o")], "--seed")
        if b"--set" in p.stderr:
            c.problems.append(f"--seed {seed}: the error blames --set: {p.stderr!r}")
    c.refused(["accuracy", "--model", "llama-3.1-8b", "--context", "1024", "--seed", "-1"], "--seed")
    c.refused(["flows", "x.csv", "--network", "single-link-100g-rdma", "--seed", "-1"], "--seed")
    c.absent(c.scratch / "o")


def kv_profile_named(c):
    c.succeeded(["validate", QUICKSTART, "--set", "accuracy.profile=llama-like"])
    c.refused(["validate", QUICKSTART, "--set", "accuracy.profile=llama-lik"], "/accuracy/profile",
              "unknown synthetic-KV profile \"llama-lik\"", "llama-like")


CASES = {f.__name__: f for f in (
    kv_file_fifo, kv_file_device, safetensors_header_too_large, safetensors_header_past_file,
    npy_header_too_large, trace_fifo, length_file_fifo, accuracy_kv_file_fifo, gguf_fifo,
    cache_entries_not_regular, out_empty, out_unwritable, out_name_too_long, out_below_a_file,
    gguf_malformed, allocation_failure, logits_out_exists, flows_out, cache_dir_empty,
    data_dir_empty, description_escaped, messages_escaped, seed_out_of_range, kv_profile_named)}


def main() -> int:
    binary, scratch, case = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    subprocess.run(["rm", "-rf", str(scratch)], check=True)
    scratch.mkdir(parents=True)
    check = Check(binary, scratch)
    CASES[case](check)
    if not check.problems:
        subprocess.run(["rm", "-rf", str(scratch)], check=True)
    for problem in check.problems:
        print(problem, file=sys.stderr)
    return 1 if check.problems else 0


if __name__ == "__main__":
    sys.exit(main())
