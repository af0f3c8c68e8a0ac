// Who the people are, in scenario files: parameters and premovement times drawn per agent from
// distributions, start times of listed agents, speed zones, and the refusals, each placed.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

std::string groupWith(const std::string& keys, const std::string& top = "") {
  return R"({)" + top +
         R"( "seed": 5, "groups": [{"type": "rectangle", "count": 400, "min": [0, 0], "max": [40, 40],
    "goal": [100, 0], )" +
         keys + "}]}";
}

TEST(ScenarioPopulation, ParametersAreDrawnPerAgentAndRounded) {
  const Scenario scenario =
      parseScenario(groupWith(R"("prefSpeed": {"normal": [1.34, 0.26], "min": 0.5, "max": 2.0},
                   "radius": {"uniform": [0.15, 0.25]}, "startTime": {"uniform": [10, 100]})"),
                    "p.json");
  std::set<float> speeds;
  double mean = 0;
  for (const AgentDef& agent : scenario.agents) {
    const float v = agent.params.prefSpeed;
    EXPECT_GE(v, 0.5f);
    EXPECT_LE(v, 2.0f);
    EXPECT_NEAR(v * 100.0f, std::round(v * 100.0f), 1e-3f);  // To 1 cm/s: agents share profiles.
    EXPECT_GE(agent.params.radius, 0.15f);
    EXPECT_LE(agent.params.radius, 0.25f);
    EXPECT_GE(agent.startTime, 10.0f);
    EXPECT_LE(agent.startTime, 100.0f);
    speeds.insert(v);
    mean += v / 400.0;
  }
  EXPECT_NEAR(mean, 1.34, 0.04);
  EXPECT_GT(speeds.size(), 30u);
  // The same seed draws the same; another seed draws otherwise.
  const Scenario again = parseScenario(groupWith(R"("prefSpeed": {"uniform": [1, 2]})"), "a.json");
  const Scenario same = parseScenario(groupWith(R"("prefSpeed": {"uniform": [1, 2]})"), "b.json");
  EXPECT_EQ(again.agents[17].params.prefSpeed, same.agents[17].params.prefSpeed);
  const Scenario other =
      expandScenario(parseScenarioSpec(groupWith(R"("prefSpeed": {"uniform": [1, 2]})"), "c"), 6);
  int differing = 0;
  for (std::size_t i = 0; i < 400; ++i)
    differing += other.agents[i].params.prefSpeed != same.agents[i].params.prefSpeed;
  EXPECT_GT(differing, 300);
}

TEST(ScenarioPopulation, ADrawnSpeedSetsAFixedPreferredVelocitysLength) {
  const Scenario scenario = parseScenario(
      R"({"groups": [{"type": "rectangle", "count": 50, "min": [0, 0], "max": [10, 10], "prefVelocity": [3, 4],
                      "prefSpeed": {"weidmannAge": [20, 50]}}]})",
      "w.json");
  for (const AgentDef& agent : scenario.agents) {
    EXPECT_NEAR(length(agent.prefVelocity), agent.params.prefSpeed, 1e-5f);
    EXPECT_GE(agent.params.prefSpeed, 1.41f);
    EXPECT_LE(agent.params.prefSpeed, 1.60f);
    EXPECT_NEAR(agent.prefVelocity.y / agent.prefVelocity.x, 4.0f / 3.0f, 1e-5f);
  }
}

TEST(ScenarioPopulation, StartTimesAndSpeedZonesReachTheSimulator) {
  const Scenario scenario = parseScenario(
      R"({"agents": [{"position": [0, 0], "startTime": 12.5}],
          "groups": [{"type": "circle", "count": 3, "radius": 5, "startTime": 4}],
          "speedZones": [{"min": [0, 0], "max": [2, 10], "factor": 0.5},
                         {"polygon": [[5, 0], [9, 0], [7, 3]], "factor": 0.75}]})",
      "z.json");
  EXPECT_EQ(scenario.agents[0].startTime, 12.5f);
  EXPECT_EQ(scenario.agents[2].startTime, 4.0f);
  ASSERT_EQ(scenario.speedZones.size(), 2u);
  EXPECT_EQ(scenario.speedZones[0].polygon.size(), 4u);
  EXPECT_EQ(scenario.speedZones[1].factor, 0.75f);
  EXPECT_EQ(makeSimulator(scenario, 1).speedZoneCount(), 2u);
}

TEST(ScenarioPopulation, BadDistributionsAndZonesAreRefusedWhereTheyAreWritten) {
  expectScenarioError(groupWith(R"("prefSpeed": {"uniform": [2, 1]})"), "/groups/0/prefSpeed", "low <= high");
  expectScenarioError(groupWith(R"("prefSpeed": {"uniform": [1, 2], "min": 0})"), "/groups/0/prefSpeed",
                      "\"min\" and \"max\" clip a normal's draws");
  expectScenarioError(groupWith(R"("prefSpeed": {"normal": [1.3, 0.2]})"), "/groups/0/prefSpeed",
                      "a normal needs finite \"min\" <= \"max\"");
  expectScenarioError(groupWith(R"("prefSpeed": {"uniform": [1, 2], "normal": [1, 1]})"),
                      "/groups/0/prefSpeed", "give one distribution");
  expectScenarioError(groupWith(R"("radius": {"uniform": [1, 20000]})"), "/groups/0/radius",
                      "draws 20000, which must be <= 10000 (the radius limit)");
  expectScenarioError(groupWith(R"("startTime": -3)"), "/groups/0/startTime", "must be >= 0");
  expectScenarioError(
      groupWith(R"("maxSpeed": 2)", R"("speedZones": [{"min": [0, 0], "max": [1, 1], "factor": -1}],)"),
      "/speedZones/0/factor", "must be >= 0");
  expectScenarioError(
      groupWith(R"("maxSpeed": 2)", R"("speedZones": [{"polygon": [[0, 0], [1, 0]], "factor": 1}],)"),
      "/speedZones/0/polygon", "needs at least 3 vertices, got 2");
  expectScenarioError(groupWith(R"("maxSpeed": 2)", R"("speedZones": [{"min": [0, 0], "max": [1, 1]}],)"),
                      "/speedZones/0", "factor");
}

}  // namespace
}  // namespace crowd
