"""A sweep run in this process through the module writes the same bytes as one run with the lynxsim
binary (scripts/lynxsim_tools/runner.py), points in parallel threads included."""

import json
import os
import sys
from pathlib import Path

import lynxsim
from conftest import QUICKSTART, ROOT, files_of

sys.path.insert(0, str(ROOT / "scripts"))
from lynxsim_tools import collect, points, runner, sweep_file  # noqa: E402


def sweep(tmp_path: Path, out: str) -> Path:
    base = tmp_path / "base.json"
    scenario = json.loads(QUICKSTART.read_text())
    scenario.update(methods=["bf16", "int8", "lynx"], accuracy={"enabled": False})
    scenario["workload"] = {"requests": [{"context": 8192, "output": 16}, {"context": 16384, "output": 8}]}
    base.write_text(json.dumps(scenario))
    path = tmp_path / f"sweep-{out}.json"
    path.write_text(json.dumps({
        "name": "tiny", "base": str(base), "out": str(tmp_path / out),
        "axes": {"network.bandwidth": ["10Gbps", "100Gbps"], "seed": [1, 2]},
        "fixed": {"workload.requests.0.context": 32768}}))
    return path


def run(path: Path, module) -> Path:
    loaded = sweep_file.load_sweep(path)
    failures = runner.run_points(points.expand_points(loaded), lynxsim=Path(os.environ["LYNXSIM_BINARY"]),
                                 base=loaded.base_path, out=loaded.out, jobs=2, module=module,
                                 stream=open(os.devnull, "w"))
    assert failures == []
    collected = collect.collect_points(loaded.name, points.expand_points(loaded), loaded.out)
    collect.write_collected(collected, loaded.out / "summary.csv", loaded.out / "requests.csv")
    return loaded.out


def test_a_sweep_through_the_module_is_byte_identical(tmp_path):
    by_module = run(sweep(tmp_path, "module"), lynxsim)
    by_binary = run(sweep(tmp_path, "binary"), None)
    folders = sorted(p.name for p in by_binary.iterdir() if p.is_dir())
    assert len(folders) == 4
    assert sorted(p.name for p in by_module.iterdir() if p.is_dir()) == folders
    for name in folders:
        assert files_of(by_module / name) == files_of(by_binary / name), name
    for name in ("summary.csv", "requests.csv"):
        assert (by_module / name).read_bytes() == (by_binary / name).read_bytes()


def test_the_module_is_used_only_with_the_default_binary_and_no_timeout():
    default = ROOT / "build" / "lynxsim"
    assert runner.in_process_module(default, default, None) is lynxsim
    assert runner.in_process_module(Path("/elsewhere/lynxsim"), default, None) is None
    assert runner.in_process_module(default, default, 60.0) is None


def test_a_failing_point_is_recorded_with_its_message(tmp_path):
    path = sweep(tmp_path, "bad")
    data = json.loads(path.read_text())
    data["axes"] = {"network.bandwidth": ["10Gbps", "10 parsecs"]}
    path.write_text(json.dumps(data))
    loaded = sweep_file.load_sweep(path)
    failures = runner.run_points(points.expand_points(loaded), lynxsim=ROOT / "build" / "lynxsim",
                                 base=loaded.base_path, out=loaded.out, jobs=1, module=lynxsim,
                                 stream=open(os.devnull, "w"))
    assert [f.returncode for f in failures] == [2]
    log = (loaded.out / "failed" / f"{failures[0].point.name}.log").read_text()
    assert "/network/bandwidth" in log and "--set network.bandwidth=" in log
