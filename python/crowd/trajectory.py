"""Trajectories recorded from a running simulator, as PedPy reads them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

import numpy as np

if TYPE_CHECKING:
    import pandas

    from ._crowd import Simulator, Simulator3


class Trajectory:
    """Every agent's position every `every` steps, from the state it is made in on.

    Pass its ``record`` as ``run``'s callback (or call it after each ``step``)::

        traj = crowd.Trajectory(sim, every=5)
        sim.run(callback=traj.record)
        frame = traj.to_dataframe()      # columns id, frame, x, y (and z in 3D)
        pedpy.TrajectoryData(data=frame, frame_rate=traj.frame_rate)

    Positions are in world coordinates (the simulator's origin added, in float64); frame k is the
    state after step k (frame 0: the start), so frame_rate is 1 / (time_step * every).
    """

    def __init__(self, sim: Union["Simulator", "Simulator3"], every: int = 1) -> None:
        if every < 1:
            raise ValueError(f"every must be >= 1, got {every}")
        self._sim = sim
        self._every = every
        self._origin = np.array(sim.origin + ((0.0,) if sim.positions.shape[1] == 3 else ()))
        self._parts: list[tuple[np.ndarray, int, np.ndarray]] = []
        # The time step as written (0.1 s, not float32's 0.100000001): 10 frames a second, as
        # crowdsim's trajectory files state it.
        step = float(np.format_float_positional(np.float32(sim.time_step)))
        self.frame_rate = 1.0 / (step * every)
        self._record_now()

    def _record_now(self) -> None:
        sim = self._sim
        # Copies: the views change with the next step.
        ids = np.array(sim.ids, dtype=np.int64)
        positions = np.asarray(sim.positions, dtype=np.float64) + self._origin
        self._parts.append((ids, sim.step_count // self._every, positions))

    def record(self, sim: Union["Simulator", "Simulator3", None] = None) -> bool:
        """Records the current state if its step is one kept; returns True (go on running)."""
        if self._sim.step_count % self._every == 0:
            self._record_now()
        return True

    def to_dataframe(self) -> "pandas.DataFrame":
        """The frames so far as a DataFrame with PedPy's columns: id, frame, x, y (z in 3D)."""
        import pandas

        columns: dict[str, np.ndarray] = {
            "id": np.concatenate([ids for ids, _, _ in self._parts]),
            "frame": np.concatenate([np.full(len(ids), frame, dtype=np.int64) for ids, frame, _ in self._parts]),
        }
        positions = np.concatenate([p for _, _, p in self._parts])
        for axis, name in enumerate("xyz"[: positions.shape[1]]):
            columns[name] = positions[:, axis]
        frame = pandas.DataFrame(columns)
        frame.attrs["frame_rate"] = self.frame_rate
        return frame
