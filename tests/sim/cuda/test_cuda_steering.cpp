// Steering on the CUDA backend against the CPU backend, behaviour by behaviour. The per-agent
// maths is the same code on both (kernels/steering.hpp), so runs must agree to rounding. Every
// test skips, saying why, without a GPU.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>

#include "require_gpu.hpp"
#include "sim/cuda/cuda_test_support.hpp"
#include "steering_test_helpers.hpp"

namespace crowd {
namespace {

using test::behaviorOf;

// A 10 x 10 block of agents, every other one given `behavior`, the rest heading across; circles
// and a wall in the way; agent i targets agent (i + 37) % 100 when `targets` is set.
Scenario mixedScene(const Behavior& behavior, bool targets) {
  Scenario scenario;
  scenario.name = "cuda steering";
  scenario.paths.push_back(PathSpec{{{-20, -20}, {20, -20}, {25, 10}, {0, 25}, {-25, 10}}, true});
  scenario.circles.push_back(CircleSpec{{5, 5}, 2.0f});
  scenario.circles.push_back(CircleSpec{{-8, 3}, 1.5f});
  scenario.obstacles.push_back({{30, -5}, {32, -5}, {32, 5}, {30, 5}});
  for (int i = 0; i < 100; ++i) {
    AgentDef a;
    a.position = Vec2(-15.0f + 3.0f * static_cast<float>(i % 10), -15.0f + 3.0f * static_cast<float>(i / 10));
    a.goal = Vec2(-a.position.y, a.position.x);
    a.params.radius = 0.5f;
    if (i % 2 == 0) a.behavior = behavior;
    if (targets) a.target = AgentId{static_cast<std::uint32_t>((i + 37) % 100), 0};
    scenario.agents.push_back(a);
  }
  return scenario;
}

void expectSameRun(const Scenario& scenario, const char* what, int steps = 300) {
  Simulator cpu = makeSimulator(scenario, 0, BackendKind::Cpu);
  Simulator gpu = makeSimulator(scenario, 0, BackendKind::Cuda);
  double worst = 0;
  std::size_t identical = 0, compared = 0;
  for (int s = 0; s < steps; ++s) {
    cpu.step();
    gpu.step();
    ASSERT_EQ(cpu.agentCount(), gpu.agentCount()) << what << " step " << s;
    for (std::size_t i = 0; i < cpu.agentCount(); ++i) {
      const Vec2 a = cpu.positions()[i];
      const Vec2 b = gpu.positions()[i];
      identical += a == b;
      ++compared;
      worst = std::max(worst, static_cast<double>(length(a - b)));
    }
  }
  std::printf("[ cuda ] %s: %zu of %zu positions bitwise identical, largest difference %.3g\n", what,
              identical, compared, worst);
  EXPECT_LT(worst, 1e-3) << what;
}

TEST(CudaSteering, EachBehaviourMatchesTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  for (int k = 1; k < kBehaviorKindCount; ++k) {
    const auto kind = static_cast<BehaviorKind>(k);
    Behavior b = behaviorOf({kind});
    if (kind == BehaviorKind::FollowPath) b.path = 0;
    expectSameRun(mixedScene(b, true), kBehaviorNames[k]);
  }
}

TEST(CudaSteering, PursuitKindsMatchTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  for (int k = 0; k < kPursuitKindCount; ++k) {
    Behavior b = behaviorOf({BehaviorKind::Pursue});
    b.pursuit = static_cast<PursuitKind>(k);
    expectSameRun(mixedScene(b, true), kPursuitNames[k]);
  }
}

TEST(CudaSteering, CombinationsWithoutOrcaMatchTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  Behavior sum = behaviorOf(
      {BehaviorKind::Seek, BehaviorKind::AvoidObstacles, BehaviorKind::Separation, BehaviorKind::Wander});
  sum.avoidance = AvoidanceMode::None;
  expectSameRun(mixedScene(sum, false), "seek+avoid+separation+wander, no ORCA");
  Behavior priority = behaviorOf({BehaviorKind::AvoidObstacles, BehaviorKind::Evade, BehaviorKind::Arrive});
  priority.combine = CombineRule::Priority;
  expectSameRun(mixedScene(priority, true), "avoid > evade > arrive");
}

TEST(CudaSteering, SteeringBuiltinsMatchTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  for (const char* name : {"pursuit", "pathloop", "forest", "lanes"}) {
    expectSameRun(builtinScenario(name, std::nullopt, 3), name);
  }
  expectSameRun(builtinScenario("mix", 2000, 3), "mix", 100);
}

// Planner vehicles on both backends until they arrive and are removed (which re-uploads the
// state, tracks included), the same plans costed at every step.
TEST(CudaSteering, PlannersMatchTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  const Scenario scenario = builtinScenario("lanes", 24, 3);
  Simulator cpu = makeSimulator(scenario, 0, BackendKind::Cpu);
  Simulator gpu = makeSimulator(scenario, 0, BackendKind::Cuda);
  double worst = 0;
  for (std::int64_t s = 0; s < scenario.steps && cpu.agentCount() > 0; ++s) {
    cpu.step();
    gpu.step();
    ASSERT_EQ(cpu.agentCount(), gpu.agentCount()) << "step " << s;
    ASSERT_EQ(cpu.lastPlanCandidates(), gpu.lastPlanCandidates()) << "step " << s;
    worst = std::max(worst, test::largestPositionDifference(cpu, gpu));
  }
  std::printf("[ cuda ] lanes: largest position difference %.3g until all arrived\n", worst);
  EXPECT_EQ(cpu.agentCount(), 0u) << "every vehicle arrived";
  EXPECT_LT(worst, 1e-3);
}

// Routed agents (their own routes, segments chosen by line of sight) on both backends.
TEST(CudaSteering, NavigationBuiltinsMatchTheCpuBackend) {
  CROWD_REQUIRE_GPU();
  expectSameRun(builtinScenario("evacuation", 400, 3), "evacuation", 400);
  expectSameRun(builtinScenario("maze", 60, 3), "maze", 400);
}

// Behaviour and target changes between steps reach the device, and a removed target is dropped.
TEST(CudaSteering, ChangesBetweenStepsApplyOnTheDevice) {
  CROWD_REQUIRE_GPU();
  const Scenario scenario = mixedScene(behaviorOf({BehaviorKind::Pursue}), true);
  Simulator cpu = makeSimulator(scenario, 0, BackendKind::Cpu);
  Simulator gpu = makeSimulator(scenario, 0, BackendKind::Cuda);
  for (Simulator* sim : {&cpu, &gpu}) {
    for (int s = 0; s < 20; ++s) sim->step();
    const std::vector<AgentId> ids(sim->ids().begin(), sim->ids().end());
    Behavior wander = behaviorOf({BehaviorKind::Wander});
    sim->setBehavior(ids[3], wander);
    sim->setTarget(ids[4], ids[90]);
    sim->removeAgent(ids[41]);  // Agent 4's old target... and someone else's.
    for (int s = 0; s < 40; ++s) sim->step();
  }
  ASSERT_EQ(cpu.agentCount(), gpu.agentCount());
  EXPECT_LT(test::largestPositionDifference(cpu, gpu), 1e-3);
}

}  // namespace
}  // namespace crowd
