// 3D scenarios: files with "dimensions": 3 (every key, the groups, and each kind of mistake
// refused with the JSON path of the bad value), the sphere and swarm built-ins, and runs.
#include <cmath>
#include <numbers>
#include <set>
#include <string>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string error3For(const std::string& text) {
  try {
    parseScenario3(text, "bad.json");
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "";
}

void expectError3(const std::string& text, const std::string& path, const std::string& problem) {
  const std::string message = error3For(text);
  EXPECT_THAT(message, StartsWith("bad.json: " + path + ": ")) << "for " << text;
  EXPECT_THAT(message, HasSubstr(problem)) << "for " << text;
}

TEST(Scenario3Parse, ReadsEveryKey) {
  const Scenario3 s = parseScenario3(R"({
    "dimensions": 3, "name": "drones", "timeStep": 0.1, "steps": 50, "seed": 4, "removeArrived": true,
    "agentDefaults": { "radius": 0.4, "maxSpeed": 3, "neighborDist": 9 },
    "agents": [ { "position": [1, 2, 3], "velocity": [0, 0, 1], "goal": [4, 5, 6], "prefSpeed": 2 },
                { "position": [-1, -2, -3], "prefVelocity": [0, 1, 0] } ],
    "groups": [ { "type": "sphere", "count": 20, "radius": 30, "center": [0, 0, 100], "agentRadius": 0.6 },
                { "type": "box", "count": 10, "min": [0, 0, 0], "max": [10, 10, 10], "placement": "random", "goalOffset": [0, 0, 50] } ]
  })",
                                     "drones.json");
  EXPECT_EQ(s.timeStep, 0.1f);
  EXPECT_EQ(s.steps, 50);
  EXPECT_EQ(s.seed, 4u);
  EXPECT_TRUE(s.removeArrived);
  ASSERT_EQ(s.agents.size(), 32u);
  EXPECT_EQ(s.agents[0].position, Vec3(1, 2, 3));
  EXPECT_EQ(s.agents[0].velocity, Vec3(0, 0, 1));
  EXPECT_EQ(*s.agents[0].goal, Vec3(4, 5, 6));
  EXPECT_EQ(s.agents[0].params.prefSpeed, 2.0f);
  EXPECT_EQ(s.agents[0].params.radius, 0.4f);  // From the defaults.
  EXPECT_FALSE(s.agents[1].goal.has_value());
  EXPECT_EQ(s.agents[1].prefVelocity, Vec3(0, 1, 0));
  for (std::size_t i = 2; i < 22; ++i) {  // On the sphere, heading for the antipodal point.
    const AgentDef3& a = s.agents[i];
    EXPECT_NEAR(length(a.position - Vec3(0, 0, 100)), 30.0f, 1e-3f);
    EXPECT_NEAR(length(a.position + *a.goal - Vec3(0, 0, 200)), 0.0f, 1e-3f);
    EXPECT_EQ(a.params.radius, 0.6f);
    EXPECT_EQ(a.params.maxSpeed, 3.0f);
  }
  for (std::size_t i = 22; i < 32; ++i) {
    const AgentDef3& a = s.agents[i];
    EXPECT_TRUE(a.position.x >= 0 && a.position.x <= 10 && a.position.z >= 0 && a.position.z <= 10);
    EXPECT_EQ(*a.goal - a.position, Vec3(0, 0, 50));
  }
}

TEST(Scenario3Parse, BoxGoalsAndPlacementFollowTheSeed) {
  const std::string text = R"({"dimensions": 3, "groups": [ { "type": "box", "count": 50, "min": [0, 0, 0],
    "max": [20, 20, 20], "placement": "random", "goalBox": { "min": [100, 100, 100], "max": [110, 110, 110] } } ] })";
  const Scenario3 a = parseScenario3(text, "a.json", 1);
  const Scenario3 b = parseScenario3(text, "a.json", 1);
  const Scenario3 c = parseScenario3(text, "a.json", 2);
  ASSERT_EQ(a.agents.size(), 50u);
  for (std::size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(a.agents[i].position, b.agents[i].position);
    EXPECT_GE(a.agents[i].goal->x, 100.0f);
    EXPECT_LE(a.agents[i].goal->z, 110.0f);
  }
  EXPECT_NE(a.agents[0].position, c.agents[0].position);
}

TEST(Scenario3Parse, BoxLatticeFillsTheBoxLayerByLayer) {
  const Scenario3 s = parseScenario3(R"({"dimensions": 3, "groups": [ { "type": "box", "count": 27,
    "min": [0, 0, 0], "max": [10, 10, 10] } ] })",
                                     "a.json");
  ASSERT_EQ(s.agents.size(), 27u);
  std::set<std::tuple<float, float, float>> points;
  for (const AgentDef3& a : s.agents) {
    for (const float c : {a.position.x, a.position.y, a.position.z}) {
      EXPECT_TRUE(c == 0.0f || c == 5.0f || c == 10.0f) << c;  // 3 x 3 x 3, corners included.
    }
    points.insert({a.position.x, a.position.y, a.position.z});
  }
  EXPECT_EQ(points.size(), 27u);
  // A flat box is one layer.
  const Scenario3 flat = parseScenario3(R"({"dimensions": 3, "groups": [ { "type": "box", "count": 12,
    "min": [0, 0, 5], "max": [30, 20, 5] } ] })",
                                        "a.json");
  for (const AgentDef3& a : flat.agents) EXPECT_EQ(a.position.z, 5.0f);
  expectError3(R"({"dimensions": 3, "groups": [{"type": "box", "count": 3, "min": [0, 0, 0], "max": [1, 1, 1],
                   "placement": "spiral"}]})",
               "/groups/0/placement", "known: grid, random");
}

TEST(Scenario3Parse, DimensionsDecideTheReader) {
  EXPECT_EQ(scenarioDimensions(R"({"agents": []})", "a.json"), 2);
  EXPECT_EQ(scenarioDimensions(R"({"dimensions": 2})", "a.json"), 2);
  EXPECT_EQ(scenarioDimensions(R"({"dimensions": 3})", "a.json"), 3);
  // Only the top level's key counts, wherever it stands in the document.
  EXPECT_EQ(scenarioDimensions(R"({"agentDefaults": {"dimensions": 3}, "agents": []})", "a.json"), 2);
  EXPECT_EQ(scenarioDimensions(R"({"agents": [{"position": [0, 0, 0]}], "dimensions": 3})", "a.json"), 3);
  EXPECT_THROW(scenarioDimensions(R"({"dimensions": "3"})", "a.json"), ScenarioError);
  EXPECT_THAT(scenarioErrorFor(R"({"dimensions": 3})", "bad.json"),
              StartsWith("bad.json: /dimensions: 3: a 3D scenario, which loadScenario3File"));
  expectScenarioError(R"({"dimensions": 4})", "/dimensions", "must be 2 or 3, got 4");
  expectError3(R"({"agents": []})", "/", "missing required key 'dimensions'");
  expectError3(R"({"dimensions": 2})", "/dimensions", "a planar scenario");
  EXPECT_NO_THROW(parseScenario(R"({"dimensions": 2, "agents": [{"position": [0, 0]}]})", "a.json"));
}

// As planar files: several mistakes, all reported in file order.
TEST(Scenario3Errors, EveryProblemIsReported) {
  const std::string message = error3For(R"({ "dimensions": 3, "steps": -4,
    "agents": [ { "position": [0, 0, 0], "radius": -1 }, { "position": [1, 1] } ],
    "groups": [ { "type": "cube", "count": 2 } ] })");
  EXPECT_THAT(message, StartsWith("bad.json: 4 problems\n  bad.json: /steps: must be >= 0, got -4\n"));
  EXPECT_THAT(message, HasSubstr("\n  bad.json: /agents/0/radius: "));
  EXPECT_THAT(message, HasSubstr("\n  bad.json: /agents/1/position: expected an array of 3 numbers"));
  EXPECT_THAT(message, HasSubstr("\n  bad.json: /groups/0/type: unknown 3D group type 'cube'"));
}

TEST(Scenario3Errors, EachMistakeNamesItsPath) {
  expectError3(R"({"dimensions": 3, "agents": [{"position": [0, 0]}]})", "/agents/0/position",
               "expected an array of 3 numbers [x, y, z]");
  expectError3(R"({"dimensions": 3, "agents": [{"velocity": [0, 0, 0]}]})", "/agents/0", "position");
  expectError3(R"({"dimensions": 3, "agents": [{"position": [0, 0, 1e30]}]})", "/agents/0/position",
               "z must be between");
  expectError3(
      R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "goal": [1, 1, 1], "prefVelocity": [0, 0, 1]}]})",
      "/agents/0", "both 'goal' and 'prefVelocity'");
  expectError3(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "radius": -1}]})", "/agents/0/radius",
               "must be");
  expectError3(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "radus": 1}]})", "/agents/0/radus",
               "did you mean 'radius'");
  expectError3(R"({"dimensions": 3, "obstacles": []})", "/obstacles", "no obstacles");
  expectError3(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "behavior": "follow"}]})",
               "/agents/0/behavior", "planar for now");
  expectError3(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "path": [[0, 0], [1, 1]]}]})",
               "/agents/0/path", "no paths or planners");
  expectError3(R"({"dimensions": 3, "agentDefaults": {"timeHorizonObst": 3}})",
               "/agentDefaults/timeHorizonObst", "no obstacles");
  expectError3(R"({"dimensions": 3, "groups": [{"type": "circle", "count": 3}]})", "/groups/0/type",
               "known: sphere, box");
  expectError3(
      R"({"dimensions": 3, "groups": [{"type": "box", "count": 3, "min": [5, 0, 0], "max": [0, 1, 1]}]})",
      "/groups/0", "min <= max");
  expectError3(R"({"dimensions": 3, "groups": [{"type": "box", "count": 3, "min": [0, 0, 0], "max": [1, 1, 1],
                   "goal": [0, 0, 0], "goalOffset": [1, 1, 1]}]})",
               "/groups/0", "more than one of");
  expectError3(
      R"({"dimensions": 3, "groups": [{"type": "sphere", "count": 3, "radius": 1, "center": [0, 0, 999999.5]}]})",
      "/groups/0", "coordinate limit");
  expectError3(R"({"dimensions": 3, "groups": [{"type": "sphere", "count": 1000000000, "radius": 10}]})",
               "/groups/0/count", "will not fit in memory");
  expectError3(R"({"dimensions": 3, "timeStep": 0})", "/timeStep", "timeStep must be");
  expectError3(R"({"dimensions": 3, "groups": [{"type": "sphere", "count": 5, "radius": 0}]})",
               "/groups/0/radius", "would start on one point");
  expectError3(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "behavior": "pursue", "target": 0},
                   {"position": [5, 0, 0]}]})",
               "/agents/0/target", "cannot target itself");
  expectError3(
      R"({"dimensions": 3, "agents": [{"position": [9, 9, 9]}], "groups": [{"type": "box", "count": 3,
                   "min": [0, 0, 0], "max": [1, 1, 1], "behavior": "pursue", "target": 2}]})",
      "/groups/0/target", "cannot target itself");
  expectError3(R"({"dimensions": 3, "steps": -1})", "/steps", "must be >= 0");
}

TEST(Scenario3Builtins, SphereIsRvo2Sphere) {
  const Scenario3 s = builtinScenario3("sphere");
  // Rings of latitude 0.1 rad apart on a sphere of radius 100, agents about 2 pi 2.5 apart
  // along each ring, each heading for the antipodal point.
  std::set<float> rings;
  for (const AgentDef3& a : s.agents) {
    EXPECT_NEAR(length(a.position), 100.0f, 1e-3f);
    EXPECT_EQ(*a.goal, -a.position);
    EXPECT_EQ(a.params.radius, 1.5f);
    EXPECT_EQ(a.params.neighborDist, 15.0f);
    EXPECT_EQ(a.params.maxNeighbors, 10);
    EXPECT_EQ(a.params.timeHorizon, 10.0f);
    EXPECT_EQ(a.params.maxSpeed, 2.0f);
    rings.insert(a.position.z);
  }
  EXPECT_EQ(rings.size(), 31u);  // a = 0.1 .. 3.1 (the ring at a = 0 has radius 0 and no agents).
  for (const float z : rings) {
    const double a = std::acos(static_cast<double>(z) / 100.0);
    EXPECT_NEAR(a * 10.0, std::round(a * 10.0), 1e-3) << z;
  }
  EXPECT_EQ(s.timeStep, 0.125f);
  // Other counts keep the area per agent: four times the agents, twice the radius.
  const Scenario3 big = builtinScenario3("sphere", 4 * s.agents.size());
  EXPECT_EQ(big.agents.size(), 4 * s.agents.size());
  EXPECT_NEAR(length(big.agents[7].position), 200.0f, 1e-2f);
}

TEST(Scenario3Builtins, SwarmStartsApartInsideItsBox) {
  const Scenario3 s = builtinScenario3("swarm", 1000, 5);
  ASSERT_EQ(s.agents.size(), 1000u);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();  // Nobody starts overlapping.
  for (const AgentDef3& a : s.agents) {
    for (const float c : {a.position.x, a.position.y, a.position.z, a.goal->x, a.goal->y, a.goal->z}) {
      EXPECT_LE(std::abs(c), 40.0f);  // 10 lattice sites of 8 a side.
    }
  }
  EXPECT_NE(builtinScenario3("swarm", 1000, 6).agents[0].goal, s.agents[0].goal);
  EXPECT_THROW(builtinScenario3("cube"), ScenarioError);
  EXPECT_THROW(builtinScenario3("swarm", 0), ScenarioError);  // As a planar built-in refuses 0.
  EXPECT_THROW(builtinScenario3("sphere", 0), ScenarioError);
}

TEST(Scenario3Runs, SwarmArrivesWithoutCollisions) {
  const Scenario3 s = builtinScenario3("swarm", 300, 2);
  Simulator3 sim = makeSimulator3(s, 2);
  MetricsCollector metrics;
  metrics.observe(sim);
  for (std::int64_t step = 0; step < s.steps && sim.arrivedCount() < sim.agentCount(); ++step) {
    sim.step();
    metrics.observe(sim);
  }
  const RunMetrics& m = metrics.result();
  EXPECT_EQ(m.arrived, 300u);
  EXPECT_EQ(m.collisions, 0);
  EXPECT_GT(m.minSeparationRatio, 0.9);
}

}  // namespace
}  // namespace crowd
