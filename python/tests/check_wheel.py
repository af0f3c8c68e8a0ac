"""CTest's python.wheel: pip makes a wheel of python/ offline (its in-tree backend, this build's
module), installs it into a folder of its own, and the installed package runs a scenario.

Usage: check_wheel.py BUILD_DIR WORK_DIR [--fresh]. BUILD_DIR configured already: the backend
only builds its module there (quick). --fresh: BUILD_DIR is removed first, so the backend
configures and builds the library as `pip install ./python` does on a clone (minutes; the CUDA
parts left out). Exit code 77 (a skip) where pip is missing.
"""

import os
import pathlib
import shutil
import subprocess
import sys

SKIP = 77
build, work = (pathlib.Path(a).resolve() for a in sys.argv[1:3])
fresh = "--fresh" in sys.argv[3:]
source = pathlib.Path(__file__).resolve().parents[1]  # python/

if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
    print(f"skipped: pip is not installed for {sys.executable} (Debian: apt-get install python3-pip)")
    sys.exit(SKIP)

shutil.rmtree(work, ignore_errors=True)
settings = ["--config-settings", f"build-dir={build}"]
if fresh:
    shutil.rmtree(build, ignore_errors=True)
    settings += ["--config-settings", "cmake-args=-DCROWD_CUDA=OFF"]
wheels, site = work / "wheels", work / "site"
pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
os.environ["PIP_ROOT_USER_ACTION"] = "ignore"  # CI runs as root; the target is a folder of its own.
# --no-index: nothing may come from a package index. build-dir: this build's module, built already.
subprocess.run([*pip, "wheel", "--no-index", "--no-build-isolation", "--no-deps", "-w", str(wheels), str(source),
                *settings], check=True)
made = sorted(wheels.glob("crowd-*.whl"))
assert len(made) == 1, made
subprocess.run([*pip, "install", "--no-index", "--no-deps", "--target", str(site), str(made[0])], check=True)

check = f"""
import pathlib, crowd
assert pathlib.Path(crowd.__file__).parent == pathlib.Path({str(site / 'crowd')!r}), crowd.__file__
assert (pathlib.Path(crowd.__file__).parent / "py.typed").exists()
assert (pathlib.Path(crowd.__file__).parent / "_crowd.pyi").exists()
sim = crowd.builtin("circle", agents=30, threads=1)
assert sim.run(steps=10) == 10 and sim.positions.shape == (30, 2)
print("crowd", crowd.__version__, "from the wheel", {made[0].name!r}, "ran 10 steps of 30 agents")
"""
# From the work folder, with only the installed copy on the path (not the build's).
subprocess.run([sys.executable, "-c", check], check=True, cwd=work, env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"})
