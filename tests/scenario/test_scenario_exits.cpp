// Exits in a scenario (route's exitChoice and exitHours): people leave a jammed exit for a free
// one when queues count and keep the nearer one when they do not, an exit that opens late is
// not used before it opens, and bad values are refused naming their place.
#include <string>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A 30 x 10 m hall of 1 m cells; 60 people stand in its west end, by the west exit, and the east
// exit is 25 m farther for all of them.
std::string hall(const std::string& route) {
  std::string rows = "[";
  for (int r = 0; r < 10; ++r) rows += std::string(r ? ", " : "") + "\"" + std::string(30, '.') + "\"";
  rows += "]";
  return R"({"preset": "pedestrian", "map": {"rows": )" + rows + R"(}, "route": )" + route + R"(,
      "groups": [{"type": "rectangle", "count": 60, "min": [2, 1], "max": [5, 9],
                  "exits": [[0.5, 5], [29.5, 5]]}]})";
}

// How many agents have each exit as their goal after `steps` steps.
std::pair<int, int> goalsAfter(const Scenario& scenario, int steps) {
  Simulator sim = makeSimulator(scenario, 2);
  for (int s = 0; s < steps; ++s) sim.step();
  int west = 0, east = 0;
  for (const AgentId id : sim.ids()) {
    const std::optional<Vec2> goal = sim.goal(id);
    if (!goal) continue;
    const Vec2 world = Vec2(glm::dvec2(*goal) + sim.config().origin);
    (world.x < 15.0f ? west : east) += 1;
  }
  return {west, east};
}

TEST(ScenarioExits, QueuesSendSomeToTheFartherExit) {
  const auto [westNearest, eastNearest] = goalsAfter(parseScenario(hall("{}"), "hall.json"), 1);
  EXPECT_EQ(westNearest, 60);
  EXPECT_EQ(eastNearest, 0);
  // 60 people at 1.3 per second: the last waits 45 s at the west exit, and the east one is
  // under 20 s farther. Those at the back of the queue go east, but not the front.
  const auto [west, east] = goalsAfter(
      parseScenario(hall(R"({"exitChoice": {"rule": "queue", "exitFlow": 1.3}})"), "hall.json"), 1);
  EXPECT_GT(east, 10);
  EXPECT_GT(west, 20);
}

TEST(ScenarioExits, AnExitThatOpensLateIsNotUsedBeforeIt) {
  const Scenario scenario =
      parseScenario(hall(R"({"exitHours": [{"at": [0.5, 5], "opens": 2}]})"), "hall.json");
  const double dt = scenario.timeStep;
  const int before = static_cast<int>(1.0 / dt), after = static_cast<int>(2.5 / dt);
  EXPECT_EQ(goalsAfter(scenario, before), std::make_pair(0, 60));  // Closed: all go east.
  EXPECT_EQ(goalsAfter(scenario, after), std::make_pair(60, 0));   // Open: the nearer again.
}

TEST(ScenarioExits, AnExitThatClosesSendsItsPeopleToAnother) {
  const Scenario scenario =
      parseScenario(hall(R"({"exitHours": [{"at": [0.5, 5], "closes": 1}]})"), "hall.json");
  EXPECT_EQ(goalsAfter(scenario, static_cast<int>(2.0 / scenario.timeStep)), std::make_pair(0, 60));
}

TEST(ScenarioExits, BadValuesNameTheirPlace) {
  EXPECT_TRUE(contains(scenarioErrorFor(hall(R"({"exitChoice": "shortest"})"), "h.json"),
                       "/route/exitChoice: unknown exit choice 'shortest'"));
  EXPECT_TRUE(contains(scenarioErrorFor(hall(R"({"exitChoice": {"exitFlow": 0}})"), "h.json"),
                       "/route/exitChoice/exitFlow: must be > 0"));
  EXPECT_TRUE(contains(
      scenarioErrorFor(hall(R"({"exitHours": [{"at": [0.5, 5], "opens": 5, "closes": 5}]})"), "h.json"),
      "/route/exitHours/0/closes: must be later than opens"));
  EXPECT_TRUE(contains(scenarioErrorFor(hall(R"({"exitHours": [{"at": [3, 3]}]})"), "h.json"),
                       "/route/exitHours/0/at: is not one of the exits"));
}

}  // namespace
}  // namespace crowd
