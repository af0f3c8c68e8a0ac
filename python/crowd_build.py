"""The package's build backend (PEP 517), in the tree, so that pip needs nothing from a package
index: ``pip install ./python`` or ``pip wheel ./python`` works offline.

It builds the module with the repository's own CMake project (the target _crowd, configured with
the Python module on and the tests, benchmarks and viewer off) and writes the wheel itself with
the standard library: the package's files, the module, and the .dist-info (METADATA, WHEEL,
RECORD with each file's sha256).

Settings (pip's ``--config-settings KEY=VALUE``, or the environment):
  build-dir (CROWD_WHEEL_BUILD_DIR): the CMake build folder; default ``build-wheel`` at the
      repository's root. One that is configured already is only built (the tests reuse theirs).
  cmake-args (CROWD_WHEEL_CMAKE_ARGS): more arguments for the configure step, space-separated.
The compiler cache is CMake's: CMAKE_CXX_COMPILER_LAUNCHER=ccache in the environment.
"""

from __future__ import annotations

import base64
import hashlib
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile

NAME = "crowd"
SUMMARY = "Large crowds simulated by ORCA on CPUs and GPUs (Python interface to the crowd library)"
HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
PACKAGE = HERE / "crowd"


def _version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"project\(crowd VERSION ([0-9.]+)", text)
    if not found:
        raise RuntimeError("crowd_build: no 'project(crowd VERSION ...)' in CMakeLists.txt")
    return found.group(1)


def _tag() -> str:
    """This interpreter's wheel tag: the module is built for it alone (cp311-cp311-linux_x86_64)."""
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python}-{python}{sys.abiflags}-{platform}"


def _setting(config_settings, key: str, variable: str) -> str | None:
    value = (config_settings or {}).get(key)
    return value if value is not None else os.environ.get(variable)


def _metadata() -> str:
    readme = (ROOT / "docs" / "python.md")
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {_version()}",
        f"Summary: {SUMMARY}",
        "License: Apache-2.0",
        "Requires-Python: >=3.8",
        "Requires-Dist: numpy",
        "Provides-Extra: pandas",
        "Requires-Dist: pandas; extra == \"pandas\"",
    ]
    if readme.exists():
        lines.append("Description-Content-Type: text/markdown")
        return "\n".join(lines) + "\n\n" + readme.read_text()
    return "\n".join(lines) + "\n"


def _wheel_file() -> str:
    return f"Wheel-Version: 1.0\nGenerator: crowd_build\nRoot-Is-Purelib: false\nTag: {_tag()}\n"


def _dist_info() -> str:
    return f"{NAME}-{_version()}.dist-info"


def _build_module(config_settings) -> pathlib.Path:
    """Configures (once) and builds the target _crowd; returns the module's path."""
    build = pathlib.Path(_setting(config_settings, "build-dir", "CROWD_WHEEL_BUILD_DIR") or ROOT / "build-wheel")
    build = build.resolve()
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("crowd_build: cmake is needed to build the module (apt-get install cmake)")
    if not (build / "CMakeCache.txt").exists():
        args = [cmake, "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", "-DCROWD_PYTHON=ON",
                "-DCROWD_TESTS=OFF", "-DCROWD_BENCHMARKS=OFF", "-DCROWD_VIEWER=OFF",
                f"-DPython_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        args += shlex.split(_setting(config_settings, "cmake-args", "CROWD_WHEEL_CMAKE_ARGS") or "")
        subprocess.run(args, check=True, stdout=sys.stderr)
    jobs = str(os.cpu_count() or 1)
    subprocess.run([cmake, "--build", str(build), "--target", "_crowd", "--parallel", jobs], check=True,
                   stdout=sys.stderr)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    module = build / "python" / "crowd" / f"_crowd{suffix}"
    if not module.exists():
        built = sorted((build / "python" / "crowd").glob("_crowd*"))
        raise RuntimeError(f"crowd_build: {module} was not built (found: {[str(b) for b in built]}); the build "
                           f"folder may be for another Python than {sys.executable}")
    return module


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


# --- PEP 517 hooks ---------------------------------------------------------------------------


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = pathlib.Path(metadata_directory) / _dist_info()
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata())
    (info / "WHEEL").write_text(_wheel_file())
    return info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    module = _build_module(config_settings)
    files: list[tuple[str, bytes]] = []
    for source in sorted(PACKAGE.iterdir()):
        if source.is_file() and source.suffix in (".py", ".pyi", ".typed"):
            files.append((f"{NAME}/{source.name}", source.read_bytes()))
    files.append((f"{NAME}/{module.name}", module.read_bytes()))
    info = _dist_info()
    files.append((f"{info}/METADATA", _metadata().encode()))
    files.append((f"{info}/WHEEL", _wheel_file().encode()))
    files.append((f"{info}/top_level.txt", f"{NAME}\n".encode()))
    licence = ROOT / "LICENSE"
    if licence.exists():
        files.append((f"{info}/LICENSE", licence.read_bytes()))
    record = [_record_line(path, data) for path, data in files] + [f"{info}/RECORD,,"]
    name = f"{NAME}-{_version()}-{_tag()}.whl"
    target = pathlib.Path(wheel_directory) / name
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files:
            entry = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr = (0o755 if path.endswith(module.suffix) else 0o644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
        wheel.writestr(zipfile.ZipInfo(f"{info}/RECORD", date_time=(1980, 1, 1, 0, 0, 0)),
                       "\n".join(record) + "\n")
    return name


def build_sdist(sdist_directory, config_settings=None):
    # The package's source is the whole repository (the C++ library it binds), not this folder.
    raise RuntimeError("crowd_build: no source distribution; build a wheel from a clone of the repository "
                       "(pip wheel ./python)")
