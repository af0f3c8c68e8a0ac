#!/usr/bin/env bash
# Quick start, part 1: build, then run crowdsim's default: the showcase scenario in a window
# where there is a display, else drawn into crowd-picture/frame-00000.png. Extra arguments go
# to `crowdsim`, e.g. `run builtin random --agents 100000`.
set -euo pipefail
cd "$(dirname "$0")/.."
# The same compile flags as scripts/test.sh (warnings as errors), so that the test command after
# this one builds only the tests and benchmarks, not everything again.
bash scripts/build.sh -DCROWD_WERROR=ON -DCROWD_TESTS=OFF -DCROWD_BENCHMARKS=OFF
exec "${CROWD_BUILD_DIR:-build}/host/crowdsim" "$@"
