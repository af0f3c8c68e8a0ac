"""Many agents at once from NumPy: add_agents and set_params_bulk, all or nothing."""

import numpy as np
import pytest

import crowd


def test_add_agents_returns_their_ids_in_order():
    sim = crowd.Simulator(crowd.Config(threads=1))
    first = sim.add_agent((-50.0, 0.0))
    positions = np.array([[0.0, 0.0], [10.0, 0.0], [20.0, 0.0]])
    goals = positions + [0.0, 5.0]
    ids = sim.add_agents(positions, goals=goals, params=crowd.AgentParams(radius=0.5))
    assert ids.dtype == np.uint64 and len(ids) == 3
    assert sim.ids.tolist() == [first, *ids.tolist()]
    assert sim.goal(ids[2]) == (20.0, 5.0)
    assert sim.params(ids[0]).radius == 0.5
    np.testing.assert_array_equal(sim.positions[1:], positions.astype(np.float32))


def test_add_agents_adds_all_or_none():
    sim = crowd.Simulator()
    positions = np.array([[0.0, 0.0], [1e9, 0.0], [3.0, 0.0]])  # Row 1 is past the coordinate limit.
    with pytest.raises(ValueError, match="row 1"):
        sim.add_agents(positions)
    assert len(sim) == 0
    with pytest.raises(ValueError, match="goals: 1 rows for 2 positions"):
        sim.add_agents(np.zeros((2, 2)), goals=np.zeros((1, 2)))
    view = sim.positions
    with pytest.raises(BufferError):
        sim.add_agents(np.zeros((1, 2)))
    del view


def test_set_params_bulk_per_agent_or_for_all():
    sim = crowd.Simulator()
    ids = sim.add_agents(np.array([[0.0, 0.0], [10.0, 0.0], [20.0, 0.0]]))
    sim.set_params_bulk(radius=np.array([0.2, 0.3, 0.4]), max_speed=1.5, max_neighbors=np.array([1, 2, 3]))
    got = [sim.params(i) for i in ids]
    assert [p.radius for p in got] == pytest.approx([0.2, 0.3, 0.4])
    assert [p.max_speed for p in got] == [1.5, 1.5, 1.5]
    assert [p.max_neighbors for p in got] == [1, 2, 3]
    assert got[0].neighbor_dist == crowd.AgentParams().neighbor_dist  # Not named: unchanged.


def test_set_params_bulk_refuses_a_bad_row_and_changes_nothing():
    sim = crowd.Simulator()
    ids = sim.add_agents(np.zeros((3, 2)) + [[0, 0], [10, 0], [20, 0]])
    with pytest.raises(ValueError, match="row 2"):
        sim.set_params_bulk(radius=np.array([0.2, 0.3, -1.0]))
    with pytest.raises(ValueError, match="one per agent"):
        sim.set_params_bulk(radius=np.ones(2))
    assert all(sim.params(i).radius == crowd.AgentParams().radius for i in ids)


def test_bulk_in_3d():
    sim = crowd.Simulator3()
    ids = sim.add_agents(np.array([[0.0, 0.0, 0.0], [10.0, 0.0, 5.0]]), goals=np.zeros((2, 3)))
    sim.set_params_bulk(radius=0.25)
    assert sim.params(ids[1]).radius == 0.25 and sim.goal(ids[1]) == (0.0, 0.0, 0.0)
