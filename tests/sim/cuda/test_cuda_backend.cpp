// The CUDA backend against the CPU backend. Tests that need a GPU skip, saying why, when this
// build has no CUDA backend or the machine no usable device; the error paths run everywhere.
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>

#include "require_gpu.hpp"
#include "sim/cuda/cuda_test_support.hpp"

namespace crowd {
namespace {

TEST(CudaBackend, ExplicitRequestWithoutDeviceFailsClearly) {
  test::expectExplicitRequestWithoutDeviceFailsClearly<Simulator>("simulator");
}

TEST(CudaBackend, AutoPicksTheGpuOnlyWhenThereIsOne) {
  test::expectAutoPicksTheGpuOnlyWhenThereIsOne<Simulator>();
}

// Random dense states with obstacles and mixed parameters, one step on each backend.
TEST(CudaBackend, OneStepMatchesTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::size_t agents = 0, identical = 0;
  double worst = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Scenario scenario;
    scenario.timeStep = 0.05f + 0.3f * unit(rng);
    const float side = 10.0f + 60.0f * unit(rng);
    if (trial % 2 == 1) {
      const float x = side * unit(rng), y = side * unit(rng);
      scenario.obstacles.push_back({{x, y}, {x + 6, y}, {x + 6, y + 3}, {x, y + 3}});
      scenario.obstacles.push_back(
          {{side * unit(rng), side * unit(rng)}, {side * unit(rng), side * unit(rng)}});
    }
    for (int i = 0; i < 300; ++i) {
      AgentDef def;
      def.position = Vec2(side * unit(rng), side * unit(rng));
      def.velocity = Vec2(4 * unit(rng) - 2, 4 * unit(rng) - 2);
      if (unit(rng) < 0.5f)
        def.goal = Vec2(side * unit(rng), side * unit(rng));
      else
        def.prefVelocity = Vec2(4 * unit(rng) - 2, 4 * unit(rng) - 2);
      def.params.radius = 0.2f + 1.3f * unit(rng);
      def.params.maxNeighbors = static_cast<int>(unit(rng) * 20.0f);
      def.params.neighborDist = 2.0f + 15.0f * unit(rng);
      scenario.agents.push_back(def);
    }
    Simulator cpu = makeSimulator(scenario, 0, BackendKind::Cpu);
    Simulator gpu = makeSimulator(scenario, 0, BackendKind::Cuda);
    cpu.step();
    gpu.step();
    for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
      const Vec2 a = cpu.velocities()[i];
      const Vec2 b = gpu.velocities()[i];
      ++agents;
      identical += a == b;
      worst = std::max(worst, static_cast<double>(length(a - b)));
    }
  }
  std::printf("[ cuda ] %zu agents, %zu bitwise identical, largest difference %.3g\n", agents, identical,
              worst);
  EXPECT_GE(static_cast<double>(identical), 0.99 * static_cast<double>(agents));
  EXPECT_LT(worst, 1e-3);
}

// 500 steps of a whole scenario on both backends: same arrivals, same contacts, same paths.
void expectSameRun(const char* name, std::size_t count) {
  const Scenario scenario = builtinScenario(name, count, 2);
  Simulator cpu = makeSimulator(scenario, 0, BackendKind::Cpu);
  Simulator gpu = makeSimulator(scenario, 0, BackendKind::Cuda);
  MetricsCollector cpuMetrics, gpuMetrics;
  cpuMetrics.observe(cpu);
  gpuMetrics.observe(gpu);
  double worst = 0;
  for (int s = 0; s < 500; ++s) {
    cpu.step();
    gpu.step();
    cpuMetrics.observe(cpu);
    gpuMetrics.observe(gpu);
    ASSERT_EQ(cpu.agentCount(), gpu.agentCount()) << name << " step " << s;
    for (std::size_t i = 0; i < cpu.agentCount(); ++i) {
      ASSERT_EQ(cpu.ids()[i], gpu.ids()[i]);
      worst = std::max(worst, static_cast<double>(length(cpu.positions()[i] - gpu.positions()[i])));
    }
  }
  std::printf("[ cuda ] %s: largest position difference over 500 steps %.3g\n", name, worst);
  EXPECT_LT(worst, 1e-3) << name;
  EXPECT_EQ(gpuMetrics.result().arrived, cpuMetrics.result().arrived) << name;
  EXPECT_EQ(gpuMetrics.result().collisions, cpuMetrics.result().collisions) << name;
  EXPECT_EQ(gpuMetrics.result().penetrations, 0) << name;
}

// Changes between steps apply to the newest state, which lives on the device after a step.
TEST(CudaBackend, WritesBetweenStepsApplyToTheNewestState) {
  CROWD_REQUIRE_GPU();
  const Scenario scenario = builtinScenario("random", 500, 4);
  Simulator cpu = makeSimulator(scenario, 0, BackendKind::Cpu);
  Simulator gpu = makeSimulator(scenario, 0, BackendKind::Cuda);
  for (Simulator* sim : {&cpu, &gpu}) {
    for (int s = 0; s < 3; ++s) sim->step();
    const std::vector<Vec2> wall{{0.0f, 0.0f}, {30.0f, 0.0f}};
    sim->addObstacle(wall);  // No read in between: the writer itself must sync.
    sim->setVelocity(sim->ids()[7], Vec2(1.0f, 1.0f));
    AgentDef extra;
    extra.position = Vec2(-5.0f, -5.0f);
    extra.goal = Vec2(5.0f, 5.0f);
    sim->addAgent(extra);
    for (int s = 0; s < 3; ++s) sim->step();
  }
  ASSERT_EQ(cpu.agentCount(), gpu.agentCount());
  EXPECT_LT(test::largestPositionDifference(cpu, gpu), 1e-4);
}

// A viewer draws the state straight from the device as soon as it is prepared, before any step:
// every column it reads, the profile table included, is there by then.
TEST(CudaBackend, DeviceStateIsCompleteBeforeTheFirstStep) {
  CROWD_REQUIRE_GPU();
  Simulator gpu = makeSimulator(builtinScenario("crossing", 300, 2), 0, BackendKind::Cuda);
  gpu.prepare();
  const DeviceAgents device = gpu.deviceAgents();
  ASSERT_EQ(device.count, gpu.agentCount());
  EXPECT_NE(device.position, nullptr);
  EXPECT_NE(device.velocity, nullptr);
  EXPECT_NE(device.profile, nullptr);
  EXPECT_NE(device.terms, nullptr) << "the profile table";
}

// A dense crowd (about 31 candidates per agent, K = 10): from its second step on the GPU keeps
// the neighbour lists in registers (the CUDA backend picks them above twice K candidates per
// agent), and the state stays the CPU's bit for bit.
TEST(CudaBackend, DenseCrowdMatchesTheCpuBackendStepByStep) {
  CROWD_REQUIRE_GPU();
  const Scenario scenario = builtinScenario("random", 20000, 5);
  Simulator cpu = makeSimulator(scenario, 0, BackendKind::Cpu);
  Simulator gpu = makeSimulator(scenario, 0, BackendKind::Cuda);
  for (int s = 0; s < 10; ++s) {
    cpu.step();
    gpu.step();
    ASSERT_EQ(cpu.stateHash(), gpu.stateHash()) << "step " << s + 1;
    EXPECT_GT(gpu.lastCandidatesPerAgent(), 20.0) << "step " << s + 1;
  }
}

TEST(CudaBackend, CircleRunMatchesTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  expectSameRun("circle", 250);
}

TEST(CudaBackend, BottleneckRunMatchesTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  expectSameRun("bottleneck", 200);
}

}  // namespace
}  // namespace crowd
