"""Scenarios from a name, a file or a dict; run(), metrics, trajectories, the walkable area."""

import pytest

import crowd
from conftest import SOURCE_DIR


def test_builtin_names_list_both_worlds():
    names = crowd.builtin_names()
    assert "circle" in names and "evacuation" in names and "sphere" in names
    assert "Circle" in crowd.describe_builtin("circle") or crowd.describe_builtin("circle")


def test_builtin_takes_the_cli_options():
    sim = crowd.builtin("circle", agents=250, exact_rvo2=True, backend="cpu", threads=1, steps=30)
    assert isinstance(sim, crowd.Simulator)
    assert len(sim) == 250 and sim.config.exact_rvo2 and sim.config.threads == 1
    assert sim.backend == "cpu" and sim.scenario_steps == 30
    assert sim.run() == 30 and sim.time == pytest.approx(7.5)


def test_a_3d_builtin_is_a_simulator3():
    sim = crowd.builtin("sphere", agents=50, threads=1)
    assert isinstance(sim, crowd.Simulator3)
    assert sim.positions.shape == (50, 3)
    sim.run(steps=2)


def test_load_a_file_and_a_dict_alike():
    path = SOURCE_DIR / "scenarios" / "rvo2_circle.json"
    from_file = crowd.load(path, threads=1)
    import json

    from_dict = crowd.load(json.loads(path.read_text()), threads=1)
    assert len(from_file) == len(from_dict) > 0
    from_file.run(steps=5)
    from_dict.run(steps=5)
    assert from_file.state_hash() == from_dict.state_hash()


def test_run_until_a_time_and_with_a_callback():
    sim = crowd.builtin("circle", agents=20, threads=1)
    assert sim.run(until=2.0) == 8  # 0.25 s a step.
    assert sim.time == pytest.approx(2.0)
    seen = []

    def stop_at_three(s):
        seen.append(s.step_count)
        return len(seen) < 3

    assert sim.run(steps=10, callback=stop_at_three) == 3
    assert seen == [9, 10, 11]


def test_run_ends_once_everyone_arrived_and_metrics_say_so():
    sim = crowd.builtin("circle", agents=12, threads=1)
    steps = sim.run()
    assert steps < sim.scenario_steps
    metrics = sim.metrics()
    assert metrics["arrived"] == 12 and metrics["agents"] == 12
    assert metrics["scenario"] == "builtin:circle" and metrics["dimensions"] == 2
    assert sim.arrived_count == 12


def test_metrics_must_be_asked_for():
    sim = crowd.Simulator()
    with pytest.raises(RuntimeError, match="start_metrics"):
        sim.metrics()
    sim.add_agent((0, 0), goal=(1, 0))
    sim.start_metrics()
    sim.run(steps=5)
    assert sim.metrics()["arrived"] == 1


def test_trajectory_as_pedpy_reads_it():
    sim = crowd.builtin("circle", agents=10, threads=1)
    traj = crowd.Trajectory(sim, every=2)
    sim.run(steps=6, callback=traj.record)
    frame = traj.to_dataframe()
    assert list(frame.columns) == ["id", "frame", "x", "y"]
    assert sorted(frame["frame"].unique().tolist()) == [0, 1, 2, 3]
    assert len(frame) == 40
    assert traj.frame_rate == pytest.approx(2.0)  # One frame each 0.5 s.
    last = frame[frame["frame"] == 3].sort_values("id")
    assert last["x"].tolist() == sim.positions[:, 0].astype(float).tolist()


def test_trajectory_frame_rate_is_the_written_time_steps():
    sim = crowd.Simulator(crowd.Config(time_step=0.1))
    assert crowd.Trajectory(sim, every=1).frame_rate == 10.0
    assert crowd.Trajectory(sim, every=5).frame_rate == 2.0
    with pytest.raises(ValueError):
        crowd.Trajectory(sim, every=0)


def test_walkable_area_is_what_crowdsim_geometry_writes(crowdsim, tmp_path):
    out = tmp_path / "walls.wkt"
    crowdsim("geometry", "builtin", "bottleneck", "--out", out)
    sim = crowd.builtin("bottleneck", threads=1, metrics=False)
    assert sim.walkable_area_wkt() == out.read_text().strip()


def test_scenario_warnings_are_python_warnings():
    overlapping = {"agents": [{"position": [0, 0]}, {"position": [0.1, 0]}]}
    with pytest.warns(UserWarning, match="overlap"):
        sim = crowd.load(overlapping)
    assert any("overlap" in w for w in sim.warnings)


def test_progress_line_on_request(capsys):
    sim = crowd.builtin("circle", agents=10, threads=1, metrics=False)
    sim.run(steps=3, progress=True)
    err = capsys.readouterr().err
    assert "step 1/3" in err and err.endswith("\r\033[K")
    sim.run(steps=3, progress=False)
    assert capsys.readouterr().err == ""


def test_an_exception_in_the_callback_ends_the_run_after_its_step():
    sim = crowd.builtin("circle", agents=10, threads=1, metrics=False)

    def interrupt(s):
        if s.step_count == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sim.run(steps=10, callback=interrupt)
    assert sim.step_count == 2
    sim.run(steps=1)  # Still usable.
    assert sim.step_count == 3


def test_help_shows_the_docstrings():
    assert "until" in crowd.Simulator.run.__doc__
    assert "view" in crowd.Simulator.positions.__doc__
    assert "ScenarioError" in crowd.builtin.__doc__
    assert crowd.Simulator.__module__ == "crowd"
    sim = crowd.builtin("sphere", agents=20, threads=1)
    sim.step()
    assert repr(sim) == "<crowd.Simulator3: 20 agents, step 1, 0.12 s, cpu>"
