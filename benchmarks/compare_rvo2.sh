#!/usr/bin/env bash
# crowd and RVO2 side by side on the scenarios `crowdsim bench` runs, with the speed-up; with --3d,
# crowd's 3D step beside RVO2-3D's: how well the velocities agree (one step on random worlds, and
# RVO2-3D's Sphere example step by step), then ms per step side by side.
#
#   benchmarks/compare_rvo2.sh [--agents 10000,100000] [--scenarios circle,random]
#                              [--threads 2] [--repeat 3] [--steps 20] [--check]
#   RVO2_3D_SRC=/path/to/RVO2-3D benchmarks/compare_rvo2.sh --3d [--agents 1000,10000]
#                              [--scenarios sphere,swarm] [--threads 2] [--steps 30] [--cases 3000]
#
# Neither RVO2 is ever part of this repository. Planar: RVO2 v2.0.2 is built from its public
# source at run time by the anchor script: set RVO2_ANCHOR to it, or keep the default
# ../shared/tools/rvo2-anchor.sh beside the repository. Both programs time 3 warm-up steps, then
# the median of the timed steps; each point is measured --repeat times, interleaving the two, and
# the median run is reported. crowd's time includes its preferred-velocity phase, which RVO2's
# driver sets outside its timer. Set CROWDSIM to use another build of crowdsim.
# --check: each speed-up against the one docs/benchmarks.md gives for the point ("crowd against
# RVO2"); one below two thirds of it (the machine's drift is a third) no longer holds, and the
# exit status is 1. `crowdsim bench --check` is the lighter check that CI runs: the work a step
# does, against the stored results, on any machine.
# 3D: RVO2_3D_SRC names an RVO2-3D checkout (the folder holding src/RVO.h, or src/ itself; its
# public source, Apache-2.0). Its sources are compiled with -O3 -fopenmp into a scratch folder with
# benchmarks/rvo2_3d_compare.cpp, which links crowd's library from build/ (bash scripts/build.sh
# first; CROWD_BUILD names another build folder). RVO2-3D gets crowd's agents and parameters and
# the built-ins' goal rule; crowd runs on its CPU backend. Only the two steps are timed, 3 untimed
# steps first, then the median of --steps. Prints Markdown tables.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
me=compare_rvo2.sh
world=2
agents=
scenarios=
threads=2
repeat=3
steps=
cases=3000
check=0
while [ $# -gt 0 ]; do
  case "$1" in
    --3d) world=3; shift ;;
    --agents) agents=$2; shift 2 ;;
    --scenarios) scenarios=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$me: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ "$world" = 3 ]; then
  agents=${agents:-1000,10000} scenarios=${scenarios:-sphere,swarm} steps=${steps:-30}
else
  agents=${agents:-10000,100000} scenarios=${scenarios:-circle,random} steps=${steps:-20}
fi
for n in ${agents//,/ } $threads $repeat $steps $cases; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "$me: expected a positive integer, got '$n'" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Planar: crowdsim bench and the anchor's RVO2, point by point.
compare_planar() {
  local crowdsim=${CROWDSIM:-$root/build/host/crowdsim}
  local anchor=${RVO2_ANCHOR:-$root/../shared/tools/rvo2-anchor.sh}
  [ -x "$crowdsim" ] || { echo "$me: $crowdsim not found; build first (bash scripts/build.sh) or set CROWDSIM" >&2; exit 2; }
  [ -f "$anchor" ] || { echo "$me: RVO2 anchor script not found at $anchor; set RVO2_ANCHOR" >&2; exit 2; }
  echo "crowd vs RVO2 v2.0.2, $threads threads, $cpu, $(date -u +%F)"
  echo
  echo "| scenario | agents | crowd ms/step | RVO2 ms/step | speed-up |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  for scenario in ${scenarios//,/ }; do
    for n in ${agents//,/ }; do
      : > "$work/crowd" ; : > "$work/rvo2"
      for ((r = 0; r < repeat; ++r)); do
        OMP_NUM_THREADS=$threads bash "$anchor" "$scenario" "$n" $((steps + 3)) 2>/dev/null |
          sed -n 's/.*agents: \([0-9.]*\) ms\/step.*/\1/p' >> "$work/rvo2"
        "$crowdsim" bench --scenario "$scenario" --agents "$n" --backend cpu --threads "$threads" \
          --steps "$steps" --warmup 3 --json "$work/bench.json" > /dev/null 2>&1
        sed -n 's/.*"medianMsPerStep": \([0-9.e+-]*\).*/\1/p' "$work/bench.json" >> "$work/crowd"
      done
      local crowd rvo2
      crowd=$(median < "$work/crowd")
      rvo2=$(median < "$work/rvo2")
      [ -n "$crowd" ] && [ -n "$rvo2" ] || { echo "$me: a run failed ($scenario $n)" >&2; exit 1; }
      awk -v s="$scenario" -v n="$n" -v c="$crowd" -v r="$rvo2" \
        'BEGIN { printf "| %s | %d | %.3f | %.3f | %.2fx |\n", s, n, c, r, r / c }' | tee -a "$work/table"
    done
  done
  [ "$check" = 1 ] && check_documented "$work/table"
  return 0
}

# The documented speed-ups (docs/benchmarks.md, the table under "crowd against RVO2") against
# the measured rows in $1; exit 1 if one no longer holds.
check_documented() {
  local docs=$root/docs/benchmarks.md
  [ -f "$docs" ] || { echo "$me: --check: $docs not found" >&2; exit 2; }
  sed -n '/^## crowd against RVO2/,/^## /p' "$docs" | grep -E '^\| [a-z]+ \| [0-9,]+ \|.*x \|$' |
    awk -F'|' '{ gsub(/[ ,x]/, "", $2); gsub(/[ ,x]/, "", $3); gsub(/[ ,x]/, "", $6); print $2, $3, $6 }' \
      > "$work/documented"
  echo
  awk -F'|' 'NR == FNR { documented[$1 " " $2] = $3; next }
    { gsub(/[ ,x]/, "", $2); gsub(/[ ,x]/, "", $3); gsub(/[ ,x]/, "", $6)
      key = $2 " " $3
      if (!(key in documented)) { printf "check: %s %s: no documented figure\n", $2, $3; next }
      holds = $6 >= documented[key] * 2 / 3
      if (!holds) failed = 1
      printf "check: %s %s: %.2fx against the documented %.2fx: %s\n", $2, $3, $6, documented[key],
             holds ? "holds" : "NO LONGER HOLDS" }
    END { exit failed }' FS=' ' "$work/documented" FS='|' "$1" ||
    { echo "$me: a documented speed-up no longer holds (docs/benchmarks.md)" >&2; exit 1; }
}

# 3D: RVO2-3D and crowd's library linked into one driver (benchmarks/rvo2_3d_compare.cpp).
compare_3d() {
  local build=${CROWD_BUILD:-$root/build}
  local src=${RVO2_3D_SRC:-}
  [ -n "$src" ] || { echo "$me: set RVO2_3D_SRC to an RVO2-3D checkout (see --help)" >&2; exit 2; }
  [ -f "$src/src/RVO.h" ] && src=$src/src
  [ -f "$src/RVO.h" ] || { echo "$me: no RVO.h in $src or $src/src" >&2; exit 2; }
  src=$(cd "$src" && pwd)
  [ -f "$build/host/libcrowd.a" ] ||
    { echo "$me: $build/host/libcrowd.a not found; build first (bash scripts/build.sh) or set CROWD_BUILD" >&2; exit 2; }
  echo "building RVO2-3D from $src and the comparison driver..." >&2
  shopt -s nullglob
  local rvo_sources=("$src"/*.cpp "$src"/*.cc)
  [ ${#rvo_sources[@]} -gt 0 ] || { echo "$me: no sources in $src" >&2; exit 2; }
  # Both sides unfused (-ffp-contract=off), as crowd is built, so that rounding alike is possible.
  (cd "$work" && g++ -O3 -DNDEBUG -fopenmp -ffp-contract=off -std=c++17 -I"$src" -c "${rvo_sources[@]}" &&
    ar rcs librvo3d.a ./*.o)
  # A crowd build with its CUDA backend also needs the CUDA runtime.
  local cuda_libs=()
  if ar t "$build/host/libcrowd.a" | grep -q '\.cu\.o$'; then
    local nvcc_path
    nvcc_path=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    cuda_libs=(-L"$(dirname "$(dirname "$nvcc_path")")/lib64" -lcudart)
  fi
  g++ -O3 -DNDEBUG -fopenmp -std=c++20 -ffp-contract=off -Wall -Wextra -isystem "$src" -I"$root/host/include" \
    -I"$root/kernels/include" "$root/benchmarks/rvo2_3d_compare.cpp" "$build/host/libcrowd.a" "$work/librvo3d.a" \
    "${cuda_libs[@]}" -o "$work/rvo2_3d_compare"
  echo "crowd vs RVO2-3D, $cpu, $(date -u +%F)"
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
}

if [ "$world" = 3 ]; then compare_3d; else compare_planar; fi
