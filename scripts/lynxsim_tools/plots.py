"""The PNG figures of a sweep (matplotlib, Agg backend; kinds listed in plot_kinds.py).

Every figure has axis labels with units, a legend naming each series (a method plus the values of
the sweep axes the figure does not already use; each method has the same colour and marker in
every figure, a line style per value of the other axes), one panel per value of the panel column
where there is one, and a caption naming what the runs share (model, GPUs, context, link rate,
streaming, serving engine). Context length runs on a base-2 log axis labelled 8K, 32K, ...;
bandwidth on a log axis in Gb/s, ticked at the swept values; a TTFT, exposed-time, accuracy or CDF
axis turns logarithmic when its values span more than 20x.

The accuracy frontier assumes higher is better, except for metrics whose name says error,
divergence or loss (error, kl, mse, loss, perplexity, ppl), where lower is better: the frontier is
the set of points no other point beats on both TTFT and accuracy.
TTFT and speedup figures show both readings, one panel each: the first token (spec, a draft for a
speculative method) and the first verified token (commit).
"""

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import plot_data as pd  # noqa: E402
from .plot_kinds import KINDS  # noqa: E402

_LOWER_IS_BETTER = ("error", "kl", "mse", "loss", "perplexity", "ppl")
_LINESTYLES = ("-", "--", ":", "-.")
# One colour and marker per method in every figure (matplotlib's tab10 and tab20 colours).
_METHOD_STYLES = {
    "bf16": ("#7f7f7f", "o"), "int8": ("#1f77b4", "s"), "int4": ("#ff7f0e", "^"),
    "kivi2": ("#2ca02c", "v"), "kivi4": ("#98df8a", "<"), "cachegen": ("#9467bd", "D"),
    "lynx": ("#d62728", "*"), "lynx-3+5": ("#e377c2", "P"), "lynx-2+6": ("#8c564b", "X"),
    "lynx-2+2+4": ("#bcbd22", "h"), "lynx-qs": ("#17becf", "p"), "lynx-1+1+2+4": ("#aec7e8", "H"),
}
_OTHER_COLOURS = ("#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5", "#ffbb78")
_OTHER_MARKERS = ("o", "s", "^", "D", "v", "<", ">")
_CAPTION = (("run_model", "{}"), ("run_prefill_gpu", "prefill {}"), ("run_decode_gpu", "decode {}"),
            ("context_tokens_mean", "context {}"), ("run_link_rate", "link {}"),
            ("run_streaming", "streaming {}"), ("run_engine", "engine {}"))


def method_style(method: str) -> tuple:
    """(colour, marker) of a method: fixed for the presets, stable by name for the others."""
    if method in _METHOD_STYLES:
        return _METHOD_STYLES[method]
    code = sum(ord(c) * (i + 1) for i, c in enumerate(method))
    return _OTHER_COLOURS[code % len(_OTHER_COLOURS)], _OTHER_MARKERS[code % len(_OTHER_MARKERS)]


def caption(rows: list) -> str:
    """What every row shares (model, GPUs, context, link, streaming, engine); swept ones say so."""
    parts = []
    for column, text in _CAPTION:
        values = {str(r.get(column, "")) for r in rows} - {""}
        if len(values) == 1:
            value = values.pop()
            if column == "context_tokens_mean" and pd.number(value) is not None:
                value = f"{round(pd.number(value)):,} tokens"
            parts.append(text.format(value))
        elif len(values) > 1:
            parts.append(text.format("swept"))
    return ", ".join(parts)


def _tokens_label(value: float, _pos=None) -> str:
    return f"{value / 1024:g}K" if value >= 1024 else f"{value:g}"


def _panels(rows: list, column):
    if column is None:
        return [("", rows)]
    groups = pd.group(rows, lambda r: str(r.get(column, "")))
    ordered = sorted(groups, key=lambda k: (pd.number(k) is None, pd.number(k) or 0.0, k))
    return [(f"{pd.points.short_axis_name(column)} = {k}", groups[k]) for k in ordered]


def _figure(count: int, title: str, rows_for_caption=()):
    cols = 2 if count == 4 else min(count, 3)
    rows = math.ceil(count / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.0 * rows), squeeze=False)
    for extra in axes.flat[count:]:
        extra.set_visible(False)
    text = caption(list(rows_for_caption))
    fig.suptitle(f"{title}\n{text}" if text else title, fontsize="medium")
    return fig, list(axes.flat)


def _styles(rows: list, series_columns: list) -> dict:
    """Series label -> plot style: the method's colour and marker, a line style per other-axis
    combination."""
    others = list(dict.fromkeys(pd.series_key(r, series_columns).partition(", ")[2] for r in rows))
    styles = {}
    for r in rows:
        label = pd.series_key(r, series_columns)
        other = others.index(label.partition(", ")[2])
        colour, marker = method_style(r.get("method", ""))
        styles[label] = {"color": colour, "marker": marker,
                         "linestyle": _LINESTYLES[other % len(_LINESTYLES)]}
    return styles


def _draw_lines(ax, rows: list, x_of, y_column: str, series_columns: list) -> None:
    styles = _styles(rows, series_columns)
    for label, members in pd.group(rows, lambda r: pd.series_key(r, series_columns)).items():
        pairs = sorted((x_of(r), pd.number(r.get(y_column, ""))) for r in members)
        pairs = [(x, y) for x, y in pairs if x is not None and y is not None]
        if pairs:
            ax.plot(*zip(*pairs), label=label, **styles[label])


def _legend(ax) -> None:
    """Inside the panel for a few series, outside to the right for many."""
    count = len(ax.get_legend_handles_labels()[1])
    if count > 8:
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.02, 1.0))
    elif count:
        ax.legend(fontsize="small")


def _auto_log(ax, rows: list, column: str, axis: str = "y") -> None:
    values = [v for v in (pd.number(r.get(column, "")) for r in rows) if v and v > 0]
    if values and max(values) / min(values) > 20:
        (ax.set_xscale if axis == "x" else ax.set_yscale)("log")


def _context_x(rows: list):
    if rows and "context_tokens_mean" in rows[0]:
        return "context_tokens_mean"
    column = pd.find_column(pd.axis_columns(rows), "context")
    if column is None:
        raise ValueError("no context-length column (context_tokens_mean or a context axis)")
    return column


def _versus_context(data: pd.PlotInput, readings: list, title: str):
    """readings: (y column, y label, panel title prefix); one row of panels per reading present."""
    readings = [r for r in readings if any(pd.number(row.get(r[0], "")) is not None for row in data.rows)]
    if not readings:
        raise ValueError(f"no rows with {' or '.join(r[0] for r in readings) or 'the plotted column'}")
    rows = [r for r in data.rows if pd.number(r.get(readings[0][0], "")) is not None]
    axes_cols = pd.axis_columns(rows)
    x_column, panel = _context_x(rows), pd.find_column(axes_cols, "bandwidth")
    series = [c for c in pd.varying(rows, axes_cols) if c != panel and "context" not in c]
    panels = [(reading, name, members) for reading in readings for name, members in _panels(rows, panel)]
    fig, axes = _figure(len(panels), title, rows)
    for ax, ((y_column, y_label, prefix), name, members) in zip(axes, panels):
        _draw_lines(ax, members, lambda r: pd.number(r.get(x_column, "")), y_column, series)
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(_tokens_label))
        _auto_log(ax, members, y_column)
        ax.set(title=", ".join(t for t in (prefix, name) if t), xlabel="context length (tokens)", ylabel=y_label)
        ax.grid(True, alpha=0.3)
    _legend(axes[min(len(panels), 3) - 1])
    return fig


TTFT_READINGS = [("ttft_speculative_s_mean", "mean TTFT (s)", "first token (spec)"),
                 ("ttft_commit_s_mean", "mean TTFT_commit (s)", "first verified token (commit)")]


def ttft_vs_context(data: pd.PlotInput, _options: dict):
    readings = TTFT_READINGS
    if not any(pd.number(r.get(readings[0][0], "")) is not None for r in data.rows):
        readings = [("ttft_s_mean", "mean TTFT (s)", "")]
    return _versus_context(data, readings, "TTFT against context length: speculative and committed")


def exposed_vs_context(data: pd.PlotInput, _options: dict):
    return _versus_context(data, [("exposed_transfer_s_mean", "mean exposed transfer time (s)", "")],
                           "Exposed KV transfer time against context length")


def _bandwidth_axis(ax, rows: list, column: str) -> None:
    ticks = sorted({pd.number(r.get(column, "")) for r in rows} - {None})
    ax.set_xscale("log")
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())


def _bandwidth_series(rows: list):
    """The bandwidth axis column and the other varying axes that tell series apart."""
    axes_cols = pd.axis_columns(rows)
    x_column = pd.find_column(axes_cols, "bandwidth")
    if x_column is None:
        raise ValueError("no bandwidth axis in the sweep")
    return x_column, [c for c in pd.varying(rows, axes_cols) if c != x_column]


def speedup_vs_bandwidth(data: pd.PlotInput, _options: dict):
    x_column, series = _bandwidth_series(data.rows)
    panels = _speedup_panels(data.rows)
    fig, axes = _figure(len(panels), "TTFT speedup against bandwidth: speculative and committed",
                        data.rows)
    for ax, (baseline, column, reading) in zip(axes, panels):
        rows = [r for r in data.rows if r.get("method") != baseline
                and pd.number(r.get(column, "")) is not None]
        _draw_lines(ax, rows, lambda r: pd.number(r.get(x_column, "")), column, series)
        ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
        _bandwidth_axis(ax, rows, x_column)
        ax.set(title=f"{reading} over {baseline}".strip(), xlabel="bandwidth (Gb/s)",
               ylabel=f"TTFT speedup over {baseline} (x)")
        ax.grid(True, alpha=0.3)
        _legend(ax)
    return fig


def ttft_vs_bandwidth(data: pd.PlotInput, _options: dict):
    x_column, series = _bandwidth_series(data.rows)
    readings = [r for r in TTFT_READINGS if any(pd.number(row.get(r[0], "")) is not None
                                                for row in data.rows)]
    if not readings:
        raise ValueError("no TTFT columns in the results")
    fig, axes = _figure(len(readings), "TTFT against bandwidth: speculative and committed", data.rows)
    for ax, (column, label, reading) in zip(axes, readings):
        rows = [r for r in data.rows if pd.number(r.get(column, "")) is not None]
        _draw_lines(ax, rows, lambda r: pd.number(r.get(x_column, "")), column, series)
        _bandwidth_axis(ax, rows, x_column)
        _auto_log(ax, rows, column)
        ax.set(title=reading, xlabel="bandwidth (Gb/s)", ylabel=label)
        ax.grid(True, alpha=0.3)
        _legend(ax)
    return fig


def _speedup_panels(rows: list) -> list:
    """(baseline, column, reading) per panel: both readings when the CSV has them."""
    panels = []
    for baseline in ("int8", "bf16"):
        for reading, metric in (("first token (spec)", "ttft_speculative_s"),
                                ("first verified token (commit)", "ttft_commit_s")):
            column = f"speedup_{metric}_{baseline}"
            if any(pd.number(r.get(column, "")) is not None for r in rows):
                panels.append((baseline, column, reading))
    return panels or [(b, f"speedup_vs_{b}", "") for b in ("int8", "bf16")]


def _metric(rows: list, requested):
    if requested:
        column = requested if requested.startswith("accuracy_") else f"accuracy_{requested}"
        if not rows or column not in rows[0]:
            raise ValueError(f"no accuracy column {column}")
        return column
    found = [c for c in (rows[0] if rows else {}) if c.startswith("accuracy_")]
    if not found:
        raise ValueError("no accuracy columns in the results")
    return found[0]


def _frontier(pairs: list, lower_is_better: bool) -> list:
    best, frontier = None, []
    for x, y in sorted(pairs, key=lambda p: (p[0], -p[1] if not lower_is_better else p[1])):
        if best is None or (y < best if lower_is_better else y > best):
            best = y
            frontier.append((x, y))
    return frontier


def accuracy_vs_ttft(data: pd.PlotInput, options: dict):
    column = _metric(data.rows, options.get("metric"))
    rows = [r for r in data.rows if pd.number(r.get(column, "")) is not None
            and pd.number(r.get("ttft_s_mean", "")) is not None]
    lower = any(word in column for word in _LOWER_IS_BETTER)
    fig, axes = _figure(1, "Accuracy against TTFT", rows)
    ax = axes[0]
    pairs = []
    for method, members in pd.group(rows, lambda r: r.get("method", "")).items():
        xy = [(pd.number(r["ttft_s_mean"]), pd.number(r[column])) for r in members]
        pairs += xy
        colour, marker = method_style(method)
        ax.scatter(*zip(*xy), label=method, color=colour, marker=marker)
    if pairs:
        ax.plot(*zip(*_frontier(pairs, lower)), color="black", linewidth=1, label="frontier")
    _auto_log(ax, rows, "ttft_s_mean", "x")
    _auto_log(ax, rows, column, "y")
    metric = column.removeprefix("accuracy_")
    ax.set(xlabel="mean TTFT (s)", ylabel=f"{metric} ({'lower' if lower else 'higher'} is better)")
    ax.grid(True, alpha=0.3)
    _legend(ax)
    return fig


def ttft_cdf(data: pd.PlotInput, _options: dict):
    rows = [r for r in data.request_rows if pd.number(r.get("ttft_s", "")) is not None]
    if not rows:
        raise ValueError("no per-request rows (requests.csv) to draw a CDF from")
    series = pd.varying(rows, pd.axis_columns(rows))
    fig, axes = _figure(1, "TTFT distribution", data.rows)
    ax = axes[0]
    styles = _styles(rows, series)
    for label, members in pd.group(rows, lambda r: pd.series_key(r, series)).items():
        values = sorted(pd.number(r["ttft_s"]) for r in members)
        fractions = [0.0] + [(i + 1) / len(values) for i in range(len(values))]
        values = values[:1] + values
        style = {k: v for k, v in styles[label].items() if k != "marker"}
        ax.step(values, fractions, where="post", label=label, **style)
    _auto_log(ax, rows, "ttft_s", "x")
    ax.set(xlabel="TTFT (s)", ylabel="fraction of requests", ylim=(0, 1.02))
    ax.grid(True, alpha=0.3)
    _legend(ax)
    return fig


_DRAW = {"ttft-vs-context": ttft_vs_context, "speedup-vs-bandwidth": speedup_vs_bandwidth,
         "ttft-vs-bandwidth": ttft_vs_bandwidth,
         "accuracy-vs-ttft": accuracy_vs_ttft, "ttft-cdf": ttft_cdf,
         "exposed-vs-context": exposed_vs_context}
assert set(_DRAW) == set(KINDS)


def plot(source: Path, kind: str, output: Path | None = None, where=(), metric=None) -> Path:
    """Draws one figure of `kind` from `source`; returns the PNG path written."""
    data = pd.load_input(source)
    data.rows = pd.apply_where(data.rows, list(where))
    data.request_rows = pd.apply_where(data.request_rows, list(where))
    fig = _DRAW[kind](data, {"metric": metric})
    output = Path(output) if output else data.default_folder / "plots" / f"{data.stem}-{kind}.png"
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(output, dpi=130, bbox_inches="tight")
    plt.close(fig)
    return output
