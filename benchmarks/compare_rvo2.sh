#!/usr/bin/env bash
# crowd and RVO2 side by side on the scenarios `crowdsim bench` runs, with the speed-up.
#
#   benchmarks/compare_rvo2.sh [--agents 10000,100000] [--scenarios circle,random]
#                              [--threads 2] [--repeat 3] [--steps 20]
#
# RVO2 v2.0.2 is built from its public source at run time by the anchor script (never part of
# this repository): set RVO2_ANCHOR to it, or keep the default ../shared/tools/rvo2-anchor.sh
# beside the repository. Both programs time 3 warm-up steps, then the median of the timed steps;
# each point is measured --repeat times, interleaving the two, and the median run is reported.
# crowd's time includes its preferred-velocity phase, which RVO2's driver sets outside its timer.
# Prints a Markdown table; set CROWDSIM to use another build of crowdsim.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
crowdsim=${CROWDSIM:-$root/build/host/crowdsim}
anchor=${RVO2_ANCHOR:-$root/../shared/tools/rvo2-anchor.sh}
agents=10000,100000
scenarios=circle,random
threads=2
repeat=3
steps=20
while [ $# -gt 0 ]; do
  case "$1" in
    --agents) agents=$2; shift 2 ;;
    --scenarios) scenarios=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare_rvo2.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in ${agents//,/ } $threads $repeat $steps; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "compare_rvo2.sh: expected a positive integer, got '$n'" >&2; exit 2; }
done
[ -x "$crowdsim" ] || { echo "compare_rvo2.sh: $crowdsim not found; build first (bash scripts/build.sh) or set CROWDSIM" >&2; exit 2; }
[ -f "$anchor" ] || { echo "compare_rvo2.sh: RVO2 anchor script not found at $anchor; set RVO2_ANCHOR" >&2; exit 2; }

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "crowd vs RVO2 v2.0.2, $threads threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
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
    crowd=$(median < "$work/crowd")
    rvo2=$(median < "$work/rvo2")
    [ -n "$crowd" ] && [ -n "$rvo2" ] || { echo "compare_rvo2.sh: a run failed ($scenario $n)" >&2; exit 1; }
    awk -v s="$scenario" -v n="$n" -v c="$crowd" -v r="$rvo2" \
      'BEGIN { printf "| %s | %d | %.3f | %.3f | %.2fx |\n", s, n, c, r, r / c }'
  done
done
