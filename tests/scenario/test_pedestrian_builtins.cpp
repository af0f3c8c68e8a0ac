// The pedestrian built-ins: `walkway` (a one-way crowd at 2 P/m^2 in a 10 m walkway) and
// `doorway` (a room emptying through a 1 m door), with the pedestrian preset and the CSM: they
// start without overlaps or warnings, the walkway's crowd walks slower than alone, and the room
// empties with nobody pressed into anybody.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>

namespace crowd {
namespace {

TEST(PedestrianBuiltins, StartWithPeopleApartAndInsideTheWalls) {
  for (const char* name : {"walkway", "doorway"}) {
    for (const std::size_t count : {std::size_t{1}, std::size_t{37}, std::size_t{600}}) {
      const Scenario scenario = builtinScenario(name, count, 2);
      ASSERT_EQ(scenario.agents.size(), count) << name;
      EXPECT_TRUE(scenario.warnings.empty()) << name << ": " << scenario.warnings.front();
      EXPECT_EQ(scenario.timeStep, kPedestrianTimeStep);
      for (const AgentDef& agent : scenario.agents) {
        EXPECT_EQ(agent.behavior.avoidance, AvoidanceMode::Csm);
        EXPECT_EQ(agent.params.radius, kPedestrianParams.radius);
      }
    }
  }
}

TEST(PedestrianBuiltins, TheWalkwayCrowdIsSlowerThanAWalkerAlone) {
  Simulator sim = makeSimulator(builtinScenario("walkway", 400, 1), 2);
  for (int s = 0; s < 100; ++s) sim.step();
  double sum = 0;
  for (const Vec2 v : sim.velocities()) sum += length(v);
  const double mean = sum / static_cast<double>(sim.agentCount());
  EXPECT_LT(mean, 1.2);  // 2 P/m^2: Weidmann's walkers go at 0.61 m/s.
  EXPECT_GT(mean, 0.3);
}

TEST(PedestrianBuiltins, TheDoorwayEmptiesWithoutCrushing) {
  const Scenario scenario = builtinScenario("doorway", 120, 1);
  Simulator sim = makeSimulator(scenario, 2);
  float closest = 1e9f;
  std::int64_t steps = 0;
  while (sim.agentCount() > 0 && steps < scenario.steps) {
    sim.step();
    ++steps;
    const auto positions = sim.positions();
    for (std::size_t i = 0; i < positions.size(); ++i) {
      for (std::size_t j = i + 1; j < positions.size(); ++j)
        closest = std::min(closest, length(positions[i] - positions[j]));
    }
  }
  EXPECT_EQ(sim.agentCount(), 0u) << "after " << steps << " steps";
  EXPECT_GE(closest, 0.8f * 0.4f);  // No pair closer than 0.8 of the combined radii.
}

}  // namespace
}  // namespace crowd
