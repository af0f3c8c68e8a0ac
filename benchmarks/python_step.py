"""Stepping from Python against stepping from C++, and bulk preferred velocities from NumPy.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python_step.py [--agents 100000] [--threads 2]

Prints, for the built-in random scenario:
  - the wall time of sim.step() called from Python (a loop of calls, perf_counter), beside the
    library's own time for the same steps (Simulator.last_step_ms, measured inside step()), and
    the same again with a live positions view (each step then refreshes the host copy);
  - crowdsim bench's ms/step for the same scenario, agents and threads (another process);
  - the time set_preferred_velocities takes for every agent from a float32 and a float64 array.
The issue's targets: Python's step at most 5% over C++'s, the velocities in at most 1 ms.
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import tempfile
import time

import numpy as np

import crowd


def python_steps(agents, threads, steps, warmup, with_view):
    sim = crowd.builtin("random", agents=agents, threads=threads, metrics=False)
    view = sim.positions if with_view else None
    for _ in range(warmup):
        sim.step()
    walls, inside = [], []
    for _ in range(steps):
        start = time.perf_counter()
        sim.step()
        walls.append((time.perf_counter() - start) * 1e3)
        inside.append(sim.last_step_ms())
    del view
    return statistics.median(walls), statistics.median(inside)


def crowdsim_bench(program, agents, threads, steps, warmup):
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder) / "bench.json"
        subprocess.run([program, "bench", "--scenario", "random", "--agents", str(agents), "--steps", str(steps),
                        "--warmup", str(warmup), "--threads", str(threads), "--backend", "cpu", "--json", str(out)],
                       check=True, capture_output=True)
        result = json.loads(out.read_text())["results"][0]
    return result["medianMsPerStep"]


def velocities_ms(agents, dtype, repeats=50):
    sim = crowd.Simulator(crowd.Config(threads=1))
    sim_ids = [sim.add_agent((float(k % 1000), float(k // 1000))) for k in range(agents)]
    assert len(sim_ids) == agents
    rng = np.random.default_rng(1)
    values = rng.uniform(-1.0, 1.0, size=(agents, 2)).astype(dtype)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        sim.set_preferred_velocities(values)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=100_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--crowdsim", default=os.environ.get("CROWDSIM", "build/host/crowdsim"))
    a = parser.parse_args()

    print(f"random, {a.agents} agents, {a.threads} threads, median of {a.steps} steps after {a.warmup}")
    wall, inside = python_steps(a.agents, a.threads, a.steps, a.warmup, with_view=False)
    print(f"  Python step():            {wall:8.3f} ms wall, {inside:8.3f} ms inside the library "
          f"({(wall / inside - 1) * 100:+.2f}%)")
    wall_v, inside_v = python_steps(a.agents, a.threads, a.steps, a.warmup, with_view=True)
    print(f"  with a live view:         {wall_v:8.3f} ms wall, {inside_v:8.3f} ms inside the library "
          f"({(wall_v / inside_v - 1) * 100:+.2f}%)")
    if pathlib.Path(a.crowdsim).exists():
        bench = crowdsim_bench(a.crowdsim, a.agents, a.threads, a.steps, a.warmup)
        print(f"  crowdsim bench:           {bench:8.3f} ms a step (Python's wall time is "
              f"{(wall / bench - 1) * 100:+.2f}% of it)")
    for dtype in (np.float32, np.float64):
        ms = velocities_ms(a.agents, dtype)
        print(f"  set_preferred_velocities: {ms:8.3f} ms for {a.agents} agents from {np.dtype(dtype).name}")


if __name__ == "__main__":
    main()
