"""Reading lynxsim results folders and flattening them into CSV rows.

summary.json (schema_version 1) holds, per method, scalars (bytes_total, rollbacks, acceptance,
...), statistics objects {"mean", "p50", "p90", "p99"} (ttft_s, ttft_commit_s, tpot_s, e2e_s,
exposed_transfer_s, ...), maps (accuracy, speedup_vs) and lists (planes_bits, bytes_per_plane).
A row flattens one method generically, so fields added to summary.json appear as new columns
without a change here:

    ttft_s: {"mean": m, ...}      -> ttft_s_mean, ttft_s_p50, ttft_s_p90, ttft_s_p99
    accuracy: {"snr_k_db": x}     -> accuracy_snr_k_db
    speedup_vs: {"int8": x}       -> speedup_vs_int8
    speedup: {"ttft_commit_s": {"int8": x}}  -> speedup_ttft_commit_s_int8 (nested maps likewise)
    bytes_per_plane: [a, b]       -> bytes_per_plane_0, bytes_per_plane_1
    planes_bits: [4, 4]           -> planes_bits = "4+4"
    null                          -> empty cell

From requests.csv each row also gets context_tokens_mean and output_tokens_mean of its method,
the x axis of the context-length plots whatever the workload is.
"""

import csv
import io
import json
import os
from pathlib import Path

SCHEMA_VERSION = 1


class ResultsError(ValueError):
    pass


def read_summary(folder: Path) -> dict:
    path = Path(folder) / "summary.json"
    try:
        summary = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ResultsError(f"{path}: {error}") from error
    if summary.get("schema_version") != SCHEMA_VERSION:
        raise ResultsError(f"{path}: schema_version {summary.get('schema_version')!r}, "
                           f"expected {SCHEMA_VERSION}")
    return summary


def method_order(summary: dict) -> list:
    return list(summary.get("method_order") or sorted(summary["methods"]))


def _cell(value):
    return "" if value is None else value


def _flatten_map(key: str, value: dict) -> dict:
    flat = {}
    for sub, v in value.items():
        if isinstance(v, dict):
            flat.update(_flatten_map(f"{key}_{sub}", v))
        else:
            flat[f"{key}_{sub}"] = _cell(v)
    return flat


def flatten_method(method: dict) -> dict:
    flat = {}
    for key, value in method.items():
        if key == "planes_bits" and isinstance(value, list):
            flat[key] = "+".join(str(bits) for bits in value)
        elif isinstance(value, dict):
            flat.update(_flatten_map(key, value))
        elif isinstance(value, list):
            flat.update({f"{key}_{i}": _cell(v) for i, v in enumerate(value)})
        else:
            flat[key] = _cell(value)
    return flat


def read_requests(folder: Path) -> list:
    path = Path(folder) / "requests.csv"
    if not path.is_file():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _request_means(requests: list, method: str) -> dict:
    mine = [r for r in requests if r.get("method") == method]
    means = {}
    for column in ("context_tokens", "output_tokens"):
        values = [float(r[column]) for r in mine if r.get(column) not in (None, "")]
        if values:
            means[f"{column}_mean"] = sum(values) / len(values)
    return means


def _card_name(value) -> str:
    """A card's preset name (named cards expand into objects that keep it), else its own name."""
    if isinstance(value, dict):
        return str(value.get("preset", value.get("name", "inline")))
    return str(value)


def _group_gpu(value) -> str:
    groups = value if isinstance(value, list) else [value]
    return "+".join(_card_name(g.get("gpu", "")) if isinstance(g, dict) else _card_name(g)
                    for g in groups)


def _link_rate(network: dict) -> str:
    topology = network.get("topology", {}) if isinstance(network, dict) else {}
    for key in ("link", "host_link", "wan"):
        if isinstance(topology.get(key), dict) and "rate" in topology[key]:
            return str(topology[key]["rate"])
    return ""


def scenario_columns(folder: Path) -> dict:
    """What the run was, from scenario.resolved.json: model, GPUs, streaming, engine, link rate."""
    path = folder / "scenario.resolved.json"
    if not path.is_file():
        return {}
    s = json.loads(path.read_text())
    serving = s.get("serving", {})
    return {"model": _card_name(s.get("model", "")), "prefill_gpu": _group_gpu(s.get("prefill", {})),
            "decode_gpu": _group_gpu(s.get("decode", {})),
            "streaming": serving.get("streaming", ""), "engine": _card_name(serving.get("engine", "")),
            "link_rate": _link_rate(s.get("network", {}))}


def run_rows(folder: Path, prefix: dict | None = None) -> list:
    """One row per method of the results folder, each starting with the prefix columns."""
    summary = read_summary(folder)
    requests = read_requests(folder)
    scenario = scenario_columns(folder)
    rows = []
    for name in method_order(summary):
        row = dict(prefix or {})
        row["method"] = name
        row["lynxsim_version"] = summary.get("lynxsim_version", "")
        row["lynxsim_commit"] = summary.get("lynxsim_commit", "")
        for key, value in scenario.items():
            row.setdefault(f"run_{key}", value)
        row["engine"] = summary.get("engine", "")
        row.update(_request_means(requests, name))
        row.update(flatten_method(summary["methods"][name]))
        rows.append(row)
    return rows


def request_rows(folder: Path, prefix: dict | None = None) -> list:
    return [{**(prefix or {}), **r} for r in read_requests(folder)]


def columns_of(rows: list) -> list:
    columns = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    return list(columns)


def csv_text(rows: list) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns_of(rows), restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def write_text_atomic(path: Path, text: str) -> None:
    """Writes through a temporary file and a rename, so readers never see half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def write_csv(rows: list, path: Path) -> None:
    write_text_atomic(path, csv_text(rows))


def read_csv(path: Path) -> list:
    with Path(path).open(newline="") as handle:
        return list(csv.DictReader(handle))
