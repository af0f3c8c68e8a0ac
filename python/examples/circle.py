"""RVO2's Circle written the way Python-RVO2 programs write it: agents on a circle, each walking
to the point opposite, the program setting every preferred velocity itself before each step.

    python3 circle.py [--agents 250] [--radius 200] [--max-steps 5000] [--seed 1]

The parameters are RVO2's example's (time step 0.25 s, neighbour distance 15, 10 neighbours,
time horizons 10, radius 1.5, top speed 2), and exact_rvo2=True gives RVO2's own velocities to
the bit. Unlike a per-agent loop, the preferred velocities go in as one NumPy array.
"""

import argparse
import math
import sys

import numpy as np

import crowd


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=250, help="agents on the circle (default 250)")
    parser.add_argument("--radius", type=float, default=200.0, help="the circle's radius in m (default 200)")
    parser.add_argument("--max-steps", type=int, default=5000, help="give up after this many steps")
    parser.add_argument("--seed", type=int, default=1, help="seed of the nudges that break symmetry")
    args = parser.parse_args(argv)

    sim = crowd.Simulator(crowd.Config(time_step=0.25, exact_rvo2=True, threads=1))
    params = crowd.AgentParams(neighbor_dist=15.0, max_neighbors=10, time_horizon=10.0,
                               time_horizon_obst=10.0, radius=1.5, max_speed=2.0)
    goals = []
    for i in range(args.agents):
        angle = i * 2.0 * math.pi / args.agents
        start = (args.radius * math.cos(angle), args.radius * math.sin(angle))
        sim.add_agent(start, params=params)
        goals.append((-start[0], -start[1]))
    goals = np.array(goals, dtype=np.float32)

    positions = sim.positions  # A view: it follows the simulator from step to step.
    random = np.random.default_rng(args.seed)
    for _ in range(args.max_steps):
        # Toward the goal at 1 m/s, slower within the last metre (RVO2's example's rule).
        to_goal = goals - positions
        distance = np.linalg.norm(to_goal, axis=1, keepdims=True)
        preferred = np.where(distance > 1.0, to_goal / np.maximum(distance, 1e-9), to_goal)
        # RVO2's example nudges each preferred velocity by up to 0.0001 m/s in a random direction,
        # so that a perfectly symmetric crowd does not stand in equilibrium in the middle
        # (exact_rvo2 turns off crowd's own way out of such standoffs).
        angle = random.uniform(0.0, 2.0 * math.pi, args.agents)
        nudge = random.uniform(0.0, 1e-4, args.agents)
        preferred += np.stack([np.cos(angle), np.sin(angle)], axis=1) * nudge[:, None]
        sim.set_preferred_velocities(preferred)
        sim.step()
        # RVO2's example stops when every agent is within one radius of its goal.
        if np.all(np.linalg.norm(goals - positions, axis=1) <= params.radius):
            break
    left = np.linalg.norm(goals - positions, axis=1)
    reached = int(np.count_nonzero(left <= params.radius))
    print(f"{reached} of {args.agents} agents reached their goals in {sim.step_count} steps "
          f"({sim.time:.2f} s); farthest still {left.max():.2f} m away")
    return 0 if reached == args.agents else 1


if __name__ == "__main__":
    sys.exit(main())
