"""lynxsim.validate, estimate and accuracy against the CLI's validate, estimate --json and
accuracy --json."""

import json

import pytest

import lynxsim
from conftest import QUICKSTART


def test_validate_sizes_the_run_as_the_cli_does(cli):
    printed = cli("validate", QUICKSTART, "--trace", "--memory-limit", "64GiB").stdout
    sizes = lynxsim.validate(QUICKSTART, trace=True, memory_limit="64GiB")
    assert printed.startswith(f"{QUICKSTART}: ok ({sizes['methods']} methods, {sizes['requests']} requests; "
                              f"{sizes['hosts']} hosts, {sizes['links']} links, {sizes['prefill_gpus']} + "
                              f"{sizes['decode_gpus']} GPUs, at most {sizes['flows_at_most']} flows, at least "
                              f"{sizes['trace_events_at_least']} trace events")
    assert sizes["memory_limit_bytes"] == 64 << 30


def test_validate_raises_the_clis_error(cli):
    done = cli("validate", QUICKSTART, "--set", "workload.requests.0.context=-1", check=False)
    with pytest.raises(lynxsim.ScenarioError) as error:
        lynxsim.validate(QUICKSTART, set=["workload.requests.0.context=-1"])
    assert done.returncode == 2 and done.stderr.strip() == f"lynxsim: {error.value}"


def test_estimate_is_estimate_json(cli):
    printed = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--context", 4096,
                  "--batch", 8, "--tp", 2, "--json").stdout
    assert lynxsim.estimate("llama-3.1-8b", "h100-sxm", 4096, batch=8, tp=2) == json.loads(printed)


def test_estimate_of_an_unknown_gpu_is_the_clis_error(cli):
    done = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "h999", "--context", 4096, check=False)
    with pytest.raises(lynxsim.ScenarioError) as error:
        lynxsim.estimate("llama-3.1-8b", "h999", 4096)
    assert done.returncode == 2 and done.stderr.strip() == f"lynxsim: {error.value}"


def test_accuracy_is_accuracy_json(cli, cache_dir):
    printed = cli("accuracy", "--model", "llama-3.1-8b", "--context", 1024, "--methods", "int8,lynx",
                  "--json").stdout
    result = lynxsim.accuracy("llama-3.1-8b", 1024, ["int8", "lynx"], cache_dir=cache_dir)
    assert result.json == json.loads(printed)
    assert list(result.table["method"]) == [row["method"] for row in result.json["rows"]]
    assert list(result.table["key_snr_db"]) == [row["key_snr_db"] for row in result.json["rows"]]
