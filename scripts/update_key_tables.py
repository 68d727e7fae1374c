#!/usr/bin/python3
"""Rewrites the key tables of docs/scenario.md, docs/models.md and docs/search.md from the field tables.

Each table follows a `<!-- keys: ID -->` line and ends at the next blank line; its new text is
what `lynxsim keys ID` prints. The test suite fails while a table differs from its field table.

    scripts/update_key_tables.py [path/to/lynxsim]   (default: build/lynxsim)
"""
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lynxsim_tools import venv  # noqa: E402

if __name__ == "__main__":
    venv.ensure(__file__)

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- keys: "


def rendered(lynxsim, table):
    out = subprocess.run([lynxsim, "keys", table], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()[1:]


DOCS = ("scenario.md", "models.md", "search.md")


def rewrite(lynxsim, docs):
    lines, out, skipping = docs.read_text().splitlines(), [], False
    for line in lines:
        if skipping and line:
            continue
        skipping = False
        out.append(line)
        if line.startswith(MARKER):
            out.extend(rendered(lynxsim, line[len(MARKER):-len(" -->")]))
            skipping = True
    docs.write_text("\n".join(out) + "\n")


def main():
    lynxsim = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "lynxsim")
    for name in DOCS:
        rewrite(lynxsim, ROOT / "docs" / name)


if __name__ == "__main__":
    main()
