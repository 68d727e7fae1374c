"""Sweep files: a base scenario, the axes to vary, the overrides to hold fixed.

    {"name": "ttft-vs-context",
     "base": "scenarios/quickstart.json",
     "axes": {"workload.requests.0.context": [8192, 32768, 131072],
              "network.bandwidth": ["10Gbps", "100Gbps"],
              "hardware": [{"label": "910b", "set": {"prefill.gpu": "ascend-910b",
                                                    "decode.gpu": "ascend-910b"}},
                           {"label": "h100", "set": {"prefill.gpu": "h100-sxm",
                                                    "decode.gpu": "h100-sxm"}}]},
     "fixed": {"methods": ["bf16", "int8", "int4", "lynx"]},
     "out": "results/sweeps/ttft-vs-context"}

An axis is named by a dotted scenario path (what `lynxsim --set` takes) and lists plain JSON
values, or has any name and lists labelled values {"label": text, "set": {path: value, ...}} that
change several paths together (the same GPU on both instances, a method list named by its split).
"fixed" holds overrides applied to every point; a path may not appear both there and in an axis.
Relative "base" and "out" paths are resolved against the repository root. Unknown keys, empty axes
and duplicate labels are errors, reported with the file name. "name" follows the rule of a
scenario's name (1-100 characters of letters, digits and `. _ + -`, starting with a letter or
digit), since it names the default folder results/sweeps/<name>. The sweep file is read like every
lynxsim input (sim/io/input_file.hpp): a regular file of at most 64 MiB, never a FIFO or device.
"""

import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from . import repo

_KEYS = {"name", "base", "axes", "fixed", "out", "description"}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")
_MAX_FILE_BYTES = 64 << 20


class SweepError(ValueError):
    pass


@dataclass(frozen=True)
class AxisValue:
    label: str
    sets: tuple  # ((path, value), ...)


@dataclass(frozen=True)
class Axis:
    name: str
    values: tuple  # (AxisValue, ...)


@dataclass
class Sweep:
    name: str
    base: str
    axes: list
    fixed: dict
    out: Path
    source: Path | None = None
    description: str = ""
    base_path: Path = field(init=False)

    def __post_init__(self):
        self.base_path = repo.resolve(self.base)


def value_label(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def _labelled_value(where: str, raw: dict) -> AxisValue:
    if set(raw) != {"label", "set"} or not isinstance(raw["label"], str):
        raise SweepError(f"{where}: a labelled value is {{\"label\": text, \"set\": {{path: value}}}}")
    if not isinstance(raw["set"], dict) or not raw["set"]:
        raise SweepError(f"{where}/set: expected a non-empty object of path: value")
    return AxisValue(raw["label"], tuple(raw["set"].items()))


def _axis(where: str, name: str, raw) -> Axis:
    if not isinstance(raw, list) or not raw:
        raise SweepError(f"{where}: expected a non-empty list of values")
    values = []
    for i, item in enumerate(raw):
        if isinstance(item, dict):
            values.append(_labelled_value(f"{where}/{i}", item))
        else:
            values.append(AxisValue(value_label(item), ((name, item),)))
    labels = [v.label for v in values]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise SweepError(f"{where}: duplicate values {duplicates}")
    return Axis(name, tuple(values))


def _check_overlap(where: str, axes: list, fixed: dict) -> None:
    seen = {path: "fixed" for path in fixed}
    for axis in axes:
        paths = {path for value in axis.values for path, _ in value.sets}
        for path in sorted(paths):
            if path in seen:
                raise SweepError(f"{where}: path '{path}' set by both {seen[path]} and axis "
                                 f"'{axis.name}'")
            seen[path] = f"axis '{axis.name}'"


def _require(where: str, raw: dict, key: str, kind: type):
    if key not in raw:
        raise SweepError(f"{where}: missing key '{key}'")
    if not isinstance(raw[key], kind):
        raise SweepError(f"{where}/{key}: expected {kind.__name__}")
    return raw[key]


def parse_sweep(raw, where: str = "sweep") -> Sweep:
    if not isinstance(raw, dict):
        raise SweepError(f"{where}: expected a JSON object")
    unknown = sorted(set(raw) - _KEYS)
    if unknown:
        raise SweepError(f"{where}: unknown keys {unknown} (allowed: {sorted(_KEYS)})")
    name = _require(where, raw, "name", str)
    if not _NAME.fullmatch(name):
        raise SweepError(f"{where}/name: {name!r} is not a sweep name (1-100 characters of letters, "
                         "digits and . _ + -, starting with a letter or digit)")
    base = _require(where, raw, "base", str)
    axes_raw = _require(where, raw, "axes", dict)
    fixed = raw.get("fixed", {})
    if not isinstance(fixed, dict):
        raise SweepError(f"{where}/fixed: expected an object of path: value")
    axes = [_axis(f"{where}/axes/{key}", key, value) for key, value in axes_raw.items()]
    _check_overlap(where, axes, fixed)
    out = repo.resolve(raw.get("out", f"results/sweeps/{name}"))
    return Sweep(name, base, axes, fixed, out, description=raw.get("description", ""))


def _read_input(path: Path) -> str:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SweepError(f"{path}: cannot read the file: it is not a regular file")
        if info.st_size > _MAX_FILE_BYTES:
            raise SweepError(f"{path}: the file has {info.st_size} bytes, more than the "
                             f"{_MAX_FILE_BYTES} a sweep file may have")
        with os.fdopen(os.dup(fd), "rb") as stream:
            return stream.read(_MAX_FILE_BYTES + 1).decode()
    finally:
        os.close(fd)


def load_sweep(path: str | Path) -> Sweep:
    path = Path(path)
    try:
        raw = json.loads(_read_input(path))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SweepError(f"{path}: {error}") from error
    sweep = parse_sweep(raw, str(path))
    sweep.source = path
    return sweep
