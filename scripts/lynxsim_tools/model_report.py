"""The model-class section of results/paper/README.md, from the collected CSV of
sweeps/ttft-vs-bandwidth-models.json (results/paper/models.csv).

One row per (model, bandwidth): the KV bytes of the 32K-token request that int8 and Lynx send,
the mean TTFT of bf16, int8 and Lynx in both readings (spec: the first token made; commit: the
first token verified against the full KV) and Lynx's speedup over int8 in each:

    spec speedup = TTFT(int8) / TTFT_spec(lynx)      commit speedup = TTFT(int8) / TTFT_commit(lynx)

Every number comes from the CSV, so rerunning the sweep rewrites the section.
"""

from . import results

LYNX = "lynx"
METHODS = ("bf16", "int8", LYNX)


def _float(row: dict, column: str):
    value = row.get(column, "")
    return float(value) if value not in ("", None) else None


def _spec(row: dict):
    value = _float(row, "ttft_speculative_s_mean")
    return value if value is not None else _float(row, "ttft_s_mean")


def _bandwidth_order(bandwidth: str) -> float:
    return float(bandwidth.rstrip("Gbps")) if bandwidth.endswith("Gbps") else float("inf")


def _points(rows: list) -> dict:
    points = {}
    for row in rows:
        points.setdefault((row["model"], row["network.bandwidth"]), {})[row["method"]] = row
    return points


def model_rows(rows: list) -> list:
    """The section's Markdown lines; ResultsError when no point has bf16, int8 and lynx."""
    lines = ["| model | bandwidth | KV sent, int8 / lynx (GiB) | TTFT bf16 | int8 | lynx spec | lynx commit | "
             "lynx / int8 speedup, spec | commit |", "|---|---|---|---|---|---|---|---|---|"]
    points = _points(rows)
    order = sorted(points, key=lambda k: (k[0], _bandwidth_order(k[1])))
    for model, bandwidth in order:
        methods = points[(model, bandwidth)]
        if not all(m in methods for m in METHODS):
            continue
        bf16, int8, lynx = (methods[m] for m in METHODS)
        lynx_spec, lynx_commit = _spec(lynx), _float(lynx, "ttft_commit_s_mean")
        int8_ttft = _float(int8, "ttft_commit_s_mean")
        sent = [_float(methods[m], "bytes_total") / 2**30 for m in ("int8", LYNX)]
        lines.append(f"| {model} | {bandwidth} | {sent[0]:.2f} / {sent[1]:.2f} | {_spec(bf16):.3f} s | "
                     f"{int8_ttft:.3f} s | {lynx_spec:.3f} s | {lynx_commit:.3f} s | "
                     f"{int8_ttft / lynx_spec:.2f}x | {int8_ttft / lynx_commit:.2f}x |")
    if len(lines) == 2:
        raise results.ResultsError("the model sweep's CSV holds no point with bf16, int8 and lynx")
    return lines


TEMPLATE = """## Model classes at 32K tokens

From `sweeps/ttft-vs-bandwidth-models.json` (`models.csv`): one 32K-token prompt on an idle pair of
H100 groups (each model at its smallest fitting TP; DeepSeek-V3 with expert parallelism and
data-parallel attention, docs/models.md), KV streamed layer by layer. The KV a model sends differs
by its attention (MLA latent, sliding window, linear-attention state), and so does how much of the
transfer is exposed and what Lynx's anchor saves.
"""


def section(rows: list) -> list:
    return [TEMPLATE, *model_rows(rows), ""]
