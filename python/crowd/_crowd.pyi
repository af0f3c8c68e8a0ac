# Type stubs for the compiled module crowd._crowd (python/src/); docstrings are in the module.
import os
from typing import Any, Callable, Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str
git_revision: str

class InputError(ValueError): ...
class ScenarioError(InputError): ...
class SimulationError(RuntimeError): ...

Backend = Literal["cpu", "cuda", "auto"]
Vector = Sequence[float]

class Config:
    time_step: float
    remove_arrived: bool
    threads: int
    cell_size: float
    backend: str
    exact_rvo2: bool
    seed: int
    origin: tuple[float, float]
    def __init__(
        self,
        *,
        time_step: float = 0.25,
        remove_arrived: bool = False,
        threads: int = 0,
        cell_size: float = 0.0,
        backend: Backend = "cpu",
        exact_rvo2: bool = False,
        seed: int = 1,
        origin: tuple[float, float] = (0.0, 0.0),
    ) -> None: ...

class AgentParams:
    radius: float
    max_speed: float
    pref_speed: float
    neighbor_dist: float
    max_neighbors: int
    time_horizon: float
    time_horizon_obst: float
    goal_radius: float
    def __init__(
        self,
        *,
        radius: float = 1.5,
        max_speed: float = 2.0,
        pref_speed: float = 1.0,
        neighbor_dist: float = 15.0,
        max_neighbors: int = 10,
        time_horizon: float = 10.0,
        time_horizon_obst: float = 10.0,
        goal_radius: float = -1.0,
    ) -> None: ...

class _SimulatorBase:
    def __init__(self, config: Config = ...) -> None: ...
    @property
    def config(self) -> Config: ...
    def set_config(self, config: Config) -> None: ...
    def add_agent(
        self,
        position: Vector,
        *,
        goal: Optional[Vector] = None,
        velocity: Optional[Vector] = None,
        pref_velocity: Optional[Vector] = None,
        params: Optional[AgentParams] = None,
        start_time: float = 0.0,
    ) -> int: ...
    def remove_agent(self, id: int) -> bool: ...
    def contains(self, id: int) -> bool: ...
    def __contains__(self, id: int) -> bool: ...
    def __len__(self) -> int: ...
    @property
    def agent_count(self) -> int: ...
    def position(self, id: int) -> tuple[float, ...]: ...
    def velocity(self, id: int) -> tuple[float, ...]: ...
    def preferred_velocity(self, id: int) -> tuple[float, ...]: ...
    def goal(self, id: int) -> Optional[tuple[float, ...]]: ...
    def has_arrived(self, id: int) -> bool: ...
    def set_goal(self, id: int, goal: Vector) -> None: ...
    def set_position(self, id: int, position: Vector) -> None: ...
    def set_preferred_velocity(self, id: int, velocity: Vector) -> None: ...
    def set_preferred_velocities(self, velocities: npt.ArrayLike) -> None: ...
    def add_agents(
        self,
        positions: npt.ArrayLike,
        *,
        goals: Optional[npt.ArrayLike] = None,
        params: Optional[AgentParams] = None,
    ) -> npt.NDArray[np.uint64]: ...
    def set_params_bulk(
        self,
        *,
        radius: Optional[npt.ArrayLike] = None,
        max_speed: Optional[npt.ArrayLike] = None,
        pref_speed: Optional[npt.ArrayLike] = None,
        neighbor_dist: Optional[npt.ArrayLike] = None,
        max_neighbors: Optional[npt.ArrayLike] = None,
        time_horizon: Optional[npt.ArrayLike] = None,
        time_horizon_obst: Optional[npt.ArrayLike] = None,
        goal_radius: Optional[npt.ArrayLike] = None,
    ) -> None: ...
    def params(self, id: int) -> AgentParams: ...
    def set_params(self, id: int, params: AgentParams) -> None: ...
    @property
    def positions(self) -> npt.NDArray[np.float32]: ...
    @property
    def velocities(self) -> npt.NDArray[np.float32]: ...
    @property
    def ids(self) -> npt.NDArray[np.uint64]: ...
    def step(self) -> None: ...
    def run(
        self,
        *,
        until: Optional[float] = None,
        steps: Optional[int] = None,
        callback: Optional[Callable[[Any], Optional[bool]]] = None,
        progress: Optional[bool] = None,
    ) -> int: ...
    @property
    def step_count(self) -> int: ...
    @property
    def time(self) -> float: ...
    @property
    def time_step(self) -> float: ...
    @property
    def arrived_count(self) -> int: ...
    @property
    def backend(self) -> str: ...
    @property
    def origin(self) -> tuple[float, float]: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def scenario_steps(self) -> int: ...
    def last_step_ms(self) -> float: ...
    def state_hash(self) -> int: ...
    def start_metrics(self) -> None: ...
    def metrics(self) -> dict[str, Any]: ...

class Simulator(_SimulatorBase):
    def add_obstacle(self, vertices: npt.ArrayLike) -> int: ...
    def add_circle(self, center: Vector, radius: float) -> int: ...
    def walkable_area_wkt(self, margin: float = 1.0) -> str: ...

class Simulator3(_SimulatorBase): ...

def builtin(
    name: str,
    *,
    agents: Optional[int] = None,
    seed: Optional[int] = None,
    steps: Optional[int] = None,
    backend: Backend = "cpu",
    threads: int = 0,
    exact_rvo2: bool = False,
    orca: bool = False,
    metrics: bool = True,
) -> Union[Simulator, Simulator3]: ...
def load(
    source: Union[str, "os.PathLike[str]", dict[str, Any]],
    *,
    seed: Optional[int] = None,
    steps: Optional[int] = None,
    backend: Backend = "cpu",
    threads: int = 0,
    exact_rvo2: bool = False,
    orca: bool = False,
    metrics: bool = True,
) -> Union[Simulator, Simulator3]: ...
def builtin_names() -> list[str]: ...
def describe_builtin(name: str) -> str: ...
def cuda_available() -> tuple[bool, str]: ...
