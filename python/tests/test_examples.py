"""The examples in python/examples run as a user runs them and do what their docstrings say."""

import csv
import re
import subprocess
import sys

from conftest import SOURCE_DIR

EXAMPLES = SOURCE_DIR / "python" / "examples"


def run_example(name, *args):
    return subprocess.run([sys.executable, str(EXAMPLES / name), *map(str, args)], capture_output=True,
                          text=True, timeout=300)


def test_circle_the_python_rvo2_way_gets_everyone_home():
    done = run_example("circle.py", "--agents", 250, "--radius", 200)
    assert done.returncode == 0, done.stdout + done.stderr
    reached = re.search(r"^(\d+) of (\d+) agents reached their goals in (\d+) steps", done.stdout, re.M)
    assert reached, done.stdout
    assert reached.group(1) == reached.group(2) == "250"
    # 400 m across at 1 m/s, with a crowd to cross in the middle: more than 1,600 steps of 0.25 s.
    assert int(reached.group(3)) > 1600


def test_evacuation_counts_everyone_out_and_writes_pedpy_columns(tmp_path):
    rows = tmp_path / "evacuation.csv"
    done = run_example("evacuation.py", "--agents", 60, "--until", 200, "--trajectories", rows)
    assert done.returncode == 0, done.stdout + done.stderr
    out = re.search(r"^(\d+) of (\d+) out after .* the metrics say (\d+) arrived", done.stdout, re.M)
    assert out, done.stdout
    assert out.group(1) == out.group(2) == out.group(3) == "60"
    with open(rows) as text:
        table = list(csv.DictReader(text))
    assert list(table[0]) == ["id", "frame", "x", "y"]
    frames = [int(row["frame"]) for row in table]
    assert frames == sorted(frames) and frames[0] == 0
    assert len({row["id"] for row in table if row["frame"] == "0"}) == 60  # Everyone at the start.
