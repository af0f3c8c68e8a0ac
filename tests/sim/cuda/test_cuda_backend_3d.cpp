// The CUDA backend in 3D worlds against the CPU backend: the same phases over the same 3D grid
// and the same K-nearest rule, so the same bits. Skips, saying why, without a usable GPU.
#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "require_gpu.hpp"

#include <crowd/scenario3.hpp>
#include <crowd/simulator3.hpp>

namespace crowd {
namespace {

TEST(CudaBackend3d, AutoPicksTheGpuOnlyWhenThereIsOne) {
  SimulatorConfig config;
  config.backend = BackendKind::Auto;
  EXPECT_EQ(Simulator3(config).backendName(), cudaBackendAvailable() ? "cuda" : "cpu");
}

TEST(CudaBackend3d, ExplicitRequestWithoutDeviceFailsClearly) {
  std::string why;
  if (cudaBackendAvailable(&why)) GTEST_SKIP() << "a usable GPU is present; nothing to refuse";
  SimulatorConfig config;
  config.backend = BackendKind::Cuda;
  try {
    Simulator3 sim(config);
    FAIL() << "constructing a CUDA 3D simulator without a device must throw";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(why), std::string::npos) << error.what();
  }
}

// Positions, velocities and arrivals after every step, bit for bit. Returns the most candidates
// per agent a GPU step examined.
double expectSameRun(const Scenario3& scenario, int steps) {
  Simulator3 cpu = makeSimulator3(scenario, 2, BackendKind::Cpu);
  Simulator3 gpu = makeSimulator3(scenario, 2, BackendKind::Cuda);
  double most = 0.0;
  for (int s = 0; s < steps; ++s) {
    cpu.step();
    gpu.step();
    EXPECT_EQ(cpu.lastArrivals().size(), gpu.lastArrivals().size()) << scenario.name << " step " << s + 1;
    EXPECT_EQ(cpu.stateHash(), gpu.stateHash()) << scenario.name << " step " << s + 1;
    if (cpu.stateHash() != gpu.stateHash()) break;
    most = std::max(most, gpu.lastCandidatesPerAgent());
  }
  return most;
}

// The GPU keeps neighbour lists in registers after a step with more than twice K candidates per
// agent (K at most 16), else in local memory. Both built-ins become dense enough (K = 10), the
// sphere as it closes in, so their runs compare the register search; the random states below,
// whose agents keep up to 19, compare the other.
TEST(CudaBackend3d, BuiltinsMatchTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  EXPECT_GT(expectSameRun(builtinScenario3("sphere"), 300), 20.0);
  EXPECT_GT(expectSameRun(builtinScenario3("swarm", 5000, 3), 200), 20.0);
}

TEST(CudaBackend3d, RandomStatesMatchTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int trial = 0; trial < 20; ++trial) {
    Scenario3 scenario;
    scenario.name = "random " + std::to_string(trial);
    scenario.timeStep = 0.05f + 0.3f * unit(rng);
    const float side = 8.0f + 50.0f * unit(rng);
    for (int i = 0; i < 400; ++i) {
      AgentDef3 def;
      def.position = side * Vec3(unit(rng), unit(rng), unit(rng));
      def.velocity = Vec3(4 * unit(rng) - 2, 4 * unit(rng) - 2, 4 * unit(rng) - 2);
      def.goal = side * Vec3(unit(rng), unit(rng), unit(rng));
      def.params.radius = 0.2f + 1.3f * unit(rng);
      def.params.neighborDist = 2.0f + 15.0f * unit(rng);
      def.params.maxNeighbors = static_cast<int>(unit(rng) * 20.0f);
      scenario.agents.push_back(def);
    }
    expectSameRun(scenario, 5);
  }
}

}  // namespace
}  // namespace crowd
