#!/usr/bin/env bash
# Installs the Debian packages lynxsim needs, if any is missing. Needs root (or sudo) only when
# something has to be installed. clang and its runtimes (libclang-rt-dev: libFuzzer, sanitizers)
# build the scenario-loader fuzz target of the test suite (scripts/fuzz.sh).
set -euo pipefail

packages=(
  g++ cmake make pkg-config clang libclang-rt-dev
  libboost-dev libfmt-dev nlohmann-json3-dev libcli11-dev libeigen3-dev doctest-dev libsimgrid-dev
  python3 python3-pip python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "lynxsim setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
