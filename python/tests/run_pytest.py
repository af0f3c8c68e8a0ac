"""CTest's entry to the Python tests (python.pytest): pytest on this folder, or a skip, with the
reason, where pytest or NumPy is missing (exit code 77, CTest's SKIP_RETURN_CODE)."""

import pathlib
import sys

SKIP = 77

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as missing:
    print(f"skipped: {missing.name} is not installed for {sys.executable} "
          "(Debian: apt-get install python3-pytest python3-numpy python3-pandas)")
    sys.exit(SKIP)

here = pathlib.Path(__file__).resolve().parent
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", str(here), str(here), *sys.argv[1:]]))
