"""Runs every script in the project's Python environment, <root>/.venv (scripts/setup_venv.sh).

The scripts keep Debian's interpreter in their shebang (it has matplotlib) and call ensure() before
importing anything outside the standard library. When the running interpreter is not the
environment's, ensure() replaces the process with .venv/bin/python3 running the same script with
the same arguments (os.execv: same process id, so signals and the exit status pass unchanged).
Without the environment it says how to make it and exits with status 2.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
VENV = ROOT / ".venv"


def in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def ensure(script: str) -> None:
    if in_venv():
        return
    python = VENV / "bin" / "python3"
    if not python.is_file():
        print(f"{Path(script).name}: the project's Python environment {VENV} is missing; "
              "make it with scripts/setup.sh (or scripts/setup_venv.sh)", file=sys.stderr)
        sys.exit(2)
    sys.stdout.flush()
    os.execv(python, [str(python), str(Path(script).resolve()), *sys.argv[1:]])
