"""lynxsim.run against the CLI: the same files byte for byte, the same errors, dict input,
overrides and determinism."""

import json

import pytest

import lynxsim
from lynxsim import tables
from conftest import QUICKSTART, files_of


def test_out_writes_the_clis_files_byte_for_byte(cli, cache_dir, tmp_path):
    cli("--scenario", QUICKSTART, "--out", tmp_path / "cli", "--seed", 7, "--quiet")
    result = lynxsim.run(QUICKSTART, seed=7, out=tmp_path / "api", cache_dir=cache_dir)
    cli_files = files_of(tmp_path / "cli")
    assert files_of(tmp_path / "api") == cli_files
    assert result.summary_json == json.loads(cli_files["summary.json"])
    assert result.scenario == json.loads(cli_files["scenario.resolved.json"])
    assert result.out == tmp_path / "api"


def test_the_tables_hold_the_files_values(cli, cache_dir, tmp_path):
    cli("--scenario", QUICKSTART, "--out", tmp_path / "cli", "--quiet")
    summary, requests = lynxsim.run(QUICKSTART, cache_dir=cache_dir)
    text = (tmp_path / "cli" / "requests.csv").read_text()
    expected = tables.requests_table(text)
    assert list(requests["ttft_s"]) == list(expected["ttft_s"])
    assert len(requests) == text.count("\n") - 1
    methods = json.loads((tmp_path / "cli" / "summary.json").read_text())["method_order"]
    assert list(summary["method"]) == methods
    assert not any(tmp_path.glob("results"))


def test_without_pandas_the_tables_are_lists_of_dicts(cache_dir, monkeypatch):
    monkeypatch.setattr(tables, "pandas", None)
    result = lynxsim.run(QUICKSTART, cache_dir=cache_dir)
    assert isinstance(result.requests, list) and isinstance(result.summary, list)
    row = result.requests[0]
    assert isinstance(row["method"], str) and isinstance(row["id"], int)
    assert isinstance(row["ttft_s"], float)
    assert result.summary[0]["method"] == result.summary_json["method_order"][0]
    assert result.summary[0]["ttft_s_mean"] == result.summary_json["methods"][row["method"]]["ttft_s"]["mean"]


def test_a_dict_runs_as_its_file(cache_dir):
    from_file = lynxsim.run(QUICKSTART, cache_dir=cache_dir)
    from_dict = lynxsim.run(json.loads(QUICKSTART.read_text()), cache_dir=cache_dir)
    assert from_dict.summary_json == from_file.summary_json
    assert from_dict.requests.equals(from_file.requests)


@pytest.mark.parametrize("overrides", [
    {"network.bandwidth": "10Gbps", "seed": 3},
    ["network.bandwidth=10Gbps", "seed=3"],
    [("network.bandwidth", "10Gbps"), ("seed", 3)],
])
def test_overrides_are_the_clis_set(cli, cache_dir, tmp_path, overrides):
    cli("--scenario", QUICKSTART, "--out", tmp_path / "cli", "--set", "network.bandwidth=10Gbps",
        "--set", "seed=3", "--quiet")
    result = lynxsim.run(QUICKSTART, set=overrides, out=tmp_path / "api", cache_dir=cache_dir)
    assert files_of(tmp_path / "api") == files_of(tmp_path / "cli")
    assert result.scenario["seed"] == 3


def test_runs_are_deterministic(cache_dir):
    first = lynxsim.run(QUICKSTART, seed=11, cache_dir=cache_dir)
    second = lynxsim.run(QUICKSTART, seed=11, cache_dir=cache_dir)
    assert first.summary_json == second.summary_json
    assert first.requests.equals(second.requests)


def test_a_bad_key_raises_scenario_error_with_the_clis_message(cli, cache_dir, tmp_path):
    done = cli("--scenario", QUICKSTART, "--set", "network.bandwith=10Gbps", check=False)
    assert done.returncode == 2
    with pytest.raises(lynxsim.ScenarioError) as error:
        lynxsim.run(QUICKSTART, set=["network.bandwith=10Gbps"], cache_dir=cache_dir)
    assert "/network/bandwith" in str(error.value)
    assert done.stderr.strip() == f"lynxsim: {error.value}"
    assert error.value.exit_code == 2 and isinstance(error.value, ValueError)


def test_a_dicts_errors_name_it_and_the_json_path(cache_dir):
    scenario = json.loads(QUICKSTART.read_text())
    scenario["network"]["bandwidth"] = "25"
    with pytest.raises(lynxsim.ScenarioError, match=r"^<dict>: .*/network/bandwidth"):
        lynxsim.run(scenario, cache_dir=cache_dir)


def test_an_out_that_is_not_a_results_folder_is_refused(cache_dir, tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    with pytest.raises(lynxsim.ScenarioError, match="notes|lynxsim results"):
        lynxsim.run(QUICKSTART, out=tmp_path / "mine", cache_dir=cache_dir)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep"


def test_a_missing_file_is_a_scenario_error(tmp_path):
    with pytest.raises(lynxsim.ScenarioError, match="missing.json"):
        lynxsim.run(tmp_path / "missing.json")


def test_a_traced_run_writes_the_clis_trace(cli, cache_dir, tmp_path):
    cli("--scenario", QUICKSTART, "--out", tmp_path / "cli", "--trace", "--trace-methods", "lynx", "--quiet")
    lynxsim.run(QUICKSTART, out=tmp_path / "api", trace=True, trace_methods=["lynx"], cache_dir=cache_dir)
    assert files_of(tmp_path / "api") == files_of(tmp_path / "cli")


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5])
def test_a_seed_out_of_range_is_refused(seed):
    with pytest.raises(lynxsim.ScenarioError, match="not a seed"):
        lynxsim.run(QUICKSTART, seed=seed)
