#!/usr/bin/env bash
# Quick start, part 2: build with warnings as errors, then run every test with ctest.
# CROWD_SANITIZE=address,undefined builds and tests under the sanitizers instead.
set -euo pipefail
cd "$(dirname "$0")/.."
# The library and crowdsim are compiled as scripts/run-default.sh compiles them: after it, only
# the tests and benchmarks are new.
args=(-DCROWD_WERROR=ON -DCROWD_TESTS=ON -DCROWD_BENCHMARKS=ON)
if [ -n "${CROWD_SANITIZE:-}" ]; then
  export CROWD_BUILD_DIR=${CROWD_BUILD_DIR:-build-sanitize}
  export CROWD_BUILD_TYPE=RelWithDebInfo
  # -O1 with line tables compiles in half the time of -O2 -g under the sanitizers (28 s against
  # 61 s for commands/run.cpp) and still names the line of a report. No CUDA: the sanitizers see
  # only host code, and this build is then the one without nvcc that must also pass. No MPI
  # either: it is the build where `crowdsim ensemble` runs every run in one process (and
  # OpenMPI's own allocations, never freed, would read as leaks).
  args+=(-DCROWD_SANITIZE="$CROWD_SANITIZE" -DCROWD_CUDA=OFF -DCROWD_MPI=OFF
         "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
fi
bash scripts/build.sh "${args[@]}"
cd "${CROWD_BUILD_DIR:-build}"
ctest --output-on-failure --parallel "$(nproc)" ${CROWD_CTEST_ARGS:-}
