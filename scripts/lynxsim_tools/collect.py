"""Merging the results of a sweep into two CSV files in its output folder.

    <out>/summary.csv   one row per point and method: sweep, point, index, one column per axis
                        (the value's label), method, then the flattened summary (results.py)
    <out>/requests.csv  one row per point, method and request: the same point columns, then the
                        columns of the point's requests.csv

Points without results (not run yet, failed, or run by another shard whose folder has not been
copied here) are left out and listed, so a partial collect is possible and says what it lacks.
"""

from dataclasses import dataclass
from pathlib import Path

from . import results
from .points import Point


@dataclass
class Collected:
    rows: list
    request_rows: list
    missing: list  # Points without summary.json


def point_prefix(sweep_name: str, point: Point) -> dict:
    prefix = {"sweep": sweep_name, "point": point.name, "index": point.index}
    prefix.update(dict(point.labels))
    return prefix


def collect_points(sweep_name: str, points: list, out: Path) -> Collected:
    collected = Collected([], [], [])
    for point in points:
        if not point.done(out):
            collected.missing.append(point)
            continue
        prefix = point_prefix(sweep_name, point)
        collected.rows += results.run_rows(point.folder(out), prefix)
        collected.request_rows += results.request_rows(point.folder(out), prefix)
    return collected


def write_collected(collected: Collected, summary_csv: Path, requests_csv: Path | None) -> None:
    results.write_csv(collected.rows, summary_csv)
    if requests_csv is not None and collected.request_rows:
        results.write_csv(collected.request_rows, requests_csv)
