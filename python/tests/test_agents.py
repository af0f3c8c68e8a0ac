"""Agents added, removed and steered by id, one at a time or in bulk from NumPy."""

import numpy as np
import pytest

import crowd


def free_agents(n, dt=0.25):
    """n agents on a grid 20 m apart: none ever sees another (neighbor_dist 5)."""
    sim = crowd.Simulator(crowd.Config(time_step=dt, threads=1))
    params = crowd.AgentParams(radius=0.5, max_speed=3.0, neighbor_dist=5.0)
    for k in range(n):
        sim.add_agent((20.0 * (k % 10), 20.0 * (k // 10)), params=params)
    return sim


def test_bulk_preferred_velocities_move_each_agent_by_its_own():
    sim = free_agents(30)
    rng = np.random.default_rng(7)
    velocities = rng.uniform(-2.0, 2.0, size=(30, 2))  # float64: converted to float32.
    start = sim.positions.copy()
    sim.set_preferred_velocities(velocities)
    sim.step()
    # Alone, an agent takes its preferred velocity: p + v dt, in float32 as the library rounds.
    v32 = velocities.astype(np.float32)
    np.testing.assert_array_equal(sim.velocities, v32)
    np.testing.assert_array_equal(sim.positions, start + v32 * np.float32(0.25))
    assert sim.preferred_velocity(sim.ids[3]) == tuple(v32[3].tolist())


def test_bulk_preferred_velocities_refuse_a_bad_array_and_change_nothing():
    sim = free_agents(4)
    sim.set_preferred_velocities(np.ones((4, 2)))
    with pytest.raises(ValueError, match=r"shape \(N, 2\), got \(4, 3\)"):
        sim.set_preferred_velocities(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="3 vectors for 4 agents"):
        sim.set_preferred_velocities(np.zeros((3, 2)))
    bad = np.zeros((4, 2))
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="row 2"):
        sim.set_preferred_velocities(bad)
    assert sim.preferred_velocity(sim.ids[0]) == (1.0, 1.0)


def test_one_preferred_velocity_by_id_clears_the_goal():
    sim = crowd.Simulator()
    a = sim.add_agent((0, 0), goal=(10, 0))
    assert sim.goal(a) == (10.0, 0.0)
    sim.set_preferred_velocity(a, (0.0, 1.0))
    assert sim.goal(a) is None
    assert sim.preferred_velocity(a) == (0.0, 1.0)


def test_removing_an_agent_mid_run():
    sim = crowd.builtin("circle", agents=40, threads=1, metrics=False)
    sim.run(steps=10)
    ids = sim.ids.tolist()
    gone = ids[7]
    others = {i: sim.position(i) for i in ids if i != gone}
    assert sim.remove_agent(gone)
    assert not sim.remove_agent(gone)  # Once only.
    assert gone not in sim and len(sim) == 39
    assert sim.ids.tolist() == [i for i in ids if i != gone]  # The others keep their order.
    for i, p in others.items():
        assert sim.position(i) == p
    with pytest.raises(IndexError):
        sim.position(gone)
    sim.run(steps=10)
    assert sim.step_count == 20 and len(sim) == 39
    # A new agent does not take the removed one's id.
    new = sim.add_agent((0.0, 0.0))
    assert new != gone and new in sim


def test_removing_an_agent_changes_the_next_steps():
    kept = crowd.builtin("circle", agents=40, threads=1, metrics=False)
    cut = crowd.builtin("circle", agents=40, threads=1, metrics=False)
    kept.run(steps=10)
    cut.run(steps=10)
    cut.remove_agent(cut.ids[0])
    kept.run(steps=20)
    cut.run(steps=20)
    # The neighbours of the removed agent took other ways.
    assert kept.positions[1:].tobytes() != cut.positions.tobytes()


def test_3d_agents():
    sim = crowd.Simulator3(crowd.Config(time_step=0.5, threads=1))
    a = sim.add_agent((0, 0, 0), pref_velocity=(0, 0, 1), params=crowd.AgentParams(radius=0.5, neighbor_dist=2))
    sim.set_preferred_velocities(np.array([[1.0, 0.0, 0.0]]))
    sim.step()
    assert sim.position(a) == (0.5, 0.0, 0.0)
    assert sim.positions.shape == (1, 3)
