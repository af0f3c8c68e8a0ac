// Scenario values against the table of limits: every bounded value in a file, a spec built in
// code or a built-in is refused beyond its bound, with a message that names the bound and the
// exact place. Includes the values fuzzing found that used to validate, run, and write NaN.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string errorFor(const std::string& text) {
  return scenarioErrorFor(text, "crowd.json");
}

TEST(ScenarioLimits, ValuesFuzzingFoundAreRefused) {
  EXPECT_EQ(errorFor(R"({ "agents": [ { "position": [0, 0] }, { "position": [0, 9] },
                          { "position": [9, 0] }, { "position": [9, 9], "radius": 1.2e30 } ] })"),
            "crowd.json: /agents/3/radius: must be <= 10000 (the radius limit), got 1.2e30");
  EXPECT_EQ(errorFor(R"({ "agentDefaults": { "radius": 3.4e38 } })"),
            "crowd.json: /agentDefaults/radius: must be <= 10000 (the radius limit), got 3.4e38");
  EXPECT_EQ(errorFor(R"({ "timeStep": 1e-45 })"),
            "crowd.json: /timeStep: must be >= 1e-6 (the time step limit), got 1e-45");
  EXPECT_EQ(errorFor(R"({ "obstacles": [ [[0, 0], [1e30, 0], [0, 1]] ] })"),
            "crowd.json: /obstacles/0/1/0: must be between -1e6 and 1e6 (the coordinate limit), got 1e30");
  EXPECT_EQ(errorFor(R"({ "obstacles": [ [[0, 0], [1, 0], [0, 2e19]] ] })"),
            "crowd.json: /obstacles/0/2/1: must be between -1e6 and 1e6 (the coordinate limit), got 2e19");
}

// One bounded value at a time, just past its bound, in every place a file can give it.
TEST(ScenarioLimits, EveryBoundedKeyNamesItsLimit) {
  struct Case {
    const char* text;
    const char* path;
    const char* problem;
  };
  const Case cases[] = {
      {R"({ "timeStep": 1001 })", "/timeStep", "must be <= 1000 (the time step limit), got 1001"},
      {R"({ "agents": [ { "position": [1000001, 0] } ] })", "/agents/0/position/0",
       "must be between -1e6 and 1e6 (the coordinate limit), got 1000001"},
      {R"({ "agents": [ { "position": [0, 0], "goal": [0, -2e6] } ] })", "/agents/0/goal/1",
       "(the coordinate limit), got -2e6"},
      {R"({ "agents": [ { "position": [0, 0], "velocity": [10001, 0] } ] })", "/agents/0/velocity/0",
       "must be between -10000 and 10000 (the velocity limit), got 10001"},
      {R"({ "agents": [ { "position": [0, 0], "prefVelocity": [0, -1e5] } ] })", "/agents/0/prefVelocity/1",
       "(the velocity limit), got -1e5"},
      {R"({ "agents": [ { "position": [0, 0], "maxSpeed": 1e5 } ] })", "/agents/0/maxSpeed",
       "must be <= 10000 (the speed limit), got 1e5"},
      {R"({ "agents": [ { "position": [0, 0], "prefSpeed": 1e5 } ] })", "/agents/0/prefSpeed",
       "must be <= 10000 (the speed limit)"},
      {R"({ "agents": [ { "position": [0, 0], "neighborDist": 2e5 } ] })", "/agents/0/neighborDist",
       "must be <= 1e5 (the neighbour distance limit), got 2e5"},
      {R"({ "agents": [ { "position": [0, 0], "timeHorizon": 2e6 } ] })", "/agents/0/timeHorizon",
       "must be <= 1e6 (the time horizon limit), got 2e6"},
      {R"({ "agents": [ { "position": [0, 0], "timeHorizonObst": 1e-5 } ] })", "/agents/0/timeHorizonObst",
       "must be >= 1e-4 (the time horizon limit), got 1e-5"},
      {R"({ "agents": [ { "position": [0, 0], "goalRadius": 1e7 } ] })", "/agents/0/goalRadius",
       "must be <= 1e6 (the goal radius limit), got 1e7"},
      {R"({ "agentDefaults": { "neighborDist": 1e9 } })", "/agentDefaults/neighborDist",
       "(the neighbour distance limit)"},
      {R"({ "groups": [ { "type": "circle", "count": 4, "radius": 10, "agentRadius": 2e4 } ] })",
       "/groups/0/agentRadius", "must be <= 10000 (the radius limit), got 20000"},
      {R"({ "groups": [ { "type": "circle", "count": 4, "radius": 10, "center": [0, 3e6] } ] })",
       "/groups/0/center/1", "(the coordinate limit), got 3e6"},
      {R"({ "groups": [ { "type": "circle", "count": 4, "radius": 2e6 } ] })", "/groups/0/radius",
       "must be <= 1e6 (the coordinate limit), got 2e6"},
      {R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [-2e6, 0], "max": [0, 1] } ] })",
       "/groups/0/min/0", "(the coordinate limit), got -2e6"},
      {R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [0, 0], "max": [1, 1],
            "radius": 1e5 } ] })",
       "/groups/0/radius", "must be <= 10000 (the radius limit), got 1e5"},
      {R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [0, 0], "max": [1, 1],
            "goal": [5e6, 0] } ] })",
       "/groups/0/goal/0", "(the coordinate limit), got 5e6"},
      {R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [0, 0], "max": [1, 1],
            "goalOffset": [0, 4e6] } ] })",
       "/groups/0/goalOffset/1", "(the coordinate limit), got 4e6"},
      {R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [0, 0], "max": [1, 1],
            "goalRect": { "min": [0, 0], "max": [7e6, 1] } } ] })",
       "/groups/0/goalRect/max/0", "(the coordinate limit), got 7e6"},
      {R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [0, 0], "max": [1, 1],
            "prefVelocity": [2e4, 0] } ] })",
       "/groups/0/prefVelocity/0", "(the velocity limit), got 20000"},
  };
  for (const Case& c : cases) {
    const std::string message = errorFor(c.text);
    EXPECT_THAT(message, StartsWith(std::string("crowd.json: ") + c.path + ": ")) << c.text;
    EXPECT_THAT(message, HasSubstr(c.problem)) << c.text;
  }
}

TEST(ScenarioLimits, GeneratedAgentsAndGoalsStayInsideTheCoordinateLimit) {
  // Each value is inside its own limit, but the agents or goals they make would not be.
  EXPECT_EQ(errorFor(R"({ "groups": [ { "type": "circle", "count": 4, "radius": 2e5,
                          "center": [9e5, 0] } ] })"),
            "crowd.json: /groups/0/radius: puts agents as far as [1100000, 200000]: coordinates must be "
            "between -1e6 and 1e6 (the coordinate limit)");
  EXPECT_EQ(errorFor(R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [0, 0], "max": [10, 10],
                          "goalOffset": [999995, 0] } ] })"),
            "crowd.json: /groups/0/goalOffset: puts goals as far as [1000005, 10]: coordinates must be "
            "between -1e6 and 1e6 (the coordinate limit)");
  // Right at the limit is fine, and so is a large circle with no agents in it.
  EXPECT_EQ(errorFor(R"({ "groups": [ { "type": "circle", "count": 4, "radius": 1e5, "center": [9e5, 0] },
                                      { "type": "circle", "count": 0, "radius": 1e6, "center": [1e6, 0] },
                                      { "type": "rectangle", "count": 4, "min": [0, 0], "max": [10, 10],
                                        "goalOffset": [999990, -1e6] } ] })"),
            "");
}

// A spec built in code goes through the same checks; messages use the file's pointers.
TEST(ScenarioLimits, SpecsBuiltInCodeAreChecked) {
  ScenarioSpec spec;
  spec.name = "mine";
  spec.agents.resize(2);
  spec.agents[1].position = Vec2(0.0f, 5e6f);
  try {
    expandScenario(spec);
    FAIL() << "expanded a spec with a position beyond the limit";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()),
              "mine: /agents/1/position/1: must be between -1e6 and 1e6 (the coordinate limit), got 5e6");
  }
  spec.agents[1].position = Vec2(3.0f, 0.0f);
  GroupSpec circle;
  circle.count = 3;
  circle.circleRadius = 50.0f;
  circle.params.radius = -2.0f;
  spec.groups.push_back(circle);
  try {
    validateScenarioSpec(spec);
    FAIL() << "validated a circle group with a negative agent radius";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()), "mine: /groups/0/agentRadius: must be >= 0, got -2");
  }
  spec.groups[0].params.radius = 1.0f;
  spec.timeStep = 0.0f;
  EXPECT_THROW(validateScenarioSpec(spec), ScenarioError);
  spec.timeStep = 0.1f;
  EXPECT_EQ(expandScenario(spec).agents.size(), 5u);
  spec.obstacles.push_back({{0.0f, 0.0f}, {1.0f, 1.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}});
  try {
    validateScenarioSpec(spec);
    FAIL() << "validated a bow tie";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()),
              "mine: /obstacles/0: edges 0 and 2 cross (a self-intersecting polygon)");
  }
}

TEST(ScenarioLimits, BuiltinsRefuseCountsThatReachBeyondTheCoordinateLimit) {
  // A circle keeps RVO2's spacing, so its radius grows with the count: 0.8 per agent.
  try {
    builtinScenario("circle", 2'000'000);
    FAIL() << "built a circle of radius 1.6e6";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()),
              "builtin:circle: agents: 2000000 agents reach coordinates of 1600000, but coordinates must be "
              "between -1e6 and 1e6 (the coordinate limit); use fewer agents");
  }
  EXPECT_THROW(builtinScenario("corridor", 2'000'000), ScenarioError);
  EXPECT_THROW(builtinScenario("crossing", 3'000'000), ScenarioError);
  // The largest circle that fits.
  const Scenario largest = builtinScenario("circle", 1'250'000);
  for (const AgentDef& agent : largest.agents) {
    ASSERT_LE(std::abs(agent.position.x), 1e6f);
    ASSERT_LE(std::abs(agent.position.y), 1e6f);
  }
}

}  // namespace
}  // namespace crowd
