#!/usr/bin/env bash
# crowd's 3D step beside RVO2-3D's: how well the velocities agree (one step on random worlds, and
# RVO2-3D's Sphere example step by step), then ms per step side by side, with the speed-up.
#
#   RVO2_3D_SRC=/path/to/RVO2-3D benchmarks/compare_rvo2_3d.sh [--agents 1000,10000]
#       [--scenarios sphere,swarm] [--threads 2] [--steps 30] [--cases 3000]
#
# RVO2-3D (its public source, Apache-2.0) is never part of this repository: RVO2_3D_SRC names a
# checkout (the folder holding src/RVO.h, or src/ itself). Its sources are compiled with
# -O3 -fopenmp into a scratch folder with benchmarks/rvo2_3d_compare.cpp, which links crowd's
# library from build/ (bash scripts/build.sh first; CROWD_BUILD names another build folder).
# RVO2-3D gets crowd's agents and parameters and the built-ins' goal rule; crowd runs on its CPU
# backend. Only the two steps are timed, 3 untimed steps first, then the median of --steps.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CROWD_BUILD:-$root/build}
agents=1000,10000
scenarios=sphere,swarm
threads=2
steps=30
cases=3000
while [ $# -gt 0 ]; do
  case "$1" in
    --agents) agents=$2; shift 2 ;;
    --scenarios) scenarios=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare_rvo2_3d.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in ${agents//,/ } $threads $steps $cases; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "compare_rvo2_3d.sh: expected a positive integer, got '$n'" >&2; exit 2; }
done
src=${RVO2_3D_SRC:-}
[ -n "$src" ] || { echo "compare_rvo2_3d.sh: set RVO2_3D_SRC to an RVO2-3D checkout (see --help)" >&2; exit 2; }
[ -f "$src/src/RVO.h" ] && src=$src/src
[ -f "$src/RVO.h" ] || { echo "compare_rvo2_3d.sh: no RVO.h in $src or $src/src" >&2; exit 2; }
src=$(cd "$src" && pwd)
[ -f "$build/host/libcrowd.a" ] ||
  { echo "compare_rvo2_3d.sh: $build/host/libcrowd.a not found; build first (bash scripts/build.sh) or set CROWD_BUILD" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "building RVO2-3D from $src and the comparison driver..." >&2
shopt -s nullglob
rvo_sources=("$src"/*.cpp "$src"/*.cc)
[ ${#rvo_sources[@]} -gt 0 ] || { echo "compare_rvo2_3d.sh: no sources in $src" >&2; exit 2; }
# Both sides unfused (-ffp-contract=off), as crowd is built, so that rounding alike is possible.
(cd "$work" && g++ -O3 -DNDEBUG -fopenmp -ffp-contract=off -std=c++17 -I"$src" -c "${rvo_sources[@]}" &&
  ar rcs librvo3d.a ./*.o)
# A crowd build with its CUDA backend also needs the CUDA runtime.
cuda_libs=()
if ar t "$build/host/libcrowd.a" | grep -q '\.cu\.o$'; then
  nvcc_path=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  cuda_libs=(-L"$(dirname "$(dirname "$nvcc_path")")/lib64" -lcudart)
fi
g++ -O3 -DNDEBUG -fopenmp -std=c++20 -ffp-contract=off -Wall -Wextra -isystem "$src" -I"$root/host/include" \
  -I"$root/kernels/include" "$root/benchmarks/rvo2_3d_compare.cpp" "$build/host/libcrowd.a" "$work/librvo3d.a" \
  "${cuda_libs[@]}" -o "$work/rvo2_3d_compare"

echo "crowd vs RVO2-3D, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
echo
echo "Agreement (new velocities after one step; exact: crowd with exactRvo2):"
"$work/rvo2_3d_compare" agreement "$cases"
OMP_NUM_THREADS=2 "$work/rvo2_3d_compare" sphere 3000
echo
echo "Speed ($threads threads, median of $steps steps after 3):"
echo
echo "| scenario | agents | crowd ms/step | RVO2-3D ms/step | speed-up |"
echo "| --- | ---: | ---: | ---: | ---: |"
for scenario in ${scenarios//,/ }; do
  for n in ${agents//,/ }; do
    OMP_NUM_THREADS=$threads "$work/rvo2_3d_compare" time "$scenario" "$n" "$steps" "$threads"
  done
done
