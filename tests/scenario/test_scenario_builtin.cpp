// Ready-made scenarios: the built-ins, which must build the number of agents asked for without
// initial overlaps, with agents inside their walls and goals they can reach; and the example
// files in scenarios/, which must load as documented. The steering built-ins' own layouts are
// tested in test_scenario_builtin_steering.cpp.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

#include "rvo2_circle_example.hpp"

namespace crowd {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// The ORCA set-ups (RVO2's agent parameters, goals for everyone), then the steering ones.
const std::vector<std::string> kNames = {"circle", "crossing", "corridor", "bottleneck", "random"};
const std::vector<std::string> kAllNames = {"circle",  "crossing", "corridor", "bottleneck", "random",
                                            "pursuit", "pathloop", "forest",   "mix",        "evacuation",
                                            "lanes",   "maze",     "walkway",  "doorway"};

struct Bounds {
  Vec2 min;
  Vec2 max;
};

Bounds boundsOf(const std::vector<Vec2>& polygon) {
  Bounds bounds{polygon[0], polygon[0]};
  for (const Vec2 v : polygon) {
    bounds.min = Vec2(std::min(bounds.min.x, v.x), std::min(bounds.min.y, v.y));
    bounds.max = Vec2(std::max(bounds.max.x, v.x), std::max(bounds.max.y, v.y));
  }
  return bounds;
}

TEST(ScenarioBuiltin, NamesAndDescriptions) {
  EXPECT_EQ(builtinScenarioNames(), kAllNames);
  for (const std::string& name : kAllNames) {
    const std::string description = builtinScenarioDescription(name);
    EXPECT_GT(description.size(), 20u) << name;
    EXPECT_EQ(description.find('\n'), std::string::npos) << name;
  }
  EXPECT_THROW(builtinScenarioDescription("nosuch"), ScenarioError);
}

TEST(ScenarioBuiltin, UnknownNameListsTheKnownOnes) {
  try {
    builtinScenario("nosuch");
    FAIL() << "built an unknown scenario";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()),
              "unknown built-in scenario 'nosuch' (known: circle, crossing, corridor, "
              "bottleneck, random, pursuit, pathloop, forest, mix, evacuation, lanes, maze, walkway, "
              "doorway, sphere, "
              "swarm)");
  }
}

TEST(ScenarioBuiltin, RefusesCountsItCannotMake) {
  for (const std::string& name : kAllNames) {
    try {
      builtinScenario(name, 0);
      FAIL() << name << " with no agents";
    } catch (const ScenarioError& error) {
      EXPECT_THAT(error.what(), StartsWith("builtin:" + name + ": agents: must be between 1 and"));
    }
    try {
      builtinScenario(name, 100'000'001);
      FAIL() << name << " with more agents than fit";
    } catch (const ScenarioError& error) {
      EXPECT_THAT(error.what(), HasSubstr("will not fit in memory"));
    }
  }
}

// Every built-in at a few sizes: the exact count, sane settings and no overlaps at the start.
TEST(ScenarioBuiltin, EachBuildsTheCountAskedWithoutOverlaps) {
  const std::size_t defaults[] = {250, 400, 300, 200, 1000};
  for (std::size_t n = 0; n < kNames.size(); ++n) {
    for (const std::optional<std::size_t> count :
         {std::optional<std::size_t>(1), std::optional<std::size_t>(7), std::optional<std::size_t>(100),
          std::optional<std::size_t>()}) {
      SCOPED_TRACE(kNames[n] + " with " + (count ? std::to_string(*count) : "default") + " agents");
      const Scenario scenario = builtinScenario(kNames[n], count);
      EXPECT_EQ(scenario.agents.size(), count.value_or(defaults[n]));
      EXPECT_EQ(scenario.name, "builtin:" + kNames[n]);
      // RVO2's step for its own set-ups (circle, random); a finer one for the dense flows.
      const bool rvo2SetUp = kNames[n] == "circle" || kNames[n] == "random";
      EXPECT_EQ(scenario.timeStep, rvo2SetUp ? 0.25f : 0.1f);
      EXPECT_GT(scenario.steps, 0);
      EXPECT_TRUE(scenario.warnings.empty()) << scenario.warnings.front();
      for (const AgentDef& agent : scenario.agents) {
        ASSERT_TRUE(agent.goal.has_value());
        EXPECT_TRUE(std::isfinite(agent.position.x) && std::isfinite(agent.position.y));
        EXPECT_EQ(agent.params.radius, AgentParams{}.radius);
        EXPECT_EQ(agent.params.neighborDist, AgentParams{}.neighborDist);
      }
    }
  }
}

TEST(ScenarioBuiltin, SeedMakesThemRepeatable) {
  for (const char* name :
       {"crossing", "corridor", "bottleneck", "random", "pursuit", "pathloop", "forest", "mix"}) {
    SCOPED_TRACE(name);
    const Scenario first = builtinScenario(name, 120, 3);
    const Scenario again = builtinScenario(name, 120, 3);
    const Scenario other = builtinScenario(name, 120, 4);
    bool anyDifferent = false;
    for (std::size_t i = 0; i < first.agents.size(); ++i) {
      EXPECT_EQ(first.agents[i].position, again.agents[i].position);
      EXPECT_EQ(first.agents[i].goal, again.agents[i].goal);
      anyDifferent = anyDifferent || first.agents[i].position != other.agents[i].position;
    }
    EXPECT_TRUE(anyDifferent);
    EXPECT_EQ(first.seed, 3u);
  }
}

TEST(ScenarioBuiltin, CircleOf250IsRvo2sCircleExample) {
  const Scenario scenario = builtinScenario("circle");
  ASSERT_EQ(scenario.agents.size(), 250u);
  for (std::size_t i = 0; i < 250; ++i) {
    const Vec2 expected = rvo2CirclePosition(i);
    EXPECT_EQ(scenario.agents[i].position, expected) << "agent " << i;
    EXPECT_EQ(*scenario.agents[i].goal, -expected) << "agent " << i;
    EXPECT_EQ(scenario.agents[i].params, AgentParams{});
  }
  EXPECT_TRUE(scenario.obstacles.empty());
  EXPECT_FALSE(scenario.removeArrived);
  // RVO2 needs 3,547 steps; the built-in allows 4 times the 400-unit walk at 1 unit/s in 0.25 s
  // steps, plus 200.
  EXPECT_EQ(scenario.steps, 6600);
}

TEST(ScenarioBuiltin, CircleKeepsItsSpacingAsItGrows) {
  const Scenario big = builtinScenario("circle", 1000);
  EXPECT_NEAR(length(big.agents[0].position), 800.0f, 1e-3f);
  const Scenario tiny = builtinScenario("circle", 3);
  EXPECT_NEAR(length(tiny.agents[0].position), 10.0f, 1e-4f);
}

TEST(ScenarioBuiltin, CrossingStreamsPassThroughEachOther) {
  const Scenario scenario = builtinScenario("crossing", 401);
  std::vector<Vec2> eastGoals;
  std::vector<Vec2> northGoals;
  for (const AgentDef& agent : scenario.agents) {
    const Vec2 travel = *agent.goal - agent.position;
    if (travel.x > 50.0f) {
      eastGoals.push_back(*agent.goal);
      EXPECT_LE(agent.position.x, -29.5f);  // Starts west of the crossing, in a block 40 wide...
      EXPECT_LE(std::abs(agent.position.y), 20.5f);
      EXPECT_GE(agent.goal->x, 70.0f);  // ...and ends well past the other stream's path.
      EXPECT_LE(std::abs(agent.goal->y), 40.0f);
    } else {
      northGoals.push_back(*agent.goal);
      EXPECT_GT(travel.y, 50.0f);
      EXPECT_LE(agent.position.y, -29.5f);
      EXPECT_LE(std::abs(agent.position.x), 20.5f);
      EXPECT_GE(agent.goal->y, 70.0f);
      EXPECT_LE(std::abs(agent.goal->x), 40.0f);
    }
  }
  EXPECT_EQ(eastGoals.size(), 201u);  // The first stream takes the odd agent.
  EXPECT_EQ(northGoals.size(), 200u);
  // The formations beyond the crossing leave room for a late agent to walk to its place.
  for (const std::vector<Vec2>* goals : {&eastGoals, &northGoals}) {
    float closest = 1e30f;
    for (std::size_t i = 0; i < goals->size(); ++i) {
      for (std::size_t j = i + 1; j < goals->size(); ++j) {
        closest = std::min(closest, length((*goals)[i] - (*goals)[j]));
      }
    }
    EXPECT_GE(closest, 8.0f - 1e-3f);
  }
}

TEST(ScenarioBuiltin, CorridorAgentsStartAndEndBetweenTheWalls) {
  for (const std::size_t count : {1u, 7u, 300u, 5000u}) {
    SCOPED_TRACE(count);
    const Scenario scenario = builtinScenario("corridor", count);
    ASSERT_EQ(scenario.obstacles.size(), 2u);
    const Bounds south = boundsOf(scenario.obstacles[0]);
    const Bounds north = boundsOf(scenario.obstacles[1]);
    EXPECT_GT(signedArea(scenario.obstacles[0]), 0.0f);  // Solid walls.
    EXPECT_GT(signedArea(scenario.obstacles[1]), 0.0f);
    EXPECT_EQ(south.max.y, -15.0f);
    EXPECT_EQ(north.min.y, 15.0f);
    std::size_t eastbound = 0;
    for (const AgentDef& agent : scenario.agents) {
      const float clearance = agent.params.radius + 0.5f;
      for (const Vec2 p : {agent.position, *agent.goal}) {
        EXPECT_GE(p.y - clearance, south.max.y);
        EXPECT_LE(p.y + clearance, north.min.y);
        EXPECT_GE(p.x, south.min.x);
        EXPECT_LE(p.x, south.max.x);
      }
      if (agent.goal->x > agent.position.x) ++eastbound;
    }
    EXPECT_EQ(eastbound, count - count / 2);
    // Each group ends where the other started: goals reach the far half.
    const AgentDef& first = scenario.agents.front();
    EXPECT_LT(first.position.x, 0.0f);
    EXPECT_GT(first.goal->x, 0.0f);
  }
}

TEST(ScenarioBuiltin, CorridorGroupsWalkInInterleavedLanes) {
  // Opposing agents are never on a collision course at the start: their lanes are at least a
  // body apart (3), so the groups can pass without jamming.
  const Scenario scenario = builtinScenario("corridor", 300);
  std::vector<float> eastLanes;
  std::vector<float> westLanes;
  for (const AgentDef& agent : scenario.agents) {
    (agent.goal->x > agent.position.x ? eastLanes : westLanes).push_back(agent.position.y);
  }
  ASSERT_EQ(eastLanes.size(), 150u);
  ASSERT_EQ(westLanes.size(), 150u);
  for (const float east : eastLanes) {
    for (const float west : westLanes) EXPECT_GE(std::abs(east - west), 3.0f);
  }
}

TEST(ScenarioBuiltin, BottleneckIsAnEvacuationThroughTheEastDoor) {
  for (const std::size_t count : {1u, 200u, 5000u}) {
    SCOPED_TRACE(count);
    const Scenario scenario = builtinScenario("bottleneck", count);
    EXPECT_TRUE(scenario.removeArrived);
    ASSERT_EQ(scenario.obstacles.size(), 5u);
    Bounds room{Vec2(1e30f), Vec2(-1e30f)};  // The walls' extent, then shrunk to the inside.
    for (const std::vector<Vec2>& wall : scenario.obstacles) {
      EXPECT_GT(signedArea(wall), 0.0f);
      const Bounds bounds = boundsOf(wall);
      room.min = Vec2(std::min(room.min.x, bounds.min.x), std::min(room.min.y, bounds.min.y));
      room.max = Vec2(std::max(room.max.x, bounds.max.x), std::max(room.max.y, bounds.max.y));
    }
    room.min += Vec2(2.0f);
    room.max -= Vec2(2.0f);
    const float side = room.max.x - room.min.x;
    EXPECT_NEAR(side, std::max(30.0f, std::sqrt(static_cast<float>(count) / 0.05f)), 1e-3f);
    const Vec2 goal = *scenario.agents[0].goal;
    EXPECT_NEAR(goal.x, room.max.x + 2.0f + 15.0f, 1e-3f);
    EXPECT_NEAR(goal.y, 0.5f * (room.min.y + room.max.y), 1e-3f);
    for (const AgentDef& agent : scenario.agents) {
      const float clearance = agent.params.radius + 1.0f;
      EXPECT_GE(agent.position.x - clearance, room.min.x - 1e-3f);
      EXPECT_LE(agent.position.x + clearance, room.max.x + 1e-3f);
      EXPECT_GE(agent.position.y - clearance, room.min.y - 1e-3f);
      EXPECT_LE(agent.position.y + clearance, room.max.y + 1e-3f);
      EXPECT_EQ(*agent.goal, goal);
      EXPECT_EQ(agent.params.goalRadius, 6.0f);
    }
  }
}

TEST(ScenarioBuiltin, RandomFillsASquareAtTheTargetDensity) {
  const Scenario scenario = builtinScenario("random", 2000, 11);
  EXPECT_TRUE(scenario.removeArrived);
  // At least the farthest walk at the preferred speed (1), times the crowd's slack (> 4).
  double farthest = 0.0;
  for (const AgentDef& agent : scenario.agents)
    farthest = std::max(farthest, static_cast<double>(length(*agent.goal - agent.position)));
  EXPECT_GT(static_cast<double>(scenario.steps) * static_cast<double>(scenario.timeStep), 4.0 * farthest);
  const float half = 0.5f * std::sqrt(2000.0f / 0.05f);
  Vec2 low(1e30f);
  Vec2 high(-1e30f);
  for (const AgentDef& agent : scenario.agents) {
    EXPECT_LE(std::abs(agent.goal->x), half);
    EXPECT_LE(std::abs(agent.goal->y), half);
    low = Vec2(std::min(low.x, agent.position.x), std::min(low.y, agent.position.y));
    high = Vec2(std::max(high.x, agent.position.x), std::max(high.y, agent.position.y));
  }
  // The start lattice spans the square (to within a lattice step).
  EXPECT_NEAR(high.x - low.x, 2.0f * half, 6.0f);
  EXPECT_NEAR(high.y - low.y, 2.0f * half, 6.0f);
}

TEST(ScenarioBuiltin, LargeScenariosBuildWithoutOverlaps) {
  // A million agents: the overlap check must cope, and the lattice must stay clean.
  const Scenario scenario = builtinScenario("random", 1'000'000);
  EXPECT_EQ(scenario.agents.size(), 1'000'000u);
  EXPECT_TRUE(scenario.warnings.empty()) << scenario.warnings.front();
}

// ---- example files ------------------------------------------------------------------------------

const std::string kScenarioDir = std::string(CROWD_SOURCE_DIR) + "/scenarios/";

TEST(ScenarioFiles, Rvo2CircleIsTheCircleExample) {
  const Scenario scenario = loadScenarioFile(kScenarioDir + "rvo2_circle.json");
  EXPECT_EQ(scenario.name, kScenarioDir + "rvo2_circle.json");
  EXPECT_EQ(scenario.timeStep, 0.25f);
  EXPECT_EQ(scenario.steps, 4000);
  EXPECT_TRUE(scenario.obstacles.empty());
  EXPECT_TRUE(scenario.warnings.empty());
  ASSERT_EQ(scenario.agents.size(), 250u);
  // The same agents as the built-in circle, which follows RVO2's formula (tested above).
  const Scenario builtin = builtinScenario("circle", 250);
  for (std::size_t i = 0; i < 250; ++i) {
    EXPECT_EQ(scenario.agents[i].position, builtin.agents[i].position);
    EXPECT_EQ(scenario.agents[i].goal, builtin.agents[i].goal);
    EXPECT_EQ(scenario.agents[i].params, AgentParams{});
  }
}

TEST(ScenarioFiles, TwoAgents) {
  const Scenario scenario = loadScenarioFile(kScenarioDir + "two_agents.json");
  EXPECT_EQ(scenario.timeStep, 0.1f);
  EXPECT_EQ(scenario.seed, 7u);
  ASSERT_EQ(scenario.agents.size(), 2u);
  EXPECT_EQ(scenario.agents[0].velocity, Vec2(1.0f, 0.0f));
  EXPECT_EQ(scenario.agents[0].goal, std::optional<Vec2>(Vec2(10.0f, 0.0f)));
  EXPECT_EQ(scenario.agents[0].params.radius, 1.0f);
  EXPECT_FALSE(scenario.agents[1].goal.has_value());
  EXPECT_EQ(scenario.agents[1].prefVelocity, Vec2(-1.0f, 0.0f));
  EXPECT_EQ(scenario.agents[1].params.radius, 0.5f);
  EXPECT_EQ(scenario.agents[1].params.maxSpeed, 1.5f);
  EXPECT_TRUE(scenario.warnings.empty());
}

TEST(ScenarioFiles, RoomWithDoor) {
  const Scenario scenario = loadScenarioFile(kScenarioDir + "room_with_door.json");
  EXPECT_TRUE(scenario.removeArrived);
  EXPECT_EQ(scenario.obstacles.size(), 5u);
  ASSERT_EQ(scenario.agents.size(), 60u);
  for (const AgentDef& agent : scenario.agents) {
    EXPECT_GE(agent.position.x, 3.0f);
    EXPECT_LE(agent.position.x, 25.0f);
    EXPECT_EQ(agent.goal, std::optional<Vec2>(Vec2(52.0f, 15.0f)));
  }
  EXPECT_TRUE(scenario.warnings.empty()) << scenario.warnings.front();
  const Simulator simulator = makeSimulator(scenario);
  EXPECT_EQ(simulator.agentCount(), 60u);
  EXPECT_EQ(simulator.obstacles().polygonCount(), 5u);
}

}  // namespace
}  // namespace crowd
