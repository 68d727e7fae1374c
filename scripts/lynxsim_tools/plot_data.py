"""Rows for the plots: loading any kind of input, filtering, numbers, series.

Input may be a sweep file (its output folder is collected in memory), a sweep output folder
(holding summary.csv and requests.csv), a collected CSV (summary or requests rows, told apart by
their columns) or one lynxsim results folder. Axis columns are the point columns that come before
"method" in a collected row (sweep, point and index excepted): those are what varies across the
sweep, so a series is one method at one combination of the axes a figure does not already use.

Cells are numbers or text. `number` reads plain numbers and rates ("25Gbps" -> 25.0, in Gb/s;
bps, Kbps, Mbps, Gbps and Tbps), so a bandwidth axis written as in scenarios sorts and scales.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from . import collect, points, results, sweep_file

_RATE = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([kKMGT]?)bps\s*$")
_RATE_TO_GBPS = {"": 1e-9, "k": 1e-6, "K": 1e-6, "M": 1e-3, "G": 1.0, "T": 1e3}
_PREFIX = ("sweep", "point", "index")


@dataclass
class PlotInput:
    rows: list
    request_rows: list
    default_folder: Path
    stem: str


def number(value):
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip()
    try:
        return float(text)
    except ValueError:
        match = _RATE.match(text)
        return float(match.group(1)) * _RATE_TO_GBPS[match.group(2)] if match else None


def _from_sweep(path: Path) -> PlotInput:
    sweep = sweep_file.load_sweep(path)
    got = collect.collect_points(sweep.name, points.expand_points(sweep), sweep.out)
    if not got.rows:
        raise ValueError(f"{path}: no results under {sweep.out}; run the sweep first")
    return PlotInput(got.rows, got.request_rows, sweep.out, sweep.name)


def _from_csv(path: Path) -> PlotInput:
    rows = results.read_csv(path)
    is_requests = bool(rows) and "ttft_s" in rows[0] and "ttft_s_mean" not in rows[0]
    return PlotInput([] if is_requests else rows, rows if is_requests else [], path.parent,
                     path.stem)


def _from_folder(path: Path) -> PlotInput:
    if (path / "summary.json").is_file():
        return PlotInput(results.run_rows(path), results.request_rows(path), path, path.name)
    if (path / "summary.csv").is_file():
        rows = results.read_csv(path / "summary.csv")
        requests = path / "requests.csv"
        request_rows = results.read_csv(requests) if requests.is_file() else []
        return PlotInput(rows, request_rows, path, path.name)
    raise ValueError(f"{path}: neither a results folder (summary.json) nor a collected sweep "
                     f"(summary.csv)")


def load_input(path: Path) -> PlotInput:
    path = Path(path)
    if path.is_dir():
        return _from_folder(path)
    if path.suffix == ".json":
        return _from_sweep(path)
    if path.suffix == ".csv":
        return _from_csv(path)
    raise ValueError(f"{path}: expected a sweep file (.json), a CSV or a results folder")


def apply_where(rows: list, where: list) -> list:
    for condition in where:
        column, sep, value = condition.partition("=")
        if not sep:
            raise ValueError(f"--where '{condition}': expected COLUMN=VALUE")
        rows = [r for r in rows if str(r.get(column, "")) == value]
    return rows


def axis_columns(rows: list) -> list:
    if not rows:
        return []
    keys = list(rows[0])
    head = keys[:keys.index("method")] if "method" in keys else []
    return [k for k in head if k not in _PREFIX]


def find_column(columns: list, word: str):
    matches = [c for c in columns if word in c.split(".")[-1]]
    return matches[0] if matches else None


def varying(rows: list, columns: list) -> list:
    return [c for c in columns if len({str(r.get(c, "")) for r in rows}) > 1]


def series_key(row: dict, columns: list) -> str:
    parts = [str(row.get("method", ""))]
    parts += [f"{points.short_axis_name(c)}={row.get(c, '')}" for c in columns]
    return ", ".join(parts)


def group(rows: list, key) -> dict:
    groups = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    return groups
