#!/usr/bin/env bash
# Makes .venv/ at the repository root, the Python environment of every tool in scripts/ and of the
# Python tests: Debian's /usr/bin/python3 with --system-site-packages (so Debian's matplotlib is
# importable) plus the pinned packages of scripts/requirements.txt from PyPI (pandas pinned to a
# release that works with Debian's numpy, which Debian's matplotlib is built against), and the
# Python module lynxsim once CMake has built it (a .pth file naming build/python). The environment
# records the hash of the requirements it was made with; when that matches, nothing is done, and a
# changed requirements.txt installs again into the same environment.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=$root/.venv
requirements=$root/scripts/requirements.txt
stamp=$venv/lynxsim-requirements.sha256
wanted=$(sha256sum <"$requirements" | cut -d' ' -f1)

if [[ -x $venv/bin/python3 && -f $stamp && $(cat "$stamp") == "$wanted" ]]; then
  exit 0
fi
if [[ ! -x $venv/bin/python3 ]]; then
  echo "lynxsim setup: creating $venv"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
echo "lynxsim setup: installing scripts/requirements.txt into $venv"
"$venv/bin/python3" -m pip install --quiet --disable-pip-version-check -r "$requirements"
# The Python module lynxsim that CMake builds into build/python (python/CMakeLists.txt) is
# importable here once built; `pip install .` installs one that takes precedence.
site=$("$venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$root/build/python" >"$site/lynxsim-build.pth"
echo "$wanted" >"$stamp"
