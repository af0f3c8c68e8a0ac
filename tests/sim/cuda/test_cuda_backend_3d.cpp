// The CUDA backend in 3D worlds against the CPU backend: the same phases over the same 3D grid,
// the same K-nearest rule and the same steering (its state resident on the device), so the same
// bits. Skips, saying why, without a usable GPU.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario3.hpp>
#include <crowd/simulator3.hpp>

#include "require_gpu.hpp"
#include "sim/cuda/cuda_test_support.hpp"
#include "sim/steering/steered_swarm_3d.hpp"

namespace crowd {
namespace {

TEST(CudaBackend3d, AutoPicksTheGpuOnlyWhenThereIsOne) {
  test::expectAutoPicksTheGpuOnlyWhenThereIsOne<Simulator3>();
}

TEST(CudaBackend3d, ExplicitRequestWithoutDeviceFailsClearly) {
  test::expectExplicitRequestWithoutDeviceFailsClearly<Simulator3>("3D simulator");
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

// The steering state (wander directions, last seen targets) lives on the device between steps:
// a swarm steered by every 3D behaviour (arrive, seek with separation, wander, pursue and evade
// their targets) stays the CPU's, bit for bit, every step.
TEST(CudaBackend3d, SteeredSwarmMatchesTheCpuBackendStepByStep) {
  CROWD_REQUIRE_GPU();
  expectSameRun(test::steeredSwarm(2000, 3), 60);
}

// Between steps, on both backends alike: new behaviours (each restarts the agent's steering
// state), new and cleared targets, and removed agents, some of them others' targets.
void changeSteering(Simulator3& sim, std::size_t round) {
  static constexpr BehaviorKind kinds[] = {BehaviorKind::Arrive, BehaviorKind::Wander, BehaviorKind::Seek,
                                           BehaviorKind::Pursue, BehaviorKind::Evade,  BehaviorKind::Goal};
  const std::vector<AgentId> ids(sim.ids().begin(), sim.ids().end());
  const std::size_t n = ids.size();
  for (std::size_t i = round; i < n; i += 9) sim.setBehavior(ids[i], test::only(kinds[(i / 9 + round) % 6]));
  for (std::size_t i = 2 * round + 1; i < n; i += 13) {
    const AgentId target = ids[(i * 31 + 7) % n];
    if (target != ids[i]) sim.setTarget(ids[i], target);
  }
  for (std::size_t i = 3 * round + 2; i < n; i += 29) sim.setTarget(ids[i], std::nullopt);
  for (std::size_t k = 0; k < 15; ++k) sim.removeAgent(ids[(round * 101 + k * 127) % n]);
}

TEST(CudaBackend3d, SteeringChangedBetweenStepsMatchesTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  const Scenario3 scenario = test::steeredSwarm(2000, 3);
  Simulator3 cpu = makeSimulator3(scenario, 2, BackendKind::Cpu);
  Simulator3 gpu = makeSimulator3(scenario, 2, BackendKind::Cuda);
  for (std::size_t round = 0; round < 5; ++round) {
    if (round > 0) {
      changeSteering(cpu, round);
      changeSteering(gpu, round);
      ASSERT_EQ(cpu.agentCount(), gpu.agentCount()) << "round " << round;
      for (std::size_t i = 0; i < cpu.agentCount(); ++i) {
        ASSERT_EQ(cpu.ids()[i], gpu.ids()[i]);
        ASSERT_TRUE(cpu.target(cpu.ids()[i]) == gpu.target(gpu.ids()[i]))
            << "round " << round << " agent " << i;
        ASSERT_TRUE(cpu.behavior(cpu.ids()[i]) == gpu.behavior(gpu.ids()[i]))
            << "round " << round << " agent " << i;
      }
    }
    for (int s = 0; s < 12; ++s) {
      cpu.step();
      gpu.step();
      ASSERT_EQ(cpu.stateHash(), gpu.stateHash()) << "round " << round << " step " << s + 1;
    }
  }
}

}  // namespace
}  // namespace crowd
