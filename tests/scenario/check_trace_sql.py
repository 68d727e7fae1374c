"""Checks the cluster layout of trace.json by SQL (trace_sql.py): runs lynxsim --trace on a small
cluster (tests/scenario/trace_cluster.json: 2 prefill + 2 decode instances, int8 and lynx) and
queries the trace as Perfetto users do.

  - one process per instance and one for the network, named with method, role, index, GPU and TP;
  - each instance's threads (compute, kernels, requests, one per transfer plane), thread ids unique
    over the trace, and no two slices of one thread overlapping (every slice at depth 0);
  - decode slices carry their batch (args.requests) and steps; prefill passes their requests;
  - counters: waiting requests of every instance, utilisation of named links, plane rates;
  - filters: --trace-window, --trace-requests, --trace-methods, --trace-links, and their refusals
    (exit 2);
  - the same run writes the same bytes.

usage: check_trace_sql.py LYNXSIM OUT_DIR
"""

import filecmp
import json
import shutil
import subprocess
import sys
from pathlib import Path

import trace_sql

HERE = Path(__file__).resolve().parent
SCENARIO = str(HERE / "trace_cluster.json")
INSTANCES = [f"{m}: {role} {i} (h100-sxm, TP2)" for m in ("int8", "lynx")
             for role in ("prefill", "decode") for i in (0, 1)]
NO_OVERLAP = """
SELECT COUNT(*) FROM (
  SELECT s.ts, LAG(s.ts + s.dur) OVER (PARTITION BY s.track_id ORDER BY s.ts, s.dur) AS prev_end
  FROM slice s JOIN thread_track t ON s.track_id = t.id)
WHERE ts < prev_end"""


def run(binary: str, out: Path, *flags: str) -> subprocess.CompletedProcess:
    command = [binary, "--scenario", SCENARIO, "--out", str(out), "--force", "--quiet", *flags]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def traced(binary: str, out: Path, *flags: str):
    p = run(binary, out, "--trace", *flags)
    if p.returncode != 0:
        raise RuntimeError(f"lynxsim {' '.join(flags)}: exit {p.returncode}: {p.stderr}")
    return trace_sql.open_trace(out / "trace.json")


def one(trace, sql: str):
    return trace.query(sql)[0][0]


def check_processes(trace) -> list:
    names = {row[0] for row in trace.query("SELECT name FROM process WHERE name IS NOT NULL")}
    wanted = set(INSTANCES) | {"int8: network", "lynx: network"}
    return [] if names == wanted else [f"processes {sorted(names)}, wanted {sorted(wanted)}"]


def check_threads(trace) -> list:
    problems = []
    rows = trace.query("SELECT p.name, t.name FROM thread t JOIN process p USING (upid)")
    threads = {}
    for process, thread in rows:
        threads.setdefault(process, set()).add(thread)
    wanted = {"decode": {"compute", "KV kernels", "requests"}, "prefill": {"compute"}}
    for name in INSTANCES:
        role = name.split()[1]
        planes = {"anchor", "residual"} if name.startswith("lynx") and role == "decode" else set()
        if name.startswith("int8") and role == "decode":
            planes = {"KV"}
        missing = (wanted[role] | planes) - threads.get(name, set())
        if missing:
            problems.append(f"{name}: no thread {sorted(missing)}")
    shared = trace.query("SELECT tid FROM thread GROUP BY tid HAVING COUNT(DISTINCT upid) > 1")
    if shared:
        problems.append(f"thread ids used in more than one process: {shared[:5]}")
    overlaps = one(trace, NO_OVERLAP)
    nested = one(trace, "SELECT COUNT(*) FROM slice WHERE depth > 0")
    if overlaps or nested:
        problems.append(f"{overlaps} slices overlap the one before on their thread, {nested} nested")
    return problems


def check_slices(trace) -> list:
    problems = []
    per_process = dict(trace.query("""
        SELECT p.name, COUNT(*) FROM slice s JOIN thread_track tt ON s.track_id = tt.id
        JOIN thread t USING (utid) JOIN process p USING (upid)
        WHERE t.name = 'compute' GROUP BY p.name"""))
    for name in INSTANCES:
        if not per_process.get(name):
            problems.append(f"{name}: no compute slice")
    bad_steps = one(trace, """
        SELECT COUNT(*) FROM slice WHERE name = 'decode' AND (EXTRACT_ARG(arg_set_id, 'args.steps') < 1
          OR EXTRACT_ARG(arg_set_id, 'args.requests[0]') IS NULL
          OR EXTRACT_ARG(arg_set_id, 'args.batch') < 1)""")
    steps = one(trace, "SELECT SUM(EXTRACT_ARG(arg_set_id, 'args.steps')) FROM slice WHERE name = 'decode'")
    slices = one(trace, "SELECT COUNT(*) FROM slice WHERE name = 'decode'")
    if bad_steps or not steps or steps <= slices:
        problems.append(f"decode slices: {bad_steps} without steps/batch/requests; {steps} steps in "
                        f"{slices} slices (runs of steps over one batch should merge)")
    passes = one(trace, "SELECT COUNT(*) FROM slice WHERE name = 'prefill' "
                        "AND EXTRACT_ARG(arg_set_id, 'args.requests[0]') IS NOT NULL")
    flows = dict(trace.query("SELECT name, COUNT(*) FROM slice WHERE category = 'flow' GROUP BY name"))
    if passes < 24 or set(flows) != {"KV", "anchor", "residual"}:
        problems.append(f"{passes} prefill passes with requests; flow slices {flows}")
    return problems


def check_counters(trace) -> list:
    tracks = trace.query("""
        SELECT p.name, c.name, COUNT(k.id) FROM process_counter_track c JOIN process p USING (upid)
        LEFT JOIN counter k ON k.track_id = c.id GROUP BY c.id""")
    waiting = {p for p, name, n in tracks if name == "waiting requests" and n > 0}
    links = {name for p, name, n in tracks if "->" in name and name.endswith(" utilisation") and n > 0}
    planes = {name for p, name, n in tracks if name.endswith(" Gb/s") and n > 0}
    problems = []
    if waiting != set(INSTANCES):
        problems.append(f"waiting-requests counters of {sorted(waiting)}")
    if not any(name.startswith("leaf") for name in links):
        problems.append(f"link utilisation counters {sorted(links)}")
    if planes != {"KV Gb/s", "anchor Gb/s", "residual Gb/s"}:
        problems.append(f"plane rate counters {sorted(planes)}")
    top = one(trace, "SELECT MAX(value) FROM counter c JOIN process_counter_track t ON c.track_id = t.id "
                     "WHERE t.name LIKE '% utilisation'")
    if not 0 < top <= 1:
        problems.append(f"link utilisation peaks at {top}, outside (0, 1]")
    return problems


def check_window(trace) -> list:
    outside = one(trace, "SELECT COUNT(*) FROM slice WHERE ts >= 2000000000 "
                         "OR ts + dur < 1000000000 OR (dur = 0 AND ts < 1000000000)")
    counters = one(trace, "SELECT COUNT(*) FROM counter WHERE ts < 1000000000 OR ts >= 2000000000")
    at_start = one(trace, "SELECT COUNT(*) FROM counter WHERE ts = 1000000000")
    inside = one(trace, "SELECT COUNT(*) FROM slice")
    if outside or counters or not at_start or not inside:
        return [f"window 1:2: {outside} slices and {counters} counter values outside, {at_start} "
                f"counters at its start, {inside} slices"]
    return []


def check_requests(trace) -> list:
    own = one(trace, """
        SELECT COUNT(*) FROM slice WHERE EXTRACT_ARG(arg_set_id, 'args.request') IS NOT NULL
          AND EXTRACT_ARG(arg_set_id, 'args.request') NOT IN (3, 5, 6)""")
    batches = trace.query("""
        SELECT s.id, a.int_value FROM slice s JOIN args a USING (arg_set_id)
        WHERE s.name IN ('decode', 'prefill') AND a.key LIKE 'args.requests[%'""")
    holding = {sid for sid, r in batches if r in (3, 5, 6)}
    every = {sid for sid, _ in batches}
    done = {r[0] for r in trace.query("SELECT EXTRACT_ARG(arg_set_id, 'args.request') FROM slice "
                                      "WHERE name = 'request done'")}
    if own or holding != every or done != {3, 5, 6}:
        return [f"requests 3,5-6: {own} slices of other requests, {len(every - holding)} batches "
                f"without them, done {sorted(done)}"]
    return []


def check_methods(trace) -> list:
    names = {r[0] for r in trace.query("SELECT name FROM process WHERE name IS NOT NULL")}
    return [] if names and all(n.startswith("lynx: ") for n in names) else [f"--trace-methods lynx: {names}"]


def check_links(trace) -> list:
    links = trace.query("SELECT name FROM process_counter_track WHERE name LIKE '%->% utilisation'")
    return [] if len(links) == 2 else [f"--trace-links 2: link counters {links}"]


def check_refusals(binary: str, out: Path) -> list:
    cases = [(["--trace-window", "1:2"], "--trace-window: --trace-window requires --trace"),
             (["--trace", "--trace-window", "2:1"], "END must be after START"),
             (["--trace", "--trace-window", "x:2"], "is not a number of seconds"),
             (["--trace", "--trace-window", "5"], "expected START:END"),
             (["--trace", "--trace-requests", "4-2"], "ends before it starts"),
             (["--trace", "--trace-requests", "a"], "is not a request id"),
             (["--trace", "--trace-methods", "int8,nope"], "the scenario has no method \"nope\""),
             (["--trace", "--trace-links", "-1"], "--trace-links")]
    problems = []
    for flags, message in cases:
        p = run(binary, out, *flags)
        if p.returncode != 2 or message.split(": ", 1)[-1] not in p.stderr:
            problems.append(f"{' '.join(flags)}: exit {p.returncode}, stderr {p.stderr!r}")
    if out.exists():
        problems.append("a refused run wrote its results folder")
    return problems


def check_the_checks(out: Path) -> list:
    """The overlap queries see overlap: a trace with a slice overlapping the one before and a
    slice inside another on one thread."""
    out.mkdir(parents=True, exist_ok=True)
    spans = [(0.0, 10.0), (5.0, 10.0), (20.0, 10.0), (22.0, 1.0)]
    events = [{"ph": "X", "name": "s", "cat": "c", "pid": 1, "tid": 0, "ts": ts, "dur": dur, "args": {}}
              for ts, dur in spans]
    (out / "bad.json").write_text(json.dumps({"traceEvents": events}))
    trace = trace_sql.open_trace(out / "bad.json")
    try:
        overlaps = one(trace, NO_OVERLAP)
        nested = one(trace, "SELECT COUNT(*) FROM slice WHERE depth > 0")
    finally:
        trace.close()
    return [] if overlaps == 2 and nested == 2 else [f"bad trace: {overlaps} overlaps, {nested} nested"]


def main() -> int:
    binary, out = sys.argv[1], Path(sys.argv[2])
    shutil.rmtree(out, ignore_errors=True)
    problems = []
    checks = [([], [check_processes, check_threads, check_slices, check_counters]),
              (["--trace-window", "1:2"], [check_window, check_threads]),
              (["--trace-requests", "3,5-6"], [check_requests, check_threads]),
              (["--trace-methods", "lynx", "--trace-links", "2"], [check_methods, check_links])]
    for i, (flags, functions) in enumerate(checks):
        trace = traced(binary, out / f"run{i}", *flags)
        try:
            for f in functions:
                problems += [f"{' '.join(flags) or 'unfiltered'}: {p}" for p in f(trace)]
        finally:
            trace.close()
    again = run(binary, out / "again", "--trace")
    if again.returncode != 0 or not filecmp.cmp(out / "run0" / "trace.json", out / "again" / "trace.json",
                                                 shallow=False):
        problems.append("two runs of one scenario and seed wrote different trace.json")
    problems += check_refusals(binary, out / "refused") + check_the_checks(out / "bad")
    for p in problems:
        print(f"trace sql: {p}", file=sys.stderr)
    print(f"trace sql ({trace_sql.engine_name()}): {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
