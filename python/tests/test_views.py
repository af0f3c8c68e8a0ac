"""positions, velocities and ids: read-only NumPy views of the simulator's memory."""

import gc

import numpy as np
import pytest

import crowd


def walkers(n=5, dt=0.5):
    """n agents on a line, 10 m apart (no one in anyone's way), walking +x at 1 m/s."""
    sim = crowd.Simulator(crowd.Config(time_step=dt, threads=1))
    params = crowd.AgentParams(radius=0.5, neighbor_dist=2.0)
    ids = [sim.add_agent((0.0, 10.0 * k), pref_velocity=(1.0, 0.0), params=params) for k in range(n)]
    return sim, ids


def test_a_view_taken_before_a_step_shows_the_step():
    sim, _ = walkers()
    positions = sim.positions
    velocities = sim.velocities
    before = positions.copy()
    sim.step()
    # No new call: the same array holds the new state.
    np.testing.assert_array_equal(positions[:, 0], before[:, 0] + np.float32(0.5))
    np.testing.assert_array_equal(positions[:, 1], before[:, 1])
    np.testing.assert_array_equal(velocities, np.tile(np.float32([1.0, 0.0]), (5, 1)))
    sim.run(steps=3)
    np.testing.assert_array_equal(positions[:, 0], np.full(5, 2.0, dtype=np.float32))


def test_views_share_memory_and_are_read_only():
    sim, _ = walkers()
    a, b = sim.positions, sim.positions
    assert np.shares_memory(a, b)  # No copy per access.
    assert a.shape == (5, 2) and a.dtype == np.float32
    with pytest.raises(ValueError):
        a[0, 0] = 1.0
    assert sim.ids.dtype == np.uint64


def test_ids_view_gives_the_ids_add_agent_returned():
    sim, ids = walkers()
    assert sim.ids.tolist() == ids
    assert all(i in sim for i in ids)
    assert sim.position(ids[2]) == (0.0, 20.0)


def test_adding_or_removing_while_a_view_lives_raises_buffer_error():
    sim, ids = walkers()
    view = sim.positions[1:]  # A slice keeps the view alive too.
    with pytest.raises(BufferError, match="live view"):
        sim.add_agent((50.0, 0.0))
    with pytest.raises(BufferError):
        sim.remove_agent(ids[0])
    assert len(sim) == 5
    del view
    gc.collect()
    assert sim.remove_agent(ids[0])
    assert len(sim) == 4 and sim.positions.shape == (4, 2)


def test_a_view_keeps_its_simulator_alive():
    sim, _ = walkers()
    positions = sim.positions
    del sim
    gc.collect()
    assert positions[0].tolist() == [0.0, 0.0]


def test_an_empty_simulator_gives_empty_views():
    sim = crowd.Simulator()
    assert sim.positions.shape == (0, 2)
    assert sim.ids.shape == (0,)
    sim3 = crowd.Simulator3()
    assert sim3.positions.shape == (0, 3)
