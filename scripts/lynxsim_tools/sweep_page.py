"""<out>/index.html of a collected sweep: its curves and its table, in one file that opens offline.

The page draws, for each swept axis whose values are numbers (or rates, "25Gbps"; plot_data.number),
the mean TTFT_spec and TTFT_commit of every series (a method plus the values of the other varying
axes) against that axis as inline SVG, and lists every point and method with its mean TTFT_spec,
TTFT_commit, TPOT and bytes, linking each point's own results page (lynxsim writes index.html into
every results folder). No scripts, fonts or other files; the same rows give the same bytes. The
charts follow sim/report/svg_chart.cpp: linear axes from 0, ticks at 1, 2 or 5 x 10^k.
"""

import html
import math
import os
from pathlib import Path

from . import plot_data as pd
from . import results

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
_WIDTH, _HEIGHT, _LEFT, _RIGHT, _TOP, _BOTTOM = 760.0, 320.0, 70.0, 230.0, 34.0, 48.0
_COLUMNS = (("ttft_speculative_s_mean", "TTFT_spec mean (ms)", 1e3),
            ("ttft_commit_s_mean", "TTFT_commit mean (ms)", 1e3),
            ("tpot_s_mean", "TPOT mean (ms)", 1e3), ("bytes_total", "bytes", 1.0))
_STYLE = ("body{font-family:sans-serif;margin:24px auto;max-width:1100px;color:#222}"
          "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px}"
          "td{text-align:right}th,td.text{text-align:left}svg{display:block;margin:8px 0}")


def nice_ticks(high: float) -> list:
    high = high if high > 0 else 1.0
    raw = high / 5.0
    magnitude = 10.0 ** math.floor(math.log10(raw))
    fraction = raw / magnitude
    step = magnitude * (1 if fraction < 1.5 else 2 if fraction < 3.5 else 5 if fraction < 7.5 else 10)
    ticks = [0.0]
    while ticks[-1] < high - 1e-9 * step:
        ticks.append(len(ticks) * step)
    return ticks if len(ticks) > 1 else [0.0, step]


def _axes(x_ticks: list, y_ticks: list, x_label: str, y_label: str):
    def px(v):
        return _LEFT + v / x_ticks[-1] * (_WIDTH - _LEFT - _RIGHT)

    def py(v):
        return _HEIGHT - _BOTTOM - v / y_ticks[-1] * (_HEIGHT - _TOP - _BOTTOM)

    parts = [f'<line x1="{_LEFT:.1f}" y1="{py(0):.1f}" x2="{px(x_ticks[-1]):.1f}" y2="{py(0):.1f}" stroke="#000"/>',
             f'<line x1="{_LEFT:.1f}" y1="{py(0):.1f}" x2="{_LEFT:.1f}" y2="{_TOP:.1f}" stroke="#000"/>']
    parts += [f'<text x="{px(t):.1f}" y="{py(0) + 16:.1f}" text-anchor="middle">{t:g}</text>' for t in x_ticks]
    parts += [f'<line x1="{_LEFT:.1f}" y1="{py(t):.1f}" x2="{px(x_ticks[-1]):.1f}" y2="{py(t):.1f}" stroke="#ddd"/>'
              f'<text x="{_LEFT - 6:.1f}" y="{py(t) + 4:.1f}" text-anchor="end">{t:g}</text>' for t in y_ticks]
    parts.append(f'<text x="{(_LEFT + px(x_ticks[-1])) / 2:.1f}" y="{_HEIGHT - 10:.1f}" '
                 f'text-anchor="middle">{html.escape(x_label)}</text>')
    parts.append(f'<text transform="translate(16 {(_TOP + py(0)) / 2:.1f}) rotate(-90)" '
                 f'text-anchor="middle">{html.escape(y_label)}</text>')
    return parts, px, py


def line_chart(title: str, x_label: str, y_label: str, series: dict) -> str:
    """An SVG chart of {label: [(x, y), ...]} (points drawn in x order)."""
    xs = [x for points in series.values() for x, _ in points]
    ys = [y for points in series.values() for _, y in points]
    parts, px, py = _axes(nice_ticks(max(xs, default=0.0)), nice_ticks(max(ys, default=0.0)), x_label, y_label)
    for i, (label, points) in enumerate(series.items()):
        colour = _COLOURS[i % len(_COLOURS)]
        coords = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in sorted(points))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.8" points="{coords}"/>')
        parts += [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>' for x, y in points]
        y = _TOP + 8 + 18 * i
        parts.append(f'<rect x="{_WIDTH - _RIGHT + 14:.1f}" y="{y - 10:.1f}" width="12" height="12" '
                     f'fill="{colour}"/><text x="{_WIDTH - _RIGHT + 32:.1f}" y="{y:.1f}">{html.escape(label)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH:.0f}" height="{_HEIGHT:.0f}" '
            f'font-family="sans-serif" font-size="12" role="img"><title>{html.escape(title)}</title>'
            f'<text x="{_LEFT:.1f}" y="20" font-size="14" font-weight="bold">{html.escape(title)}</text>\n'
            + "\n".join(parts) + "\n</svg>\n")


def _curves(rows: list) -> list:
    axes = pd.varying(rows, pd.axis_columns(rows))
    charts = []
    for axis in axes:
        if any(pd.number(r.get(axis)) is None for r in rows):
            continue
        others = [a for a in axes if a != axis]
        rate = any(str(r.get(axis, "")).strip().endswith("bps") for r in rows)
        x_label = f"{axis} (Gb/s)" if rate else axis
        for column, label, scale in _COLUMNS[:2]:
            series = {}
            for row in rows:
                y = pd.number(row.get(column))
                if y is not None:
                    series.setdefault(pd.series_key(row, others), []).append((pd.number(row[axis]), y * scale))
            if series:
                charts.append(line_chart(f"{label} vs {axis}", x_label, label, series))
    return charts


def _table(rows: list, out: Path) -> str:
    axes = pd.axis_columns(rows)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in ["point", *axes, "method", *(c[1] for c in _COLUMNS)])
    lines = [f"<table>\n<tr>{head}</tr>"]
    for row in rows:
        page = out / str(row["point"]) / "index.html"
        point = html.escape(str(row["point"]))
        link = f'<a href="{html.escape(os.path.relpath(page, out))}">{point}</a>' if page.is_file() else point
        cells = [f'<td class="text">{link}</td>']
        cells += [f'<td class="text">{html.escape(str(row.get(a, "")))}</td>' for a in [*axes, "method"]]
        for column, _, scale in _COLUMNS:
            value = pd.number(row.get(column))
            cells.append("<td>-</td>" if value is None else f"<td>{value * scale:.6g}</td>")
        lines.append(f"<tr>{''.join(cells)}</tr>")
    return "\n".join(lines) + "\n</table>\n"


def write_sweep_page(sweep_name: str, rows: list, out: Path) -> Path:
    """Writes <out>/index.html for the collected rows of the sweep (atomically) and returns it."""
    charts = _curves(rows) or ["<p>No swept axis has numeric values to draw against.</p>\n"]
    text = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            f"style-src 'unsafe-inline'\">\n<title>sweep {html.escape(sweep_name)}</title>\n"
            f"<style>{_STYLE}</style>\n</head>\n<body>\n<h1>Sweep {html.escape(sweep_name)}</h1>\n"
            f'<p>{len(rows)} rows; the collected data: <a href="summary.csv">summary.csv</a>.</p>\n'
            + "".join(charts) + "<h2>Points</h2>\n" + _table(rows, out) + "</body>\n</html>\n")
    page = out / "index.html"
    results.write_text_atomic(page, text)
    return page
