// Determinism: the same scenario gives bit-identical states for any thread count, run after run.
#include <utility>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

namespace crowd {
namespace {

std::uint64_t hashAfter(const Scenario& scenario, int threads, int steps) {
  Simulator sim = makeSimulator(scenario, threads);
  for (int s = 0; s < steps; ++s) sim.step();
  return sim.stateHash();
}

TEST(Determinism, SameStateForOneTwoAndFourThreads) {
  for (const char* name : {"random", "bottleneck", "crossing"}) {
    const Scenario scenario = builtinScenario(name, 600, 5);
    const std::uint64_t one = hashAfter(scenario, 1, 60);
    EXPECT_EQ(hashAfter(scenario, 2, 60), one) << name;
    EXPECT_EQ(hashAfter(scenario, 4, 60), one) << name;
    EXPECT_EQ(hashAfter(scenario, 4, 60), one) << name << " (second run)";
  }
}

TEST(Determinism, EveryBuiltinWithEveryFeatureGivesOneStateForAnyThreadCount) {
  // Steering (wander's draws included), pursuit, map routes with re-planning, the Frenet planner
  // and obstacles: each built-in that turns a feature on, at a size that keeps every thread busy.
  for (const auto& [name, agents] : {std::pair{"mix", 1500}, std::pair{"pursuit", 200}, std::pair{"pathloop", 60},
                                     std::pair{"forest", 300}, std::pair{"evacuation", 600}, std::pair{"lanes", 24},
                                     std::pair{"maze", 200}}) {
    const Scenario scenario = builtinScenario(name, agents, 11);
    const std::uint64_t one = hashAfter(scenario, 1, 40);
    EXPECT_EQ(hashAfter(scenario, 2, 40), one) << name;
    EXPECT_EQ(hashAfter(scenario, 3, 40), one) << name;
    EXPECT_EQ(hashAfter(scenario, 4, 40), one) << name;
  }
}

TEST(Determinism, SeedChangesTheRandomScenario) {
  EXPECT_NE(hashAfter(builtinScenario("random", 200, 1), 2, 5), hashAfter(builtinScenario("random", 200, 2), 2, 5));
}

}  // namespace
}  // namespace crowd
