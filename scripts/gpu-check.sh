#!/usr/bin/env bash
# The checks that need an NVIDIA GPU, in one run that fits a short session on the machine:
#   1. the GPU tests, with CROWD_REQUIRE_GPU=1 so that a skip is a failure, and the picture tests;
#   2. the benchmark sweep, GPU then CPU (the same machine, all its cores);
#   3. the viewer: CUDA-OpenGL interop at a million agents, offscreen;
#   4. the whole test suite;
#   5. a kernel profile (Nsight Compute) and compute-sanitizer, where those tools are present.
# Each part has a time cap and the run stops its parts at a deadline, so what ran is always
# reported. Usage, from the repo root, after a CUDA build (scripts/build.sh -DCROWD_CUDA=ON):
#   bash scripts/gpu-check.sh [BUILD_DIR] [OUT_DIR] [SECONDS]
# With BASELINE=/path/to/an/older/crowdsim the GPU sweep runs with it too, right after, so that a
# change's before and after come from one machine in one session.
set -uo pipefail
build=$(cd "${1:-build}" && pwd)
out=${2:-gpu-check}
deadline=$(($(date +%s) + ${3:-540}))
mkdir -p "$out" && out=$(cd "$out" && pwd)
crowdsim=$build/host/crowdsim
tests=$build/tests/crowd_tests
cores=$(nproc)
summary=$out/summary.txt
: >"$summary"

# part NAME CAP COMMAND...: runs COMMAND with its output in OUT/NAME.log, stopped after CAP
# seconds or at the deadline, whichever comes first; the summary gets its status and time.
part() {
  local name=$1 cap=$2
  shift 2
  local left=$((deadline - $(date +%s)))
  if [ "$left" -lt 10 ]; then
    echo "$name: not run (deadline)" | tee -a "$summary"
    return
  fi
  [ "$cap" -gt "$left" ] && cap=$left
  echo "=== $name (at most ${cap} s) $(date +%T)"
  local start=$(date +%s)
  timeout --kill-after=5 "$cap" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  local status="rc $rc"
  [ "$rc" -eq 124 ] && status="stopped after ${cap} s"
  echo "$name: $status in $(($(date +%s) - start)) s" | tee -a "$summary"
  tail -n 25 "$out/$name.log"
}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  echo "cores: $cores"
} >"$out/machine.log" 2>&1
cat "$out/machine.log"

export CROWD_REQUIRE_GPU=1
part gpu-tests 120 "$tests" --gtest_filter='CudaBackend.*:CudaBackend3d.*:CudaSteering.*:CudaPedestrians.*:Render.Interop*' --gtest_color=no
# The pictures, in one process: on an H200 (driver 580) they came out black when sixteen test
# processes made EGL contexts at once, and right one at a time.
part render-tests 60 "$tests" --gtest_filter='Render.*' --gtest_color=no
# Pictures from both backends, with the GL driver's own messages (CROWD_GL_DEBUG).
for backend in cpu cuda; do
  part render-$backend 40 env CROWD_GL_DEBUG=1 "$crowdsim" render builtin crossing --agents 200 --backend $backend \
    --start 100 --frames 1 --size 640x400 --out "$out/render-$backend" --video none
done
# circle's ring grows with its crowd: past about a million agents it leaves the coordinate limit.
part bench-gpu-random 120 "$crowdsim" bench --backend cuda --scenario random \
  --agents 10000,100000,1000000,10000000 --steps 30 --warmup 10 --json "$out/bench-gpu-random.json"
part bench-gpu-circle 60 "$crowdsim" bench --backend cuda --scenario circle \
  --agents 10000,100000,1000000 --steps 30 --warmup 10 --json "$out/bench-gpu-circle.json"
if [ -n "${BASELINE:-}" ]; then
  part baseline-random 120 "$BASELINE" bench --backend cuda --scenario random \
    --agents 10000,100000,1000000,10000000 --steps 30 --warmup 10 --json "$out/baseline-random.json"
  part baseline-circle 60 "$BASELINE" bench --backend cuda --scenario circle \
    --agents 10000,100000,1000000 --steps 30 --warmup 10 --json "$out/baseline-circle.json"
fi
part bench-cpu 60 "$crowdsim" bench --backend cpu --threads "$cores" --scenario random --scenario circle \
  --agents 10000,100000,1000000 --steps 5 --warmup 2 --json "$out/bench-cpu.json"
# The Frenet planner (lanes): candidates costed per second on both backends, side by side.
part bench-lanes 40 "$crowdsim" bench --backend cuda --backend cpu --threads "$cores" --scenario lanes \
  --agents 2400,24000 --steps 20 --warmup 5 --json "$out/bench-lanes.json"
# Whole runs on the GPU: the 3D built-ins and the planner's lanes, with their summaries.
part runs-cuda 40 bash -c "for s in sphere swarm lanes; do '$crowdsim' run builtin \$s --backend cuda || exit 1; done"
# 3D worlds (RVO2-3D's sphere, and the swarm) on both backends, side by side.
part bench-3d 90 "$crowdsim" bench --backend cuda --backend cpu --threads "$cores" --scenario sphere --scenario swarm \
  --agents 10000,100000,1000000 --steps 10 --warmup 3 --json "$out/bench-3d.json"
part view-million 40 "$crowdsim" view builtin random --agents 1000000 --backend cuda --offscreen --quit-after 10
# The test binary itself rather than ctest: ctest needs the CMake modules of the machine that
# configured the build, which the GPU machine may lack.
part all-tests 150 bash -c "cd '$build/tests' && ./crowd_tests --gtest_color=no --gtest_brief=1"
if command -v ncu >/dev/null; then
  # The four phase kernels of the eleventh step at a million agents, with where their warps stall.
  part ncu 90 ncu --clock-control none -k regex:phaseKernel --launch-skip 40 --launch-count 4 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SourceCounters \
    "$crowdsim" run builtin random --agents 1000000 --backend cuda --steps 12 -q
fi
if command -v compute-sanitizer >/dev/null; then
  part memcheck 60 compute-sanitizer --tool memcheck --error-exitcode 9 "$tests" \
    --gtest_filter='CudaBackend.OneStep*:CudaBackend.Writes*:CudaSteering.Changes*:CudaSteering.Planners*:CudaBackend3d.RandomStates*:CudaBackend3d.Steer*:CudaPedestrians.*' --gtest_color=no
  part racecheck 30 compute-sanitizer --tool racecheck --error-exitcode 9 "$tests" \
    --gtest_filter='CudaBackend.OneStep*' --gtest_color=no
fi
echo "=== summary"
cat "$summary"
for log in "$out"/bench-*.log "$out"/baseline-*.log; do
  [ -f "$log" ] && grep -E "^(random|circle|sphere|swarm|lanes) " "$log" | sed "s|^|$(basename "$log" .log): |"
done
