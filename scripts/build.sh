#!/usr/bin/env bash
# Configures and builds crowd into ${CROWD_BUILD_DIR:-build}; extra arguments go to CMake.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${CROWD_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=${CROWD_BUILD_TYPE:-Release} "$@"
cmake --build "$build" --parallel "$(nproc)"
