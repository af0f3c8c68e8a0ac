"""crowd: large crowds simulated by ORCA, from Python.

The C++ library's planar and 3D simulators, its scenarios (files, dicts, the built-ins) and
its errors, with positions, velocities and ids as NumPy views of the simulator's memory::

    import crowd

    sim = crowd.builtin("circle", agents=250, exact_rvo2=True, threads=1)
    positions = sim.positions        # (250, 2) float32, read-only, no copy
    sim.run(steps=100)               # the view shows the state after the 100th step
    print(sim.metrics()["arrived"])

See docs/python.md for the whole interface and its limits.
"""

from ._crowd import (
    AgentParams,
    Config,
    InputError,
    ScenarioError,
    SimulationError,
    Simulator,
    Simulator3,
    __version__,
    builtin,
    builtin_names,
    cuda_available,
    describe_builtin,
    git_revision,
    load,
)
from .trajectory import Trajectory

__all__ = [
    "AgentParams",
    "Config",
    "InputError",
    "ScenarioError",
    "SimulationError",
    "Simulator",
    "Simulator3",
    "Trajectory",
    "__version__",
    "builtin",
    "builtin_names",
    "cuda_available",
    "describe_builtin",
    "git_revision",
    "load",
]

# The names' home is this package (help() and tracebacks say crowd.Simulator, not crowd._crowd).
for _name in __all__:
    _value = globals()[_name]
    if isinstance(_value, type):
        _value.__module__ = __name__
del _name, _value
