#!/usr/bin/env bash
# How the CPU step copes with a loaded machine: a few workloads timed with --threads 1, with all
# cores and with the default (0: the step times the counts it may use and runs the fastest),
# first on the idle machine, then beside --busy processes that keep a core busy each. Prints a
# Markdown table; each figure is the median of --repeat runs.
#
#   benchmarks/busy_machine.sh [--busy 1] [--repeat 3]
#
# The bench rows are `crowdsim bench` medians of 20 steps (it starts its own busy processes with
# --busy); the run rows are whole `crowdsim run` wall times beside the same number of spinning
# shell loops. Set CROWDSIM to use another build of crowdsim.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
me=busy_machine.sh
busy=1
repeat=3
while [ $# -gt 0 ]; do
  case $1 in
    --busy) busy=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$me: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
crowdsim=${CROWDSIM:-$root/build/host/crowdsim}
[ -x "$crowdsim" ] || { echo "$me: $crowdsim not found; build first (bash scripts/build.sh) or set CROWDSIM" >&2; exit 2; }
cores=$(nproc)

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# A bench point's median ms a step: bench_ms SCENARIO AGENTS THREADS BUSY.
bench_ms() {
  "$crowdsim" bench --scenario "$1" --agents "$2" --threads "$3" --busy "$4" --backend cpu 2>/dev/null |
    awk -v s="$1" '$1 == s {print $10}'
}

# A run's wall seconds: run_s BUILTIN THREADS.
run_s() {
  local start end
  start=$(date +%s.%N)
  "$crowdsim" run builtin "$1" -q --threads "$2" >/dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

spinners=()
start_spinners() { for _ in $(seq "$1"); do (while :; do :; done) & spinners+=($!); done; }
stop_spinners() {
  [ ${#spinners[@]} -eq 0 ] && return
  kill "${spinners[@]}" 2>/dev/null || true
  wait "${spinners[@]}" 2>/dev/null || true
  spinners=()
}
trap stop_spinners EXIT

row() {  # row LABEL UNIT LOAD KIND ARGS...: one table row, each thread setting --repeat times.
  local label=$1 unit=$2 load=$3 kind=$4
  shift 4
  local settings=(1 "$cores" 0)
  local samples=("" "" "")
  # The settings take turns, so that a drift in the machine's speed touches each alike.
  for _ in $(seq "$repeat"); do
    for i in 0 1 2; do
      local figure
      if [ "$kind" = bench ]; then
        figure=$(bench_ms "$1" "$2" "${settings[$i]}" "$load")
      else
        [ "$load" -gt 0 ] && start_spinners "$load"
        figure=$(run_s "$1" "${settings[$i]}")
        stop_spinners
      fi
      samples[$i]="${samples[$i]} $figure"
    done
  done
  local figures=()
  for i in 0 1 2; do figures+=("$(printf '%s\n' ${samples[$i]} | median)"); done
  local ratio
  ratio=$(echo "${figures[2]} / ${figures[0]}" | bc -l)
  printf '| %s | %s | %.3f %s | %.3f %s | %.3f %s | %.2fx |\n' "$label" "$([ "$load" -gt 0 ] && echo "$load busy" || echo idle)" \
    "${figures[0]}" "$unit" "${figures[1]}" "$unit" "${figures[2]}" "$unit" "$ratio"
}

echo "crowd on a busy machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $cores cores, $(date -u +%F)"
echo
echo "| workload | machine | --threads 1 | --threads $cores | default | default / 1 thread |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for load in 0 "$busy"; do
  row "bench random 10,000 (median step)" ms "$load" bench random 10000
  row "bench circle 100,000 (median step)" ms "$load" bench circle 100000
  row "run builtin corridor (300 agents, 3,814 steps)" s "$load" run corridor
  row "run builtin lanes (780 steps, the Frenet planner)" s "$load" run lanes
done
