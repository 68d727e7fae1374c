"""Where the repository and the lynxsim binary are.

The scripts live in <root>/scripts, so the repository root is two levels above this package. The
default binary is <root>/build/lynxsim, the folder scripts/build.sh builds into; every script takes
--lynxsim to use another one.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def default_lynxsim() -> Path:
    return ROOT / "build" / "lynxsim"


def resolve(path: str | os.PathLike, base: Path = ROOT) -> Path:
    """An absolute path as given, a relative one against base (the repository root by default)."""
    candidate = Path(path).expanduser()
    return candidate if candidate.is_absolute() else base / candidate


def check_lynxsim(path: Path) -> Path:
    if not path.is_file() or not os.access(path, os.X_OK):
        raise FileNotFoundError(
            f"lynxsim binary not found at {path}: build it (scripts/build.sh) or pass --lynxsim PATH")
    return path
