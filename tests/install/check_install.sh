#!/usr/bin/env bash
# Installs the built project into a scratch prefix, then builds and runs a consumer project
# that finds it with find_package(crowd). Usage: check_install.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1
scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
test -f "$scratch/prefix/include/crowd/crowd.hpp"
# The public headers and the plain kernel types they name, not the per-agent maths.
test -f "$scratch/prefix/include/crowd/kernels/vec2.hpp"
test ! -e "$scratch/prefix/include/crowd/kernels/orca_agents.hpp"
test ! -e "$scratch/prefix/include/crowd/kernels/linear_program.hpp"
test ! -e "$scratch/prefix/include/crowd/kernels/frenet_planner.hpp"
cmake -S "$here" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$scratch/consumer" >/dev/null
"$scratch/consumer/consumer"
