"""The key ratios of a run, and their comparison with committed expectations.

For every Lynx method M of a run (family "lynx", or a name starting with "lynx" when the summary
carries no family) and each baseline B present in the same run, from mean TTFTs and the accuracy
map of summary.json, for both readings R of TTFT, "spec" (ttft_speculative_s: the first token,
a draft for M; the paper's reading) and "commit" (ttft_commit_s: the first verified token, what a
client that sees only verified tokens gets):

    M_R_speedup_vs_int8 = TTFT_R(int8) / TTFT_R(M)   (> 1: M is faster; the paper's 1.43x is spec)
    M_R_speedup_vs_bf16 = TTFT_R(bf16) / TTFT_R(M)
    M_R_ttft_over_int4  = TTFT_R(M) / TTFT_R(int4)   (the paper: "close to 4-bit", so near 1)
    M_minus_B_<metric>  = accuracy[metric](M) - accuracy[metric](B), B in bf16, int8, int4

A summary without ttft_speculative_s (written before it existed) reads ttft_s for spec.

expected.json maps scenario -> ratio -> {"value": v, "tolerance": t}; a ratio passes when
|actual - v| <= t. Tolerances are absolute and chosen per ratio; an update keeps the tolerance
already committed and gives a new ratio the default: 2% of its value for TTFT ratios, and
max(2% of |v|, 0.01) for accuracy deltas, whose value may be zero.

Statuses: ok; MOVED (beyond tolerance), MISSING (expected but not produced any more) and
UNEXPECTED (a scenario without expectations) fail; NEW (a ratio produced but not yet expected)
is reported and does not fail until the next --update records it.
"""

import json
from dataclasses import dataclass
from pathlib import Path

_RELATIVE_TOLERANCE = 0.02
_DELTA_FLOOR = 0.01
_ACCURACY_BASELINES = ("bf16", "int8", "int4")
FAILING = {"MOVED", "MISSING", "UNEXPECTED"}


READINGS = (("spec", "ttft_speculative_s"), ("commit", "ttft_commit_s"))


def _mean_ttft(methods: dict, name: str, metric: str = "ttft_s"):
    method = methods.get(name, {})
    if metric not in method and metric == "ttft_speculative_s":
        metric = "ttft_s"
    value = method.get(metric, {}).get("mean")
    return value if isinstance(value, (int, float)) and value > 0 else None


def lynx_methods(summary: dict) -> list:
    methods = summary["methods"]
    return sorted(name for name, m in methods.items()
                  if (m["family"] == "lynx" if "family" in m else name.startswith("lynx")))


def _accuracy_deltas(methods: dict, subject: str) -> dict:
    deltas = {}
    mine = methods[subject].get("accuracy") or {}
    for baseline in _ACCURACY_BASELINES:
        theirs = (methods.get(baseline) or {}).get("accuracy") or {}
        for metric, value in sorted(mine.items()):
            other = theirs.get(metric)
            if isinstance(value, (int, float)) and isinstance(other, (int, float)):
                deltas[f"{subject}_minus_{baseline}_{metric}"] = value - other
    return deltas


def ratios(summary: dict) -> dict:
    methods = summary["methods"]
    out = {}
    for subject in lynx_methods(summary):
        for reading, metric in READINGS:
            out.update(_ttft_ratios(methods, subject, reading, metric))
        out.update(_accuracy_deltas(methods, subject))
    return out


def _ttft_ratios(methods: dict, subject: str, reading: str, metric: str) -> dict:
    ttft = _mean_ttft(methods, subject, metric)
    if ttft is None:
        return {}
    out = {}
    for baseline in ("int8", "bf16"):
        theirs = _mean_ttft(methods, baseline, metric)
        if theirs is not None:
            out[f"{subject}_{reading}_speedup_vs_{baseline}"] = theirs / ttft
    int4 = _mean_ttft(methods, "int4", metric)
    if int4 is not None:
        out[f"{subject}_{reading}_ttft_over_int4"] = ttft / int4
    return out


def default_tolerance(name: str, value: float) -> float:
    if "_minus_" in name:
        return round(max(_RELATIVE_TOLERANCE * abs(value), _DELTA_FLOOR), 6)
    return round(max(_RELATIVE_TOLERANCE * abs(value), 1e-6), 6)


@dataclass
class Row:
    scenario: str
    ratio: str
    expected: float | None
    actual: float | None
    tolerance: float | None
    status: str

    @property
    def delta(self):
        if self.expected is None or self.actual is None:
            return None
        return self.actual - self.expected


def _compare_scenario(scenario: str, expected: dict, actual: dict) -> list:
    rows = []
    for name in sorted(set(expected) | set(actual)):
        want, got = expected.get(name), actual.get(name)
        if want is None:
            rows.append(Row(scenario, name, None, got, None, "NEW"))
        elif got is None:
            rows.append(Row(scenario, name, want["value"], None, want["tolerance"], "MISSING"))
        else:
            ok = abs(got - want["value"]) <= want["tolerance"]
            rows.append(Row(scenario, name, want["value"], got, want["tolerance"],
                            "ok" if ok else "MOVED"))
    return rows


def compare(expected: dict, actual: dict) -> list:
    """expected: scenario -> ratio -> {value, tolerance}; actual: scenario -> ratio -> value."""
    rows = []
    for scenario in sorted(set(expected) | set(actual)):
        if scenario not in expected:
            rows += [Row(scenario, n, None, v, None, "UNEXPECTED")
                     for n, v in sorted(actual[scenario].items())]
        elif scenario not in actual:
            rows += [Row(scenario, n, w["value"], None, w["tolerance"], "MISSING")
                     for n, w in sorted(expected[scenario].items())]
        else:
            rows += _compare_scenario(scenario, expected[scenario], actual[scenario])
    return rows


def updated(expected: dict, actual: dict) -> dict:
    """New expectations: actual values, keeping each committed tolerance."""
    result = {}
    for scenario, values in sorted(actual.items()):
        old = expected.get(scenario, {})
        result[scenario] = {
            name: {"value": float(f"{value:.9g}"),
                   "tolerance": old.get(name, {}).get("tolerance",
                                                      default_tolerance(name, value))}
            for name, value in sorted(values.items())}
    return result


def load_expected(path: Path) -> dict:
    return json.loads(Path(path).read_text())


def save_expected(path: Path, expected: dict) -> None:
    Path(path).write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n")


def _fmt(value, spec: str = ".6g") -> str:
    return "-" if value is None else format(value, spec)


def format_table(rows: list, only_failing: bool = False) -> str:
    shown = [r for r in rows if r.status != "ok"] if only_failing else rows
    header = ("scenario", "ratio", "expected", "actual", "delta", "tolerance", "status")
    cells = [header] + [(r.scenario, r.ratio, _fmt(r.expected), _fmt(r.actual), _fmt(r.delta, "+.3g"),
                         _fmt(r.tolerance), r.status) for r in shown]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    lines = ["  ".join(c[i].ljust(widths[i]) for i in range(len(header))).rstrip()
             for c in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
