// Every built-in scenario, at every size from 2 agents up, gets everyone who has a goal to it
// within its own step budget: no symmetric deadlock (the circle of 4 to 50 agents used to stall
// for good), no crowd too slow for its budget. The steering built-ins keep their promises too:
// every pursuer catches its evader, followers keep to their loop, nobody enters a post.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

namespace crowd {
namespace {

struct Arrivals {
  std::size_t arrived = 0;
  std::size_t withGoal = 0;  // Pursuers, wanderers and followers have none.
  std::int64_t steps = 0;
};

Arrivals runToArrival(const Scenario& scenario) {
  Simulator sim = makeSimulator(scenario, 2);
  MetricsCollector metrics(false);
  metrics.observe(sim);
  for (std::int64_t s = 0; s < scenario.steps && metrics.result().arrived < metrics.result().agentsWithGoal;
       ++s) {
    sim.step();
    metrics.observe(sim);
  }
  return Arrivals{metrics.result().arrived, metrics.result().agentsWithGoal, sim.stepCount()};
}

class BuiltinArrivals : public testing::TestWithParam<std::string> {};

TEST_P(BuiltinArrivals, EveryoneArrivesAtEverySize) {
  for (const std::size_t agents : {2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 25, 33, 40, 50, 64, 80, 100, 160}) {
    const Scenario scenario = builtinScenario(GetParam(), agents, 7);
    const Arrivals result = runToArrival(scenario);
    EXPECT_GT(result.withGoal, 0u) << GetParam() << " with " << agents << " agents";
    EXPECT_EQ(result.arrived, result.withGoal) << GetParam() << " with " << agents << " agents, after "
                                               << result.steps << " of " << scenario.steps << " steps";
  }
}

// pathloop has no goals (its vehicles lap for ever); it is checked below.
INSTANTIATE_TEST_SUITE_P(AllBuiltins, BuiltinArrivals,
                         testing::Values("circle", "crossing", "corridor", "bottleneck", "random", "pursuit",
                                         "forest", "mix"),
                         [](const testing::TestParamInfo<std::string>& param) { return param.param; });

// The 3D built-ins too: `sphere` of 4, 6 or 12 agents, antipodal pairs meeting head-on from
// rest, stood off for good before 3D worlds broke deadlocks.
TEST(BuiltinArrivals3d, EveryoneArrivesAtEverySize) {
  for (const char* name : {"sphere", "swarm"}) {
    for (const std::size_t agents : {2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 25, 33, 40, 50, 64, 80, 100, 160}) {
      const Scenario3 scenario = builtinScenario3(name, agents, 7);
      Simulator3 sim = makeSimulator3(scenario, 2);
      MetricsCollector metrics(false);
      metrics.observe(sim);
      while (sim.stepCount() < scenario.steps && metrics.result().arrived < metrics.result().agentsWithGoal) {
        sim.step();
        metrics.observe(sim);
      }
      EXPECT_EQ(metrics.result().arrived, agents) << name << " with " << agents << " agents, after "
                                                  << sim.stepCount() << " of " << scenario.steps << " steps";
    }
  }
}

/// Runs the whole budget, or until `done` says so.
template <typename Done>
RunMetrics runBudget(const Scenario& scenario, bool contacts, Done done) {
  Simulator sim = makeSimulator(scenario, 2);
  MetricsCollector metrics(contacts);
  metrics.observe(sim);
  for (std::int64_t s = 0; s < scenario.steps && !done(metrics.result()); ++s) {
    sim.step();
    metrics.observe(sim);
  }
  return metrics.result();
}

bool everyPursuerCaught(const RunMetrics& m) {
  for (const CaptureStats& c : m.captures) {
    if (c.caught < c.pursuers) return false;
  }
  return true;
}

TEST(SteeringBuiltinRuns, EveryPursuerCatchesItsEvader) {
  for (const std::size_t agents : {2, 3, 4, 5, 8, 13, 60, 160}) {
    for (const std::uint64_t seed : {1u, 7u}) {
      const RunMetrics m = runBudget(builtinScenario("pursuit", agents, seed), false, everyPursuerCaught);
      for (int k = 0; k < kPursuitKindCount; ++k) {
        const CaptureStats& c = m.captures[static_cast<std::size_t>(k)];
        EXPECT_EQ(c.caught, c.pursuers) << kPursuitNames[k] << " with " << agents << " agents, seed " << seed;
      }
      // Evader and pursuer pairs: every other agent pursues.
      EXPECT_EQ(m.captures[0].pursuers + m.captures[1].pursuers + m.captures[2].pursuers, agents / 2);
    }
  }
  // Intercept, aiming where the evader is going, cuts it off; chase and sight, running at where
  // it is, fall in behind the faster evader and catch it only at its goal.
  const RunMetrics m = runBudget(builtinScenario("pursuit"), false, everyPursuerCaught);
  const double chase = m.captures[static_cast<int>(PursuitKind::Chase)].meanTime;
  const double sight = m.captures[static_cast<int>(PursuitKind::Sight)].meanTime;
  const double intercept = m.captures[static_cast<int>(PursuitKind::Intercept)].meanTime;
  EXPECT_LT(intercept, 0.75 * sight);
  EXPECT_LT(intercept, 0.75 * chase);
}

TEST(SteeringBuiltinRuns, ForestAgentsNeverEnterAPost) {
  for (const AvoidanceMode mode : {AvoidanceMode::None, AvoidanceMode::Orca}) {
    for (const std::size_t agents : {10, 60}) {
      Scenario scenario = builtinScenario("forest", agents, 3);
      for (AgentDef& agent : scenario.agents) agent.behavior.avoidance = mode;
      const RunMetrics m =
          runBudget(scenario, true, [](const RunMetrics& r) { return r.arrived == r.agentsWithGoal; });
      const char* with = mode == AvoidanceMode::Orca ? "ORCA" : "the box alone";
      EXPECT_EQ(m.arrived, agents) << agents << " agents with " << with;
      EXPECT_EQ(m.penetrations, 0) << agents << " agents with " << with;
      if (mode == AvoidanceMode::Orca) {
        EXPECT_EQ(m.collisions, 0) << agents << " agents";
      }
    }
  }
}

TEST(SteeringBuiltinRuns, PathLoopFollowersKeepToTheirLoop) {
  for (const std::size_t agents : {12, 100}) {
    const RunMetrics m =
        runBudget(builtinScenario("pathloop", agents), true, [](const RunMetrics&) { return false; });
    EXPECT_EQ(m.paths.followers, agents);
    EXPECT_LT(m.paths.meanDistance, 2.0) << agents << " agents";  // The scenario's pathRadius.
    EXPECT_GE(m.paths.withinRadius, 0.95) << agents << " agents";
    EXPECT_EQ(m.collisions, 0) << agents << " agents";
  }
}

TEST(SteeringBuiltinRuns, MixKeepsOffThePostsWithinMaxSpeed) {
  Scenario scenario = builtinScenario("mix", 600, 5);
  scenario.steps = 400;
  const RunMetrics m = runBudget(scenario, true, [](const RunMetrics&) { return false; });
  EXPECT_EQ(m.penetrations, 0);
  EXPECT_LE(m.maxSpeedRatio, 1.0);
  EXPECT_GT(m.arrived, 0u);
  EXPECT_GT(m.paths.followers, 0u);
  EXPECT_TRUE(m.hasPursuers());
}

}  // namespace
}  // namespace crowd
