"""Tables of results: pandas DataFrames where pandas is importable, lists of dicts otherwise.

requests_table reads requests.csv's text (every column as the file has it; numbers as int or
float, an empty cell as None in a list, NaN in a DataFrame). method_table gives one row per method
of a summary.json document, in its method order, nested objects flattened with "_"
(ttft_s: {"mean": m} -> ttft_s_mean); lists stay lists.
"""

import csv
import io

try:
    import pandas
except ImportError:
    pandas = None

_TEXT_COLUMNS = frozenset({"method", "cause"})


def _number(text: str):
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


def _typed(row: dict) -> dict:
    return {k: (v if k in _TEXT_COLUMNS else _number(v)) for k, v in row.items()}


def requests_table(csv_text: str):
    if pandas is not None:
        return pandas.read_csv(io.StringIO(csv_text), keep_default_na=False, na_values=[""])
    return [_typed(row) for row in csv.DictReader(io.StringIO(csv_text))]


def flatten(value: dict, prefix: str = "") -> dict:
    flat = {}
    for key, item in value.items():
        name = f"{prefix}{key}"
        if isinstance(item, dict):
            flat.update(flatten(item, f"{name}_"))
        else:
            flat[name] = item
    return flat


def rows_table(rows: list):
    flat = [flatten(row) for row in rows]
    return pandas.DataFrame(flat) if pandas is not None else flat


def method_table(summary: dict):
    order = summary.get("method_order") or sorted(summary["methods"])
    return rows_table([{"method": name, **summary["methods"][name]} for name in order])
