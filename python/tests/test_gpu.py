"""The CUDA backend from Python: skipped, with the reason, where there is none."""

import numpy as np
import pytest

import crowd

available, why = crowd.cuda_available()
pytestmark = pytest.mark.skipif(not available, reason=f"no CUDA backend: {why}")


def test_gpu_gives_the_cpu_result_bit_for_bit():
    cpu = crowd.builtin("circle", agents=500, backend="cpu", threads=1, metrics=False)
    gpu = crowd.builtin("circle", agents=500, backend="cuda", metrics=False)
    assert gpu.backend == "cuda"
    view = gpu.positions
    cpu.run(steps=20)
    gpu.run(steps=20)
    assert cpu.state_hash() == gpu.state_hash()
    # The view of the host copy follows the device's steps.
    assert view.tobytes() == cpu.positions.tobytes()
    np.testing.assert_array_equal(gpu.velocities, cpu.velocities)
