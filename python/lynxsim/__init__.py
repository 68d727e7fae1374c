"""lynxsim in Python: the simulator's commands as functions, run in this process.

    import lynxsim
    result = lynxsim.run("scenarios/quickstart.json", set={"network.bandwidth": "10Gbps"}, seed=7)
    result.summary      # one row per method (a pandas DataFrame, or a list of dicts without pandas)
    result.requests     # requests.csv: one row per request and method
    result.summary_json # summary.json as a dict
    summary, requests = lynxsim.run(...)   # the same two tables

run, validate, estimate and accuracy call the C++ functions the CLI's commands call (the
extension lynxsim._engine, with the GIL released while they work, so threads run in parallel), and
return what the command writes or prints with --json, without writing files: run writes the CLI's
results folder only when given out=, atomically, the same files byte for byte. A scenario is a path
or a dict (loaded as the file's JSON would be; its relative paths resolve against the current
folder, and messages name it "<dict>"). Overrides (`set`) are the CLI's --set: a dict
{path: value} (each value JSON-encoded, so "8192" stays a string and 8192 a number), a list of
"path=value" texts or (path, value) pairs, or one text. Bad input raises ScenarioError with the
message the CLI prints (the file and JSON path of every problem); see errors.py. The bundled data
(models/, configs/, data/) is the source tree's, or the copy installed with the package.
"""

import json
import os
from dataclasses import dataclass
from pathlib import Path

from . import _engine, tables
from .errors import InternalError, LynxsimError, ScenarioError, error_of

__all__ = ["run", "validate", "estimate", "accuracy", "RunResult", "AccuracyResult", "LynxsimError",
           "ScenarioError", "InternalError"]

_SHARE = Path(__file__).resolve().parent / "share"
_MAX_SEED = 2**63 - 1  # the CLI's --seed and a scenario's "seed" hold the same range


@dataclass
class RunResult:
    name: str
    summary: object        # one row per method (tables.method_table)
    requests: object       # requests.csv (tables.requests_table)
    summary_json: dict     # summary.json
    scenario: dict         # scenario.resolved.json
    out: Path | None       # the results folder written, if any

    def __iter__(self):
        return iter((self.summary, self.requests))


@dataclass
class AccuracyResult:
    table: object          # one row per method ("rows" of the JSON, flattened)
    json: dict             # what `lynxsim accuracy --json` prints


def _paths(data_dir, cache_dir) -> dict:
    if data_dir is None and _SHARE.is_dir():
        data_dir = _SHARE
    return {"data_dir": _path(data_dir), "cache_dir": _path(cache_dir)}


def _path(value):
    return None if value is None else os.fspath(value)


def _override(item) -> str:
    if isinstance(item, str):
        return item
    path, value = item
    return f"{path}={json.dumps(value, separators=(',', ':'))}"


def overrides(set_=None) -> list:
    """The --set texts of run's `set` argument."""
    if set_ is None:
        return []
    if isinstance(set_, str):
        return [set_]
    if isinstance(set_, dict):
        return [_override(item) for item in set_.items()]
    return [_override(item) for item in set_]


def _source(scenario) -> dict:
    if isinstance(scenario, dict):
        return {"scenario": "<dict>", "text": json.dumps(scenario)}
    return {"scenario": os.fspath(scenario), "text": None}


def _trace(trace, trace_limit, window, requests, methods, links) -> dict:
    if not trace:
        return {"trace_filter": _engine.trace_filter(None, None, None, 0), "trace_limit": None}
    limit = _engine.default_trace_limit if trace_limit is None else trace_limit
    methods = ",".join(methods) if isinstance(methods, (list, tuple)) else methods
    return {"trace_filter": _engine.trace_filter(window, requests, methods, links), "trace_limit": limit}


def _call(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except _engine.EngineError as error:
        raise error_of(*error.args) from None


def run(scenario, set=None, seed=None, out=None, *, force=False, trace=False, trace_limit=None,
        trace_window=None, trace_requests=None, trace_methods=None, trace_links=0,
        memory_limit=None, progress=False, data_dir=None, cache_dir=None) -> RunResult:
    """Runs a scenario as `lynxsim --scenario` does; writes the results folder only to `out`."""
    if trace and out is None:
        raise ValueError("trace=True writes trace.json into the results folder: give out=")
    if seed is not None and not (isinstance(seed, int) and 0 <= seed <= _MAX_SEED):
        raise ScenarioError(f"seed: {seed!r} is not a seed: a whole number from 0 to {_MAX_SEED}")
    result = _call(_engine.run, **_source(scenario), overrides=overrides(set), seed=seed, out=_path(out),
                   force=force, memory_limit=memory_limit, progress=progress,
                   **_trace(trace, trace_limit, trace_window, trace_requests, trace_methods, trace_links),
                   **_paths(data_dir, cache_dir))
    summary = json.loads(result["summary_json"])
    return RunResult(result["name"], tables.method_table(summary),
                     tables.requests_table(result["requests_csv"]), summary,
                     json.loads(result["resolved_json"]), None if out is None else Path(out))


def validate(scenario, set=None, *, trace=False, trace_limit=None, trace_window=None,
             trace_requests=None, trace_methods=None, memory_limit=None, data_dir=None,
             cache_dir=None) -> dict:
    """Checks a scenario as `lynxsim validate` does; returns the size of its run."""
    return _call(_engine.validate, **_source(scenario), overrides=overrides(set),
                 memory_limit=memory_limit,
                 **_trace(trace, trace_limit, trace_window, trace_requests, trace_methods, 0),
                 **_paths(data_dir, cache_dir))


def _options(options, values: dict):
    for key, value in values.items():
        if value is not None:
            setattr(options, key, value)
    return options


def estimate(model, gpu, context, *, batch=None, tp=None, engine=None, output=None,
             prefill_attention_dp=None, decode_attention_dp=None, expert_parallel=None,
             expert_load_imbalance=None, data_dir=None, cache_dir=None) -> dict:
    """The roofline timing `lynxsim estimate --json` prints, as a dict."""
    options = _options(_engine.EstimateOptions(), dict(
        model=model, gpu=gpu, context=context, batch=batch, tp=tp, engine=engine, output=output,
        prefill_attention_dp=prefill_attention_dp, decode_attention_dp=decode_attention_dp,
        expert_parallel=expert_parallel, expert_load_imbalance=expert_load_imbalance))
    return json.loads(_call(_engine.estimate, options, **_paths(data_dir, cache_dir)))


def accuracy(model, context, methods=None, *, kv_file=None, seed=None, no_cache=False,
             memory_limit=None, progress=False, text=None, passkey_in_text=False, no_passkey=False,
             continuation=None, samples=None, data_dir=None, cache_dir=None) -> AccuracyResult:
    """The precision of each method, as `lynxsim accuracy --json` measures it."""
    methods = methods.split(",") if isinstance(methods, str) else methods
    options = _options(_engine.AccuracyOptions(), dict(
        model=model, context=context, methods=methods, kv_file=_path(kv_file), seed=seed,
        no_cache=no_cache, memory_limit=memory_limit, progress=progress, text=_path(text),
        passkey_in_text=passkey_in_text, no_passkey=no_passkey, continuation=continuation,
        samples=samples))
    document = json.loads(_call(_engine.accuracy, options, **_paths(data_dir, cache_dir)))
    return AccuracyResult(tables.rows_table(document.get("rows", [])), document)
