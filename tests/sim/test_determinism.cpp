// Determinism of the planar world's features: every built-in that turns one on gives one state for
// any thread count (the plain built-ins of both worlds: StepWorlds.SameStateForAnyThreadCount in
// test_step.cpp), and the seed matters.
#include <cstdint>
#include <utility>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

#include "sim/worlds.hpp"

namespace crowd {
namespace {

std::uint64_t hashAfter(const Scenario& scenario, int threads, int steps) {
  return test::hashAfter<test::Planar>(scenario, threads, steps);
}

TEST(Determinism, EveryBuiltinWithEveryFeatureGivesOneStateForAnyThreadCount) {
  // Steering (wander's draws included), pursuit, map routes with re-planning, the Frenet planner
  // and obstacles: each built-in that turns a feature on, at a size that keeps every thread busy.
  for (const auto& [name, agents] :
       {std::pair{"mix", 1500}, std::pair{"pursuit", 200}, std::pair{"pathloop", 60},
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
  EXPECT_NE(hashAfter(builtinScenario("random", 200, 1), 2, 5),
            hashAfter(builtinScenario("random", 200, 2), 2, 5));
}

}  // namespace
}  // namespace crowd
