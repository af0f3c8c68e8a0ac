// Every built-in scenario, at every size from 2 agents up, gets everyone to their goal within
// its own step budget: no symmetric deadlock (the circle of 4 to 50 agents used to stall for
// good), no crowd too slow for its budget.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>

namespace crowd {
namespace {

struct Arrivals {
  std::size_t arrived = 0;
  std::int64_t steps = 0;
};

Arrivals runToArrival(const Scenario& scenario) {
  Simulator sim = makeSimulator(scenario, 2);
  MetricsCollector metrics(false);
  metrics.observe(sim);
  for (std::int64_t s = 0; s < scenario.steps && metrics.result().arrived < metrics.result().agentsWithGoal; ++s) {
    sim.step();
    metrics.observe(sim);
  }
  return Arrivals{metrics.result().arrived, sim.stepCount()};
}

class BuiltinArrivals : public testing::TestWithParam<std::string> {};

TEST_P(BuiltinArrivals, EveryoneArrivesAtEverySize) {
  for (const std::size_t agents : {2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 25, 33, 40, 50, 64, 80, 100, 160}) {
    const Scenario scenario = builtinScenario(GetParam(), agents, 7);
    const Arrivals result = runToArrival(scenario);
    EXPECT_EQ(result.arrived, agents) << GetParam() << " with " << agents << " agents, after " << result.steps
                                      << " of " << scenario.steps << " steps";
  }
}

INSTANTIATE_TEST_SUITE_P(AllBuiltins, BuiltinArrivals,
                         testing::Values("circle", "crossing", "corridor", "bottleneck", "random"),
                         [](const testing::TestParamInfo<std::string>& param) { return param.param; });

}  // namespace
}  // namespace crowd
