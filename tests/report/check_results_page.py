"""Opens a run's results page in headless Chromium and checks what a reader sees.

usage: check_results_page.py LYNXSIM SCENARIO OUT_DIR

Runs SCENARIO with --trace into OUT_DIR/run, then loads OUT_DIR/run/index.html in Debian's chromium
(headless, a fresh profile, --dump-dom) and checks: the page renders with no console message (an
error, or a blocked load: the page's Content-Security-Policy allows nothing outside the file);
every number tagged with data-key/data-value equals summary.json's number at that JSON pointer,
and its shown text is that number rounded as data-unit says; each method's requests, TTFT_spec,
TTFT_commit, TPOT and bytes (total and per plane) are among them; the CLI's run table, the charts
(inline SVG) and the link to trace.json are present. Saves a screenshot, OUT_DIR/index.png.
Exits 77 (skipped) when chromium is not installed (scripts/setup.sh installs it).
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

BYTE_UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}


def fail(message: str) -> None:
    print(f"check_results_page: {message}", file=sys.stderr)
    sys.exit(1)


class Tagged(HTMLParser):
    """Collects the tagged cells (key, value, unit, text), the <pre> texts and the SVG and links."""

    def __init__(self):
        super().__init__()
        self.cells, self.pres, self.hrefs, self.svgs = [], [], [], 0
        self._open = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-key" in attrs:
            self._open = [attrs["data-key"], attrs["data-value"], attrs.get("data-unit"), ""]
        elif tag == "pre":
            self._open = ["pre", None, None, ""]
        self.svgs += tag == "svg"
        if tag == "a":
            self.hrefs.append(attrs.get("href"))

    def handle_data(self, data):
        if self._open is not None:
            self._open[3] += data

    def handle_endtag(self, tag):
        if self._open is None or tag not in ("td", "pre"):
            return
        if self._open[0] == "pre":
            self.pres.append(self._open[3])
        else:
            self.cells.append(tuple(self._open))
        self._open = None


def pointer_get(document, pointer: str):
    node = document
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def shown_matches(value, unit: str, text: str) -> bool:
    if value is None:
        return text == "-"
    if unit == "count":
        return int(text) == value
    if unit == "ms":
        return abs(float(text) - value * 1e3) <= 5e-4 + 1e-9 * abs(value * 1e3)
    if unit == "%":
        return text.endswith("%") and abs(float(text[:-1]) - value * 100) <= 0.05 + 1e-9
    match = re.fullmatch(r"([0-9.]+)([KMGT]iB|B)", text)
    scale = BYTE_UNITS[match.group(2)] if match else math.nan
    return match is not None and abs(float(match.group(1)) * scale - value) <= 0.005 * scale + 1e-9


def chromium(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def check_numbers(page: Tagged, summary: dict) -> None:
    keys = set()
    for key, value, unit, text in page.cells:
        expected = pointer_get(summary, key)
        if json.loads(value) != expected:
            fail(f"{key}: the page says {value}, summary.json {expected}")
        if not shown_matches(expected, unit, text.strip()):
            fail(f"{key}: shown as {text!r}, which is not {expected} in {unit}")
        keys.add(key)
    for name in summary["method_order"]:
        method = summary["methods"][name]
        wanted = [f"/methods/{name}/{k}" for k in ("requests", "ttft_speculative_s/mean",
                  "ttft_commit_s/p99", "tpot_s/mean", "bytes_total")]
        wanted += [f"/methods/{name}/bytes_per_plane/{p}" for p in range(len(method["bytes_per_plane"]))]
        missing = [k for k in wanted if k not in keys]
        if missing:
            fail(f"the page does not show {', '.join(missing)}")


def main() -> None:
    if len(sys.argv) != 4:
        fail(__doc__)
    lynxsim, scenario, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    binary = os.environ.get("LYNXSIM_CHROMIUM") or shutil.which("chromium")
    if not binary:
        print("check_results_page: chromium is not installed (Debian's chromium, installed by "
              "scripts/setup.sh); skipped")
        sys.exit(77)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    run = subprocess.run([lynxsim, "--scenario", scenario, "--out", str(out / "run"), "--trace"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"lynxsim failed ({run.returncode}): {run.stderr}")
    url = (out / "run" / "index.html").resolve().as_uri()
    dom = chromium(binary, out / "profile", "--dump-dom", url)
    console = [line for line in dom.stderr.splitlines() if ":CONSOLE" in line]
    if dom.returncode != 0 or console or "</html>" not in dom.stdout:
        fail(f"chromium exited {dom.returncode}; console: {console}")
    page = Tagged()
    page.feed(dom.stdout)
    check_numbers(page, json.loads((out / "run" / "summary.json").read_text()))
    if not page.pres or page.pres[0].strip() not in run.stdout:
        fail("the page's run table is not the table the CLI printed")
    if page.svgs < 4 or "trace.json" not in page.hrefs:
        fail(f"{page.svgs} charts and links {page.hrefs}: expected the charts and trace.json")
    shot = chromium(binary, out / "profile", "--hide-scrollbars", "--window-size=1200,5000",
                    f"--screenshot={out / 'index.png'}", url)
    if shot.returncode != 0 or not (out / "index.png").is_file():
        fail(f"no screenshot: {shot.stderr[-2000:]}")
    shutil.rmtree(out / "profile", ignore_errors=True)
    print(f"check_results_page: {len(page.cells)} numbers equal summary.json's; screenshot "
          f"{out / 'index.png'}")


if __name__ == "__main__":
    main()
