// Determinism: the same scenario gives bit-identical states for any thread count, run after run.
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

TEST(Determinism, SeedChangesTheRandomScenario) {
  EXPECT_NE(hashAfter(builtinScenario("random", 200, 1), 2, 5), hashAfter(builtinScenario("random", 200, 2), 2, 5));
}

}  // namespace
}  // namespace crowd
