"""The points of a sweep, their folder names, and shards.

Points are the cartesian product of the axes in file order, the first axis varying slowest, so
point i is the same on every machine. A point's overrides are the sweep's "fixed" overrides
followed by one value of each axis; each becomes one `lynxsim --set path=JSON`.

Folder name: the axis values, each as short=value with short the last non-numeric component of
the axis name ("workload.requests.0.context" -> "context"), sanitized to [A-Za-z0-9.+=_-] and
truncated, then "-" and 10 hex digits of a SHA-256 over the base scenario path (as written in the
sweep file) and the overrides. Editing "fixed" therefore yields new folders rather than silently
reusing stale results; editing the base scenario file does not (delete the folders to rerun).

A point is done when <out>/<name>/summary.json exists; lynxsim writes its folder atomically, so
an interrupted run leaves no half-written point.

Shard i/n (0 <= i < n) holds the points whose index % n == i: n shards partition the points
exactly, and each shard is a fair mix of the axes.
"""

import hashlib
import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from .sweep_file import Sweep

_NAME_LIMIT = 150


@dataclass(frozen=True)
class Point:
    index: int
    name: str
    labels: tuple  # ((axis name, value label), ...)
    sets: tuple  # ((path, value), ...)

    def folder(self, out: Path) -> Path:
        return out / self.name

    def done(self, out: Path) -> bool:
        return (self.folder(out) / "summary.json").is_file()


def short_axis_name(name: str) -> str:
    parts = [p for p in name.split(".") if p and not p.isdigit()]
    return parts[-1] if parts else name


def sanitize(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.+=_-]+", "-", text).strip("-")


def point_hash(base: str, sets: tuple) -> str:
    payload = json.dumps({"base": base, "sets": [list(s) for s in sets]}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:10]


def point_name(labels: tuple, base: str, sets: tuple) -> str:
    readable = "_".join(f"{short_axis_name(axis)}={label}" for axis, label in labels)
    stem = sanitize(readable)[:_NAME_LIMIT] or "point"
    return f"{stem}-{point_hash(base, sets)}"


def expand_points(sweep: Sweep) -> list:
    fixed = tuple(sweep.fixed.items())
    points = []
    for index, combo in enumerate(itertools.product(*(axis.values for axis in sweep.axes))):
        labels = tuple((axis.name, value.label) for axis, value in zip(sweep.axes, combo))
        sets = fixed + tuple(s for value in combo for s in value.sets)
        points.append(Point(index, point_name(labels, sweep.base, sets), labels, sets))
    return points


def parse_shard(text: str) -> tuple:
    match = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not match:
        raise ValueError(f"shard '{text}': expected i/n, e.g. 0/4")
    i, n = int(match.group(1)), int(match.group(2))
    if n < 1 or i >= n:
        raise ValueError(f"shard '{text}': need 0 <= i < n")
    return i, n


def shard_points(points: list, shard: tuple) -> list:
    i, n = shard
    return [p for p in points if p.index % n == i]
