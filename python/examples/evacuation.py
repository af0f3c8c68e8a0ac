"""A scripted evacuation: the built-in office floor emptying through its exits, the count of
people out second by second (an N-t curve), and the trajectories as PedPy's DataFrame.

    python3 evacuation.py [--agents 300] [--until 300] [--plot nt.png] [--trajectories out.csv]

With matplotlib installed (Debian: python3-matplotlib), --plot draws the N-t curve; without it
the curve is printed. --trajectories writes every 10th step as CSV with PedPy's columns (id,
frame, x, y), which pedpy.TrajectoryData takes with the frame rate printed.
"""

import argparse
import sys

import crowd


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=300, help="people on the floor (default 300)")
    parser.add_argument("--until", type=float, default=300.0, help="seconds to simulate at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", help="draw the N-t curve into this picture (needs matplotlib)")
    parser.add_argument("--trajectories", help="write every 10th step as CSV (id, frame, x, y)")
    args = parser.parse_args(argv)

    sim = crowd.builtin("evacuation", agents=args.agents, seed=args.seed, metrics=True)
    everyone = len(sim)
    trajectory = crowd.Trajectory(sim, every=10)
    seconds_per_step = sim.time_step
    times, out = [0.0], [0]

    def observe(s):
        trajectory.record(s)
        now_out = everyone - len(s)  # Arrived agents leave the floor.
        if now_out != out[-1]:
            times.append(s.time)
            out.append(now_out)
        return now_out < everyone  # Stop once the floor is empty.

    sim.run(until=args.until, callback=observe)
    metrics = sim.metrics()
    print(f"{out[-1]} of {everyone} out after {sim.time:.1f} s "
          f"({sim.step_count} steps of {seconds_per_step:g} s); the metrics say {metrics['arrived']} arrived")
    for fraction in (0.25, 0.5, 0.75, 1.0):
        wanted = fraction * everyone
        first = next((t for t, n in zip(times, out) if n >= wanted), None)
        print(f"  {int(fraction * 100):3d}% out at " + (f"{first:.1f} s" if first is not None else "not reached"))

    if args.trajectories:
        frame = trajectory.to_dataframe()
        frame.to_csv(args.trajectories, index=False)
        print(f"wrote {len(frame)} rows to {args.trajectories} at {trajectory.frame_rate:g} frames a second")
    if args.plot:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("no plot: matplotlib is not installed (apt-get install python3-matplotlib)")
            return 0
        figure, axes = plt.subplots(figsize=(6, 4))
        axes.step(times, out, where="post")
        axes.set_xlabel("time (s)")
        axes.set_ylabel("people out")
        axes.set_title(f"evacuation, {everyone} people")
        figure.savefig(args.plot, dpi=120, bbox_inches="tight")
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
