"""Bad input raises, with the located message crowdsim prints."""

import json

import numpy as np
import pytest

import crowd
from conftest import SOURCE_DIR


def cli_message(result):
    """crowdsim's message, less its "crowdsim: error: " prefix."""
    assert result.returncode == 2
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("crowdsim: error: ")
    return line[len("crowdsim: error: "):]


def test_a_bad_file_raises_the_message_crowdsim_prints(crowdsim):
    path = SOURCE_DIR / "tests" / "data" / "bad_radius.json"
    printed = cli_message(crowdsim("run", path, check=False))
    with pytest.raises(crowd.ScenarioError) as raised:
        crowd.load(str(path))
    assert str(raised.value) == printed
    assert "/agents/0/radius" in printed


def test_a_bad_dict_raises_with_the_json_path(crowdsim, tmp_path):
    scenario = {"timeStep": 0.25, "agents": [{"position": [0, 0]}, {"position": [5, 0], "maxSpeed": "fast"}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(scenario))
    printed = cli_message(crowdsim("run", path, check=False))
    with pytest.raises(ValueError) as raised:
        crowd.load(scenario)
    # The same complaint, the source named "<dict>" rather than the file.
    assert str(raised.value) == printed.replace(str(path), "<dict>")
    assert "/agents/1/maxSpeed" in str(raised.value)


def test_unknown_builtin_is_a_scenario_error(crowdsim):
    printed = cli_message(crowdsim("run", "builtin", "no-such", check=False))
    with pytest.raises(crowd.ScenarioError) as raised:
        crowd.builtin("no-such")
    assert str(raised.value) == printed


def test_errors_are_python_exceptions():
    assert issubclass(crowd.ScenarioError, crowd.InputError)
    assert issubclass(crowd.InputError, ValueError)
    assert issubclass(crowd.SimulationError, RuntimeError)
    with pytest.raises(ValueError, match="time_step|timeStep"):
        crowd.Config(time_step=-1.0)
    with pytest.raises(ValueError, match="backend"):
        crowd.builtin("circle", backend="abacus")
    sim = crowd.Simulator()
    with pytest.raises(ValueError, match="radius"):
        sim.add_agent((0, 0), params=crowd.AgentParams(radius=-2))
    with pytest.raises(TypeError, match="position"):
        sim.add_agent((0, 0, 0))
    with pytest.raises(IndexError):
        sim.position(12345)
    with pytest.raises(ValueError, match="scenario length"):
        sim.run()
    with pytest.raises(ValueError, match="not both"):
        sim.run(steps=1, until=1.0)
    with pytest.raises(ValueError):
        sim.set_preferred_velocities(np.zeros(4))
    with pytest.raises(crowd.ScenarioError, match="cannot open"):
        crowd.load("/no/such/scenario.json")


def test_loading_a_builtin_name_as_a_file_names_the_way_to_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # No file called "circle" here.
    with pytest.raises(crowd.ScenarioError, match=r'crowd.builtin\("circle"\)'):
        crowd.load("circle")
