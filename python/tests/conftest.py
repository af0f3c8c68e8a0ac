"""What the Python tests share: the crowdsim program they compare with, and the sources' paths.

CTest (tests/CMakeLists.txt, python.pytest) sets CROWDSIM and CROWD_SOURCE_DIR and puts the built
package first on PYTHONPATH.
"""

import os
import pathlib
import subprocess

import numpy as np
import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("CROWD_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def crowdsim():
    """Runs crowdsim with the given arguments; returns the completed process (text output)."""
    program = os.environ.get("CROWDSIM")
    if not program:
        pytest.skip("CROWDSIM (the crowdsim program to compare with) is not set")

    def run(*args, check=True):
        return subprocess.run([program, *map(str, args)], capture_output=True, text=True, check=check)

    return run


def read_trajectory_csv(path):
    """crowdsim's --out CSV (step,agent,x,y,vx,vy,time) as {step: (agents, x, y)}, x and y float32.

    The CSV prints 9 significant digits, which give back the float32 a position was (the scene's
    origin being 0, the written double is that float exactly).
    """
    rows = np.loadtxt(path, delimiter=",", skiprows=1, dtype=str)
    steps = rows[:, 0].astype(np.int64)
    out = {}
    for step in np.unique(steps):
        mine = rows[steps == step]
        agents = mine[:, 1].astype(np.int64)
        x = np.array([np.float32(float(t)) for t in mine[:, 2]], dtype=np.float32)
        y = np.array([np.float32(float(t)) for t in mine[:, 3]], dtype=np.float32)
        out[int(step)] = (agents, x, y)
    return out
