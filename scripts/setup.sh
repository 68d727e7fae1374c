#!/usr/bin/env bash
# Installs the Debian packages lynxsim needs, if any is missing, then makes the project's Python
# environment: .venv/ at the repository root (git-ignored), built on Debian's python3 with its
# system packages visible (matplotlib comes from Debian) and the pinned packages of
# scripts/requirements.txt from PyPI. Needs root (or sudo) only when a Debian package has to be
# installed; a second run with nothing missing and requirements.txt unchanged does nothing.
# `--program-only` (the quick start) installs only what building lynxsim needs (no doctest: the
# quick start configures without the tests) and skips the Python environment. clang and its
# runtimes (libclang-rt-dev: libFuzzer, sanitizers) build the scenario-loader fuzz target of the
# test suite (scripts/fuzz.sh); SimGrid is the flow solver's cross-check, ns-3 (libns3-dev) the
# packet-level one (tools/ns3_crosscheck); Python runs the tools and their tests; chromium
# (headless) opens a run's index.html in the results-page test; pybind11-dev with python3-dev builds
# the Python module lynxsim (python/).
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  libboost-dev libfmt-dev nlohmann-json3-dev libcli11-dev libeigen3-dev libpcre2-dev
)
if [[ "${1:-}" != "--program-only" ]]; then
  packages+=(doctest-dev clang libclang-rt-dev libsimgrid-dev libns3-dev python3 python3-pip
    python3-venv python3-matplotlib chromium python3-dev pybind11-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} > 0)); then
  echo "lynxsim setup: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then
    sudo_cmd=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The quick start runs the program only and skips the Python environment (scripts/setup_venv.sh).
if [[ "${1:-}" != "--program-only" ]]; then
  "$(dirname "$0")/setup_venv.sh"
fi
