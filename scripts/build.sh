#!/usr/bin/env bash
# Configures and builds lynxsim into build/ (or $LYNXSIM_BUILD_DIR). Extra arguments go to CMake's
# configure step, e.g. ./scripts/build.sh -DLYNXSIM_SANITIZE=ON. With LYNXSIM_BUILD_TARGET set
# (e.g. lynxsim) only that target and what it needs are built; otherwise everything.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/phase_timer.sh"
build_dir=${LYNXSIM_BUILD_DIR:-$root/build}
phase configure cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" "$@" >/dev/null
phase compile cmake --build "$build_dir" -j "$(nproc)" ${LYNXSIM_BUILD_TARGET:+--target "$LYNXSIM_BUILD_TARGET"}
