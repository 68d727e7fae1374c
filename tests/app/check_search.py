#!/usr/bin/python3
"""`lynxsim search` on a small search file: the table does not depend on --jobs, a second run resumes
from the journal and writes the same table, and the folder holds the table, the plot and the journal.

    check_search.py LYNXSIM SOURCE_DIR WORKDIR
"""
import subprocess
import sys
from pathlib import Path

from workdir import fresh


def search(lynxsim, search_file, out, jobs):
    run = subprocess.run([lynxsim, "search", str(search_file), "--out", str(out), "--jobs", str(jobs)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"search --jobs {jobs} exited {run.returncode}: {run.stderr}")
    return run


def main():
    lynxsim, source, work = sys.argv[1], Path(sys.argv[2]), fresh(sys.argv[3])
    search_file = source / "tests" / "app" / "search" / "ok.json"
    one, two = work / "search-jobs1", work / "search-jobs2"
    first = search(lynxsim, search_file, one, 1)
    search(lynxsim, search_file, two, 2)
    table = (one / "search.csv").read_text()
    if table != (two / "search.csv").read_text():
        sys.exit("search.csv differs between --jobs 1 and --jobs 2")
    if "Pareto front" not in first.stdout or "cheapest overall" not in first.stdout:
        sys.exit(f"no front printed:\n{first.stdout}")
    again = search(lynxsim, search_file, one, 2)
    if "resuming, 4 configurations already done" not in again.stderr:
        sys.exit(f"the second run did not resume:\n{again.stderr}")
    if (one / "search.csv").read_text() != table:
        sys.exit("the resumed search wrote another table")
    rows = table.splitlines()[1:]
    if len(rows) != 4 or any(",found," not in r for r in rows):
        sys.exit(f"expected 4 found configurations:\n{table}")
    svg = (one / "search.svg").read_text()
    if not svg.startswith("<svg") or svg.count("<circle") < 4:
        sys.exit("search.svg lacks the points")
    print("search: same table with 1 and 2 jobs, resumed from its journal")


if __name__ == "__main__":
    main()
