"""The Python API runs the library: the same scenario gives the C++ program's results to the bit."""

import numpy as np

import crowd
from conftest import read_trajectory_csv


def test_rvo2_circle_matches_crowdsim_bit_for_bit(crowdsim, tmp_path):
    agents, steps = 250, 60
    csv = tmp_path / "circle.csv"
    crowdsim("run", "builtin", "circle", "--agents", agents, "--steps", steps, "--exact-rvo2", "--threads", 1, "--backend", "cpu",
             "--all-steps", "-q", "--out", csv)
    expected = read_trajectory_csv(csv)

    sim = crowd.builtin("circle", agents=agents, exact_rvo2=True, threads=1)
    assert sim.origin == (0.0, 0.0)  # So the CSV's doubles are the positions' floats.
    assert sim.run(steps=steps) == steps
    numbers, x, y = expected[steps]
    np.testing.assert_array_equal(np.asarray(sim.ids, dtype=np.int64), numbers)
    positions = sim.positions
    assert positions.dtype == np.float32
    # Bit for bit: the float32 values themselves, not within a tolerance.
    assert positions[:, 0].tobytes() == x.tobytes()
    assert positions[:, 1].tobytes() == y.tobytes()


def test_any_thread_count_gives_the_same_state():
    one = crowd.builtin("circle", agents=300, threads=1, metrics=False)
    two = crowd.builtin("circle", agents=300, threads=2, metrics=False)
    one.run(steps=40)
    two.run(steps=40)
    assert one.state_hash() == two.state_hash()
    assert one.positions.tobytes() == two.positions.tobytes()
