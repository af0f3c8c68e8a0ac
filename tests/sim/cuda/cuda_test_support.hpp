// What the CUDA backend's tests check alike in both worlds (test_cuda_backend.cpp and
// test_cuda_steering.cpp for the plane, test_cuda_backend_3d.cpp for 3D): how a simulator picks
// or refuses the GPU backend, and how far its run is from the CPU backend's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include <crowd/simulator.hpp>

namespace crowd::test {

/// The automatic choice takes the GPU backend exactly when a usable device is present.
template <class Sim>
void expectAutoPicksTheGpuOnlyWhenThereIsOne() {
  SimulatorConfig config;
  config.backend = BackendKind::Auto;
  const Sim sim(config);
  EXPECT_EQ(sim.backendName(), cudaBackendAvailable() ? "cuda" : "cpu");
}

/// Without a usable device, asking for the CUDA backend throws, naming the reason; `what` names
/// the simulator in the failure message. Skips where a usable device is present.
template <class Sim>
void expectExplicitRequestWithoutDeviceFailsClearly(const char* what) {
  std::string why;
  if (cudaBackendAvailable(&why)) GTEST_SKIP() << "a usable GPU is present; nothing to refuse";
  EXPECT_FALSE(why.empty());
  SimulatorConfig config;
  config.backend = BackendKind::Cuda;
  try {
    Sim sim(config);
    FAIL() << "constructing a CUDA " << what << " without a device must throw";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(why), std::string::npos) << error.what();
  }
}

/// The largest distance between an agent's position on one backend and on the other (the same
/// agents in the same order).
template <class Sim>
double largestPositionDifference(const Sim& cpu, const Sim& gpu) {
  double worst = 0;
  for (std::size_t i = 0; i < cpu.agentCount(); ++i) {
    worst = std::max(worst, static_cast<double>(length(cpu.positions()[i] - gpu.positions()[i])));
  }
  return worst;
}

}  // namespace crowd::test
