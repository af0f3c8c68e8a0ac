// Scenario files that are valid: every key is read, defaults merge as documented, generated
// groups land where they should, and the overlap warnings count what they claim.
#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

#include "rvo2_circle_example.hpp"

namespace crowd {
namespace {

Scenario parse(const std::string& text) {
  return parseScenario(text, "test.json");
}

bool hasWarning(const Scenario& scenario, const std::string& part) {
  return std::any_of(scenario.warnings.begin(), scenario.warnings.end(),
                     [&](const std::string& warning) { return warning.find(part) != std::string::npos; });
}

TEST(ScenarioParse, ReadsTopLevelSettings) {
  const Scenario scenario = parse(R"({
    "name": "a label", "timeStep": 0.1, "steps": 1234, "seed": 99, "removeArrived": true,
    "agents": [ { "position": [0, 0] } ] })");
  EXPECT_EQ(scenario.name, "test.json");
  EXPECT_FLOAT_EQ(scenario.timeStep, 0.1f);
  EXPECT_EQ(scenario.steps, 1234);
  EXPECT_EQ(scenario.seed, 99u);
  EXPECT_TRUE(scenario.removeArrived);
  EXPECT_TRUE(scenario.warnings.empty());
}

TEST(ScenarioParse, UnsetKeysKeepTheirDefaults) {
  const Scenario scenario = parse(R"({ "agents": [ { "position": [1, 2] } ] })");
  const Scenario defaults;
  EXPECT_EQ(scenario.timeStep, defaults.timeStep);
  EXPECT_EQ(scenario.steps, defaults.steps);
  EXPECT_EQ(scenario.seed, defaults.seed);
  EXPECT_FALSE(scenario.removeArrived);
  ASSERT_EQ(scenario.agents.size(), 1u);
  const AgentDef& agent = scenario.agents[0];
  EXPECT_EQ(agent.position, Vec2(1.0f, 2.0f));
  EXPECT_EQ(agent.velocity, Vec2(0.0f, 0.0f));
  EXPECT_FALSE(agent.goal.has_value());
  EXPECT_EQ(agent.prefVelocity, Vec2(0.0f, 0.0f));
  EXPECT_EQ(agent.params, AgentParams{});
}

TEST(ScenarioParse, ReadsEveryAgentKey) {
  const Scenario scenario = parse(R"({ "agents": [
    { "position": [1.5, -2], "velocity": [0.5, 0.25], "goal": [10, 20] },
    { "position": [3, 4], "prefVelocity": [-1, 0.5] } ] })");
  ASSERT_EQ(scenario.agents.size(), 2u);
  EXPECT_EQ(scenario.agents[0].position, Vec2(1.5f, -2.0f));
  EXPECT_EQ(scenario.agents[0].velocity, Vec2(0.5f, 0.25f));
  ASSERT_TRUE(scenario.agents[0].goal.has_value());
  EXPECT_EQ(*scenario.agents[0].goal, Vec2(10.0f, 20.0f));
  EXPECT_FALSE(scenario.agents[1].goal.has_value());
  EXPECT_EQ(scenario.agents[1].prefVelocity, Vec2(-1.0f, 0.5f));
}

// Values chosen to differ from the library defaults and from each other.
constexpr const char* kAllDefaults = R"("agentDefaults": { "radius": 0.75, "maxSpeed": 3,
    "prefSpeed": 1.25, "neighborDist": 12, "maxNeighbors": 7, "timeHorizon": 4,
    "timeHorizonObst": 3, "goalRadius": 2 })";

AgentParams expectedDefaults() {
  AgentParams params;
  params.radius = 0.75f;
  params.maxSpeed = 3.0f;
  params.prefSpeed = 1.25f;
  params.neighborDist = 12.0f;
  params.maxNeighbors = 7;
  params.timeHorizon = 4.0f;
  params.timeHorizonObst = 3.0f;
  params.goalRadius = 2.0f;
  return params;
}

TEST(ScenarioParse, AgentDefaultsApplyToAgentsAndGroups) {
  const Scenario scenario = parse(std::string("{") + kAllDefaults + R"(,
    "agents": [ { "position": [0, 0] } ],
    "groups": [ { "type": "circle", "count": 2, "radius": 10 },
                { "type": "rectangle", "count": 2, "min": [50, 0], "max": [60, 0] } ] })");
  ASSERT_EQ(scenario.agents.size(), 5u);
  for (const AgentDef& agent : scenario.agents) EXPECT_EQ(agent.params, expectedDefaults());
}

// Each AgentParams key, overridden on one agent, changes that field only.
TEST(ScenarioParse, PerAgentKeysOverrideEveryDefault) {
  struct Change {
    const char* key;
    const char* value;
    void (*apply)(AgentParams&);
  };
  const Change changes[] = {
      {"radius", "0.5", [](AgentParams& p) { p.radius = 0.5f; }},
      {"maxSpeed", "5", [](AgentParams& p) { p.maxSpeed = 5.0f; }},
      {"prefSpeed", "0.5", [](AgentParams& p) { p.prefSpeed = 0.5f; }},
      {"neighborDist", "30", [](AgentParams& p) { p.neighborDist = 30.0f; }},
      {"maxNeighbors", "20", [](AgentParams& p) { p.maxNeighbors = 20; }},
      {"timeHorizon", "8", [](AgentParams& p) { p.timeHorizon = 8.0f; }},
      {"timeHorizonObst", "6", [](AgentParams& p) { p.timeHorizonObst = 6.0f; }},
      {"goalRadius", "-1", [](AgentParams& p) { p.goalRadius = -1.0f; }},
  };
  for (const Change& change : changes) {
    SCOPED_TRACE(change.key);
    const std::string text = std::string("{") + kAllDefaults + R"(, "agents": [
        { "position": [0, 0] }, { "position": [9, 0], ")" +
                             change.key + "\": " + change.value + " } ] }";
    const Scenario scenario = parse(text);
    ASSERT_EQ(scenario.agents.size(), 2u);
    EXPECT_EQ(scenario.agents[0].params, expectedDefaults());
    AgentParams expected = expectedDefaults();
    change.apply(expected);
    EXPECT_EQ(scenario.agents[1].params, expected);
  }
}

TEST(ScenarioParse, GroupKeysOverrideDefaults) {
  const Scenario scenario = parse(R"({ "agentDefaults": { "radius": 0.5, "maxSpeed": 3 },
    "groups": [ { "type": "circle", "count": 3, "radius": 20, "agentRadius": 0.25,
                  "maxNeighbors": 4 },
                { "type": "rectangle", "count": 1, "min": [0, 0], "max": [1, 1],
                  "radius": 0.75, "prefSpeed": 2 } ] })");
  ASSERT_EQ(scenario.agents.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(scenario.agents[i].params.radius, 0.25f);
    EXPECT_EQ(scenario.agents[i].params.maxNeighbors, 4);
    EXPECT_EQ(scenario.agents[i].params.maxSpeed, 3.0f);
    EXPECT_NEAR(length(scenario.agents[i].position), 20.0f, 1e-4f);  // "radius" is the circle's.
  }
  EXPECT_EQ(scenario.agents[3].params.radius, 0.75f);
  EXPECT_EQ(scenario.agents[3].params.prefSpeed, 2.0f);
  EXPECT_EQ(scenario.agents[3].params.maxSpeed, 3.0f);
}

TEST(ScenarioParse, AgentsComeBeforeGroupsInFileOrder) {
  const Scenario scenario = parse(R"({
    "groups": [ { "type": "rectangle", "count": 2, "min": [100, 0], "max": [110, 0] },
                { "type": "rectangle", "count": 1, "min": [200, 0], "max": [200, 0] } ],
    "agents": [ { "position": [-5, 0] }, { "position": [-10, 0] } ] })");
  ASSERT_EQ(scenario.agents.size(), 5u);
  EXPECT_EQ(scenario.agents[0].position, Vec2(-5.0f, 0.0f));
  EXPECT_EQ(scenario.agents[1].position, Vec2(-10.0f, 0.0f));
  EXPECT_EQ(scenario.agents[2].position, Vec2(100.0f, 0.0f));
  EXPECT_EQ(scenario.agents[3].position, Vec2(110.0f, 0.0f));
  EXPECT_EQ(scenario.agents[4].position, Vec2(200.0f, 0.0f));
}

TEST(ScenarioParse, CircleGroupMatchesRvo2CircleExample) {
  const Scenario scenario = parse(R"({ "groups": [ { "type": "circle", "count": 250, "radius": 200 } ] })");
  ASSERT_EQ(scenario.agents.size(), 250u);
  for (std::size_t i = 0; i < 250; ++i) {
    const Vec2 expected = rvo2CirclePosition(i);
    EXPECT_EQ(scenario.agents[i].position, expected) << "agent " << i;
    ASSERT_TRUE(scenario.agents[i].goal.has_value());
    EXPECT_EQ(*scenario.agents[i].goal, -expected) << "agent " << i;
  }
}

TEST(ScenarioParse, CircleGroupAroundACentreHeadsForTheAntipode) {
  const Scenario scenario =
      parse(R"({ "groups": [ { "type": "circle", "count": 8, "radius": 10, "center": [100, -50] } ] })");
  ASSERT_EQ(scenario.agents.size(), 8u);
  const Vec2 center(100.0f, -50.0f);
  EXPECT_NEAR(scenario.agents[0].position.x, 110.0f, 1e-4f);
  EXPECT_NEAR(scenario.agents[2].position.y, -40.0f, 1e-4f);  // A quarter turn on.
  for (const AgentDef& agent : scenario.agents) {
    EXPECT_NEAR(length(agent.position - center), 10.0f, 1e-4f);
    ASSERT_TRUE(agent.goal.has_value());
    const Vec2 midpoint = 0.5f * (agent.position + *agent.goal);
    EXPECT_NEAR(midpoint.x, center.x, 1e-4f);
    EXPECT_NEAR(midpoint.y, center.y, 1e-4f);
  }
}

TEST(ScenarioParse, RectangleGridFillsRowByRow) {
  // 12 agents in 30 x 20: ceil(sqrt(12 * 30 / 20)) = 5 columns, 3 rows, 7.5 x 10 apart.
  const Scenario scenario =
      parse(R"({ "groups": [ { "type": "rectangle", "count": 12, "min": [0, 0], "max": [30, 20] } ] })");
  ASSERT_EQ(scenario.agents.size(), 12u);
  EXPECT_EQ(scenario.agents[0].position, Vec2(0.0f, 0.0f));
  EXPECT_EQ(scenario.agents[1].position, Vec2(7.5f, 0.0f));
  EXPECT_EQ(scenario.agents[4].position, Vec2(30.0f, 0.0f));
  EXPECT_EQ(scenario.agents[5].position, Vec2(0.0f, 10.0f));
  EXPECT_EQ(scenario.agents[11].position, Vec2(7.5f, 20.0f));
  std::set<std::pair<float, float>> distinct;
  for (const AgentDef& agent : scenario.agents) {
    distinct.insert({agent.position.x, agent.position.y});
    EXPECT_FALSE(agent.goal.has_value());  // No goal spec: standing still.
    EXPECT_EQ(agent.prefVelocity, Vec2(0.0f, 0.0f));
  }
  EXPECT_EQ(distinct.size(), 12u);
}

TEST(ScenarioParse, RectangleGridHandlesDegenerateBoxes) {
  const Scenario scenario = parse(R"({ "groups": [
    { "type": "rectangle", "count": 1, "min": [0, 0], "max": [10, 4] },
    { "type": "rectangle", "count": 3, "min": [0, 50], "max": [20, 50] },
    { "type": "rectangle", "count": 3, "min": [100, 0], "max": [100, 40] } ] })");
  ASSERT_EQ(scenario.agents.size(), 7u);
  EXPECT_EQ(scenario.agents[0].position, Vec2(5.0f, 2.0f));   // A lone agent is centred.
  EXPECT_EQ(scenario.agents[1].position, Vec2(0.0f, 50.0f));  // Zero height: one row.
  EXPECT_EQ(scenario.agents[2].position, Vec2(10.0f, 50.0f));
  EXPECT_EQ(scenario.agents[3].position, Vec2(20.0f, 50.0f));
  EXPECT_EQ(scenario.agents[4].position, Vec2(100.0f, 0.0f));  // Zero width: one column.
  EXPECT_EQ(scenario.agents[6].position, Vec2(100.0f, 40.0f));
}

std::vector<Vec2> randomPositions(std::uint64_t seed) {
  const Scenario scenario = parse(R"({ "seed": )" + std::to_string(seed) + R"(, "groups": [
    { "type": "rectangle", "count": 50, "min": [-10, 5], "max": [30, 25], "placement": "random" },
    { "type": "rectangle", "count": 50, "min": [-10, 5], "max": [30, 25], "placement": "random" }
    ] })");
  std::vector<Vec2> positions;
  for (const AgentDef& agent : scenario.agents) positions.push_back(agent.position);
  return positions;
}

TEST(ScenarioParse, RectangleRandomPlacementIsInsideAndSeeded) {
  const std::vector<Vec2> first = randomPositions(5);
  ASSERT_EQ(first.size(), 100u);
  for (const Vec2 p : first) {
    EXPECT_GE(p.x, -10.0f);
    EXPECT_LE(p.x, 30.0f);
    EXPECT_GE(p.y, 5.0f);
    EXPECT_LE(p.y, 25.0f);
  }
  EXPECT_EQ(randomPositions(5), first);
  EXPECT_NE(randomPositions(6), first);
  // Two groups with the same settings draw from different streams.
  EXPECT_FALSE(std::equal(first.begin(), first.begin() + 50, first.begin() + 50));
  // Spread over the box rather than bunched: both halves of each axis are used.
  const auto left = std::count_if(first.begin(), first.end(), [](Vec2 p) { return p.x < 10.0f; });
  const auto low = std::count_if(first.begin(), first.end(), [](Vec2 p) { return p.y < 15.0f; });
  EXPECT_GT(left, 20);
  EXPECT_LT(left, 80);
  EXPECT_GT(low, 20);
  EXPECT_LT(low, 80);
}

TEST(ScenarioParse, RectangleGoalSpecs) {
  const Scenario scenario = parse(R"({ "groups": [
    { "type": "rectangle", "count": 2, "min": [0, 0], "max": [10, 0], "goal": [50, 60] },
    { "type": "rectangle", "count": 2, "min": [0, 20], "max": [10, 20], "goalOffset": [5, -1] },
    { "type": "rectangle", "count": 20, "min": [0, 40], "max": [80, 40],
      "goalRect": { "min": [100, 100], "max": [110, 120] } },
    { "type": "rectangle", "count": 2, "min": [0, 60], "max": [10, 60],
      "prefVelocity": [0.5, -0.5] } ] })");
  ASSERT_EQ(scenario.agents.size(), 26u);
  EXPECT_EQ(*scenario.agents[0].goal, Vec2(50.0f, 60.0f));
  EXPECT_EQ(*scenario.agents[1].goal, Vec2(50.0f, 60.0f));
  EXPECT_EQ(*scenario.agents[2].goal, Vec2(5.0f, 19.0f));
  EXPECT_EQ(*scenario.agents[3].goal, Vec2(15.0f, 19.0f));
  std::set<std::pair<float, float>> boxGoals;
  for (std::size_t i = 4; i < 24; ++i) {
    ASSERT_TRUE(scenario.agents[i].goal.has_value());
    const Vec2 goal = *scenario.agents[i].goal;
    EXPECT_GE(goal.x, 100.0f);
    EXPECT_LE(goal.x, 110.0f);
    EXPECT_GE(goal.y, 100.0f);
    EXPECT_LE(goal.y, 120.0f);
    boxGoals.insert({goal.x, goal.y});
  }
  EXPECT_EQ(boxGoals.size(), 20u);
  for (std::size_t i = 24; i < 26; ++i) {
    EXPECT_FALSE(scenario.agents[i].goal.has_value());
    EXPECT_EQ(scenario.agents[i].prefVelocity, Vec2(0.5f, -0.5f));
  }
}

TEST(ScenarioParse, ReadsObstacles) {
  const Scenario scenario = parse(R"({ "agents": [ { "position": [-20, -20] } ],
    "obstacles": [ [[0, 0], [4, 0], [4, 2], [0, 2]], [[10, 10], [12, 14]] ] })");
  ASSERT_EQ(scenario.obstacles.size(), 2u);
  EXPECT_EQ(scenario.obstacles[0],
            (std::vector<Vec2>{{0.0f, 0.0f}, {4.0f, 0.0f}, {4.0f, 2.0f}, {0.0f, 2.0f}}));
  EXPECT_EQ(scenario.obstacles[1], (std::vector<Vec2>{{10.0f, 10.0f}, {12.0f, 14.0f}}));
}

TEST(ScenarioParse, AcceptsWholeValuedFloatsAsIntegers) {
  const Scenario scenario = parse(R"({ "steps": 2e3, "seed": 4.0,
    "agents": [ { "position": [0, 0], "maxNeighbors": 12.0 } ] })");
  EXPECT_EQ(scenario.steps, 2000);
  EXPECT_EQ(scenario.seed, 4u);
  EXPECT_EQ(scenario.agents[0].params.maxNeighbors, 12);
}

TEST(ScenarioParse, ZeroAgentsIsAllowedWithAWarning) {
  const Scenario scenario = parse(R"({ "groups": [
    { "type": "circle", "count": 0, "radius": 5 } ] })");
  EXPECT_TRUE(scenario.agents.empty());
  EXPECT_EQ(scenario.warnings, std::vector<std::string>{"no agents"});
}

TEST(ScenarioParse, MakeSimulatorHoldsAgentsAndObstaclesInOrder) {
  const Scenario scenario = parse(R"({ "timeStep": 0.125, "removeArrived": true,
    "agents": [ { "position": [-5, 0], "goal": [5, 0], "radius": 0.5 },
                { "position": [0, 7], "prefVelocity": [1, 0] } ],
    "obstacles": [ [[20, 20], [24, 20], [24, 22]] ] })");
  const Simulator simulator = makeSimulator(scenario, 2);
  EXPECT_EQ(simulator.config().timeStep, 0.125f);
  EXPECT_TRUE(simulator.config().removeArrived);
  EXPECT_EQ(simulator.config().threads, 2);
  ASSERT_EQ(simulator.agentCount(), 2u);
  EXPECT_EQ(simulator.obstacles().polygonCount(), 1u);
  const auto ids = simulator.ids();
  EXPECT_EQ(simulator.position(ids[0]), Vec2(-5.0f, 0.0f));
  EXPECT_EQ(simulator.params(ids[0]).radius, 0.5f);
  EXPECT_EQ(simulator.goal(ids[0]), std::optional<Vec2>(Vec2(5.0f, 0.0f)));
  EXPECT_EQ(simulator.position(ids[1]), Vec2(0.0f, 7.0f));
  EXPECT_FALSE(simulator.goal(ids[1]).has_value());
}

// ---- overlap warnings -------------------------------------------------------------------------

TEST(ScenarioOverlap, CountsOverlappingPairsAndNamesTheFirst) {
  // Agents 1, 2 and 3 touch each other pairwise; agent 0 and 4 are apart.
  const Scenario scenario = parse(R"({ "agents": [
    { "position": [-50, 0] }, { "position": [0, 0] }, { "position": [1, 0] },
    { "position": [0.5, 1] }, { "position": [50, 0] } ] })");
  ASSERT_EQ(scenario.warnings.size(), 1u);
  EXPECT_EQ(scenario.warnings[0],
            "3 agent pairs start overlapping (first: agents 1 and 2); ORCA will push them apart");
}

TEST(ScenarioOverlap, UsesEachAgentsOwnRadius) {
  // 2.5 apart: radii 1 + 1 do not touch, 1 + 2 do.
  const Scenario apart = parse(R"({ "agents": [ { "position": [0, 0], "radius": 1 },
    { "position": [2.5, 0], "radius": 1 } ] })");
  EXPECT_TRUE(apart.warnings.empty());
  const Scenario touching = parse(R"({ "agents": [ { "position": [0, 0], "radius": 1 },
    { "position": [2.5, 0], "radius": 2 } ] })");
  EXPECT_TRUE(hasWarning(touching, "1 agent pair starts overlapping (agents 0 and 1)"));
}

TEST(ScenarioOverlap, FindsAgentsOnOrInsideObstacles) {
  // Obstacle 0: a solid square; obstacle 1: a clockwise boundary agents may stand inside;
  // obstacle 2: a wall segment.
  const Scenario scenario = parse(R"({ "agents": [
    { "position": [-30, -30] },
    { "position": [5, 5], "radius": 0.5 },
    { "position": [11, 5] },
    { "position": [40, 40] },
    { "position": [70, 1] } ],
    "obstacles": [ [[0, 0], [10, 0], [10, 10], [0, 10]],
                   [[20, 20], [20, 60], [60, 60], [60, 20]],
                   [[60, 0], [80, 0]] ] })");
  // Agent 1 is deep inside the square, agent 2 grazes its east edge, agent 4 the wall; agent 3
  // is inside the clockwise boundary, which is where it belongs.
  ASSERT_EQ(scenario.warnings.size(), 1u);
  EXPECT_EQ(scenario.warnings[0], "3 agents start overlapping an obstacle (first: agent 1, obstacle 0)");
}

// The grids must find exactly what testing every pair and every edge finds.
TEST(ScenarioOverlap, MatchesBruteForce) {
  std::mt19937 random(12345);
  std::uniform_real_distribution<float> coordinate(-60.0f, 60.0f);
  std::uniform_real_distribution<float> radius(0.1f, 2.5f);
  Scenario scenario;
  for (int i = 0; i < 1500; ++i) {
    AgentDef agent;
    agent.position = Vec2(coordinate(random), coordinate(random));
    agent.params.radius = radius(random);
    scenario.agents.push_back(agent);
  }
  for (int k = 0; k < 12; ++k) {  // Solid squares, a clockwise boundary and some segments.
    const Vec2 c(coordinate(random), coordinate(random));
    if (k % 3 == 0) {
      scenario.obstacles.push_back({c, c + Vec2(9.0f, -3.0f)});
    } else {
      const Vec2 a = Vec2(2.0f + static_cast<float>(k), 3.0f);
      scenario.obstacles.push_back({c - a, c + Vec2(a.x, -a.y), c + a, c + Vec2(-a.x, a.y)});
    }
  }
  scenario.obstacles.push_back({{-70, -70}, {-70, 70}, {70, 70}, {70, -70}});

  std::size_t pairs = 0;
  std::pair<std::size_t, std::size_t> firstPair;
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    for (std::size_t j = i + 1; j < scenario.agents.size(); ++j) {
      const AgentDef& a = scenario.agents[i];
      const AgentDef& b = scenario.agents[j];
      const float contact = a.params.radius + b.params.radius;
      if (absSq(a.position - b.position) < contact * contact && pairs++ == 0) firstPair = {i, j};
    }
  }
  std::size_t touching = 0;
  std::pair<std::size_t, std::size_t> firstTouch;
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    const AgentDef& agent = scenario.agents[i];
    for (std::size_t p = 0; p < scenario.obstacles.size(); ++p) {
      const std::vector<Vec2>& polygon = scenario.obstacles[p];
      bool inside = false;
      bool near = false;
      for (std::size_t v = 0; v < polygon.size(); ++v) {
        const Vec2 a = polygon[v];
        const Vec2 b = polygon[(v + 1) % polygon.size()];
        near = near || distSqPointSegment(a, b, agent.position) < agent.params.radius * agent.params.radius;
        if ((a.y > agent.position.y) != (b.y > agent.position.y) &&
            agent.position.x < a.x + (b.x - a.x) * (agent.position.y - a.y) / (b.y - a.y)) {
          inside = !inside;
        }
      }
      if (near || (inside && polygon.size() > 2 && signedArea(polygon) > 0.0f)) {
        if (touching++ == 0) firstTouch = {i, p};
        break;
      }
    }
  }
  ASSERT_GT(pairs, 1u);
  ASSERT_GT(touching, 1u);
  addOverlapWarnings(scenario);
  EXPECT_EQ(
      scenario.warnings,
      (std::vector<std::string>{
          std::to_string(pairs) + " agent pairs start overlapping (first: agents " +
              std::to_string(firstPair.first) + " and " + std::to_string(firstPair.second) +
              "); ORCA will push them apart",
          std::to_string(touching) + " agents start overlapping an obstacle (first: agent " +
              std::to_string(firstTouch.first) + ", obstacle " + std::to_string(firstTouch.second) + ")"}));
}

TEST(ScenarioOverlap, HandlesLongWallsAndManyAgents) {
  // 200,000 agents 4 apart along a 2,000-long corridor whose walls they keep clear of, plus
  // one pair that overlaps and one agent in a wall.
  Scenario scenario;
  for (int row = 0; row < 400; ++row) {
    for (int column = 0; column < 500; ++column) {
      AgentDef agent;
      agent.position = Vec2(static_cast<float>(column) * 4.0f, static_cast<float>(row) * 4.0f);
      scenario.agents.push_back(agent);
    }
  }
  scenario.obstacles.push_back({{-3.0f, -5.0f}, {2000.0f, -5.0f}, {2000.0f, -3.0f}, {-3.0f, -3.0f}});
  scenario.obstacles.push_back({{-3.0f, -3.0f}, {-3.0f, 1600.0f}, {-5.0f, 1600.0f}});
  addOverlapWarnings(scenario);
  EXPECT_TRUE(scenario.warnings.empty());
  scenario.agents[1234].position += Vec2(2.0f, 0.0f);       // Within 3 of agent 1235.
  scenario.agents[150000].position = Vec2(1000.0f, -4.0f);  // Inside the south wall.
  scenario.warnings.clear();
  addOverlapWarnings(scenario);
  EXPECT_TRUE(hasWarning(scenario, "1 agent pair starts overlapping (agents 1234 and 1235)"));
  EXPECT_TRUE(hasWarning(scenario, "1 agent starts overlapping an obstacle (agent 150000, obstacle 0)"));
}

}  // namespace
}  // namespace crowd
