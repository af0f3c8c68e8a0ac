// Steering in scenario files: the behaviour keys of agents, groups and "agentDefaults", targets by
// number and by name, paths (listed and inline) and circles, read into the spec and carried into
// the simulator; every mistake refused with its JSON pointer; the warnings for parameters no
// behaviour reads and pursuers without a target.
#include <algorithm>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/simulator.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

ScenarioSpec spec(const std::string& text) {
  return parseScenarioSpec(text, "steer.json");
}

void expectError(const std::string& text, const std::string& path, const std::string& problem) {
  expectScenarioError(text, path, problem);
}

// Two agents, the second with extra keys.
std::string agentWith(const std::string& keys) {
  return R"({ "agents": [ { "position": [0, 0] }, { "position": [5, 5], )" + keys + " } ] }";
}

// One path, one agent with extra keys.
std::string followerWith(const std::string& keys) {
  return R"({ "paths": [ { "points": [[0, 0], [10, 0]] } ], "agents": [ { "position": [0, 0], )" + keys +
         " } ] }";
}

bool hasWarning(const Scenario& scenario, const std::string& part) {
  return std::any_of(scenario.warnings.begin(), scenario.warnings.end(),
                     [&](const std::string& warning) { return warning.find(part) != std::string::npos; });
}

std::vector<WeightedBehavior> kinds(std::initializer_list<WeightedBehavior> list) {
  return list;
}

// ---- reading ----------------------------------------------------------------------------------

TEST(ScenarioBehaviors, NoBehaviorKeysLeaveTheGoalRule) {
  const ScenarioSpec read = spec(R"({ "agents": [ { "position": [0, 0], "goal": [5, 0] } ],
    "groups": [ { "type": "circle", "count": 4, "radius": 10 } ] })");
  EXPECT_EQ(read.agents[0].behavior, Behavior{});
  EXPECT_TRUE(read.agents[0].behavior.goalOnly());
  EXPECT_FALSE(read.agents[0].target.has_value());
  EXPECT_EQ(read.groups[0].behavior, Behavior{});
  EXPECT_FALSE(read.groups[0].target.has_value());
  EXPECT_TRUE(read.paths.empty());
  EXPECT_TRUE(read.circles.empty());
}

TEST(ScenarioBehaviors, ReadsANameOrAWeightedList) {
  const ScenarioSpec read = spec(R"({ "agents": [
    { "position": [0, 0], "behavior": "seek" },
    { "position": [5, 0], "behavior": [ { "name": "arrive", "weight": 2.5 }, "wander",
                                        { "name": "separation" }, { "name": "flee", "weight": -1 } ] } ] })");
  EXPECT_EQ(read.agents[0].behavior.behaviors, kinds({{BehaviorKind::Seek, 1.0f}}));
  EXPECT_EQ(read.agents[1].behavior.behaviors, kinds({{BehaviorKind::Arrive, 2.5f},
                                                      {BehaviorKind::Wander, 1.0f},
                                                      {BehaviorKind::Separation, 1.0f},
                                                      {BehaviorKind::Flee, -1.0f}}));
}

TEST(ScenarioBehaviors, ReadsEveryBehaviourName) {
  for (int k = 0; k < kBehaviorKindCount; ++k) {
    const std::string name = kBehaviorNames[k];
    // Follow needs a path, pursue and evade a target (for no warning; they would load anyway).
    const ScenarioSpec read =
        spec(followerWith(R"("behavior": ")" + name + R"(", "path": 0 }, { "position": [9, 9] )"));
    EXPECT_EQ(read.agents[0].behavior.behaviors, kinds({{static_cast<BehaviorKind>(k), 1.0f}})) << name;
  }
}

TEST(ScenarioBehaviors, ReadsCombineAvoidanceAndPursuit) {
  const ScenarioSpec read = spec(R"({ "agents": [
    { "position": [0, 0], "behavior": ["avoid", "seek"], "combine": "priority", "avoidance": "none" },
    { "position": [5, 0], "behavior": "pursue", "pursuit": "chase", "target": 0 },
    { "position": [9, 0], "behavior": "pursue", "pursuit": "sight", "target": 0, "combine": "sum",
      "avoidance": "orca" } ] })");
  EXPECT_EQ(read.agents[0].behavior.combine, CombineRule::Priority);
  EXPECT_EQ(read.agents[0].behavior.avoidance, AvoidanceMode::None);
  EXPECT_EQ(read.agents[0].behavior.pursuit, PursuitKind::Intercept);  // The default.
  EXPECT_EQ(read.agents[1].behavior.pursuit, PursuitKind::Chase);
  EXPECT_EQ(read.agents[2].behavior.pursuit, PursuitKind::Sight);
  EXPECT_EQ(read.agents[2].behavior.combine, CombineRule::Sum);
  EXPECT_EQ(read.agents[2].behavior.avoidance, AvoidanceMode::Orca);
}

TEST(ScenarioBehaviors, ReadsEveryParameterKey) {
  std::string keys = R"("behavior": "wander")";
  for (std::size_t i = 0; i < std::size(kBehaviorFields); ++i) {
    keys += ", \"" + std::string(kBehaviorFields[i].key) + "\": " + std::to_string(i + 1) + ".5";
  }
  const Behavior read = spec(agentWith(keys)).agents[1].behavior;
  for (std::size_t i = 0; i < std::size(kBehaviorFields); ++i) {
    EXPECT_EQ(read.*kBehaviorFields[i].value, static_cast<float>(i + 1) + 0.5f) << kBehaviorFields[i].key;
  }
}

TEST(ScenarioBehaviors, DefaultsApplyAndEachKeyOverridesAlone) {
  const ScenarioSpec read = spec(R"({
    "agentDefaults": { "behavior": ["seek", "separation"], "maxForce": 7, "separationRadius": 3,
                       "avoidance": "none" },
    "agents": [ { "position": [0, 0] }, { "position": [5, 0], "maxForce": 2 },
                { "position": [9, 0], "behavior": "wander" } ],
    "groups": [ { "type": "rectangle", "count": 2, "min": [0, 9], "max": [4, 9], "combine": "priority" } ] })");
  Behavior expected;
  expected.behaviors = kinds({{BehaviorKind::Seek, 1.0f}, {BehaviorKind::Separation, 1.0f}});
  expected.maxForce = 7.0f;
  expected.separationRadius = 3.0f;
  expected.avoidance = AvoidanceMode::None;
  EXPECT_EQ(read.agents[0].behavior, expected);
  Behavior second = expected;
  second.maxForce = 2.0f;
  EXPECT_EQ(read.agents[1].behavior, second);
  Behavior third = expected;
  third.behaviors = kinds({{BehaviorKind::Wander, 1.0f}});
  EXPECT_EQ(read.agents[2].behavior, third);
  Behavior group = expected;
  group.combine = CombineRule::Priority;
  EXPECT_EQ(read.groups[0].behavior, group);
}

TEST(ScenarioBehaviors, NamesResolveToAgentNumbers) {
  // A target may name an agent listed after it; groups may name listed agents too.
  const ScenarioSpec read = spec(R"({ "agents": [
      { "position": [0, 0], "name": "hunter", "behavior": "pursue", "target": "prey" },
      { "position": [9, 0], "name": "prey", "behavior": "evade", "target": "hunter" },
      { "position": [9, 9], "behavior": "seek", "target": 1 } ],
    "groups": [ { "type": "rectangle", "count": 3, "min": [20, 0], "max": [30, 0],
                  "behavior": "pursue", "target": "prey" } ] })");
  EXPECT_EQ(read.agents[0].target, std::optional<AgentId>(AgentId{1, 0}));
  EXPECT_EQ(read.agents[1].target, std::optional<AgentId>(AgentId{0, 0}));
  EXPECT_EQ(read.agents[2].target, std::optional<AgentId>(AgentId{1, 0}));
  EXPECT_EQ(read.groups[0].target, std::optional<std::size_t>(1));
}

TEST(ScenarioBehaviors, GroupsGiveEveryAgentTheirBehaviourAndTarget) {
  const Scenario scenario = parseScenario(R"({ "agents": [ { "position": [0, 0], "name": "leader" } ],
    "groups": [ { "type": "circle", "count": 5, "radius": 20, "behavior": ["seek", "separation"],
                  "target": "leader", "separationRadius": 2 },
                { "type": "rectangle", "count": 4, "min": [40, 0], "max": [50, 10], "behavior": "pursue",
                  "pursuit": "sight", "target": 3 } ] })",
                                          "steer.json");
  ASSERT_EQ(scenario.agents.size(), 10u);
  for (std::size_t i = 1; i <= 5; ++i) {
    EXPECT_EQ(scenario.agents[i].behavior.behaviors,
              kinds({{BehaviorKind::Seek, 1.0f}, {BehaviorKind::Separation, 1.0f}}));
    EXPECT_EQ(scenario.agents[i].behavior.separationRadius, 2.0f);
    EXPECT_EQ(scenario.agents[i].target, std::optional<AgentId>(AgentId{0, 0}));
  }
  for (std::size_t i = 6; i < 10; ++i) {
    EXPECT_EQ(scenario.agents[i].behavior.pursuit, PursuitKind::Sight);
    EXPECT_EQ(scenario.agents[i].target, std::optional<AgentId>(AgentId{3, 0}));
  }
  EXPECT_FALSE(scenario.agents[0].target.has_value());
}

TEST(ScenarioBehaviors, ReadsPathsAndCircles) {
  const ScenarioSpec read = spec(R"({
    "paths": [ { "points": [[0, 0], [10, 0], [10, 10]], "loop": true }, { "points": [[1, 2], [3, 4]] } ],
    "circles": [ [5, 6, 1.5], [-3, 0.5, 2] ] })");
  ASSERT_EQ(read.paths.size(), 2u);
  EXPECT_EQ(read.paths[0].points, (std::vector<Vec2>{{0, 0}, {10, 0}, {10, 10}}));
  EXPECT_TRUE(read.paths[0].loop);
  EXPECT_EQ(read.paths[1].points, (std::vector<Vec2>{{1, 2}, {3, 4}}));
  EXPECT_FALSE(read.paths[1].loop);
  ASSERT_EQ(read.circles.size(), 2u);
  EXPECT_EQ(read.circles[0].center, Vec2(5.0f, 6.0f));
  EXPECT_EQ(read.circles[0].radius, 1.5f);
  EXPECT_EQ(read.circles[1].center, Vec2(-3.0f, 0.5f));
  EXPECT_EQ(read.circles[1].radius, 2.0f);
}

TEST(ScenarioBehaviors, InlinePathsAreNumberedAfterTheFilesPaths) {
  const ScenarioSpec read = spec(R"({
    "paths": [ { "points": [[0, 0], [10, 0]] } ],
    "agentDefaults": { "behavior": "follow", "path": [[0, 5], [5, 5]] },
    "agents": [ { "position": [0, 0] }, { "position": [2, 0], "path": 0 },
                { "position": [4, 0], "path": [[0, 0], [4, 0], [4, 4]], "loop": true } ],
    "groups": [ { "type": "rectangle", "count": 2, "min": [0, 9], "max": [4, 9],
                  "path": [[9, 9], [20, 20]] } ] })");
  ASSERT_EQ(read.paths.size(), 4u);  // The file's, then the defaults', the agent's, the group's.
  EXPECT_EQ(read.paths[1].points, (std::vector<Vec2>{{0, 5}, {5, 5}}));
  EXPECT_EQ(read.paths[2].points, (std::vector<Vec2>{{0, 0}, {4, 0}, {4, 4}}));
  EXPECT_TRUE(read.paths[2].loop);
  EXPECT_FALSE(read.paths[3].loop);
  EXPECT_EQ(read.agents[0].behavior.path, 1);
  EXPECT_EQ(read.agents[1].behavior.path, 0);
  EXPECT_EQ(read.agents[2].behavior.path, 2);
  EXPECT_EQ(read.groups[0].behavior.path, 3);
}

TEST(ScenarioBehaviors, NullClearsADefaultTargetOrPath) {
  const ScenarioSpec read = spec(R"({ "paths": [ { "points": [[0, 0], [10, 0]] } ],
    "agentDefaults": { "behavior": ["seek"], "target": "boss", "path": 0 },
    "agents": [ { "position": [0, 0], "name": "boss", "target": null, "path": null, "behavior": "goal" },
                { "position": [5, 0] } ] })");
  EXPECT_FALSE(read.agents[0].target.has_value());
  EXPECT_EQ(read.agents[0].behavior.path, -1);
  EXPECT_EQ(read.agents[1].target, std::optional<AgentId>(AgentId{0, 0}));
  EXPECT_EQ(read.agents[1].behavior.path, 0);
}

TEST(ScenarioBehaviors, MakeSimulatorGivesAgentsWhatTheFileSays) {
  const Scenario scenario = parseScenario(R"({
    "paths": [ { "points": [[0, 0], [20, 0], [20, 20], [0, 20]], "loop": true } ],
    "circles": [ [40, 40, 3] ],
    "agents": [ { "position": [0, -5], "name": "runner", "goal": [60, 0], "behavior": ["goal", "wander"] },
                { "position": [-20, 0], "behavior": "pursue", "pursuit": "chase", "target": "runner" },
                { "position": [5, 5], "behavior": "follow", "path": 0, "pathRadius": 1 },
                { "position": [30, 30], "goal": [50, 50], "behavior": ["avoid", "arrive", "follow"],
                  "avoidance": "none", "path": [[1, 1], [2, 2]] } ] })",
                                          "steer.json");
  EXPECT_TRUE(scenario.warnings.empty()) << scenario.warnings.front();
  Simulator sim = makeSimulator(scenario, 1);
  const std::vector<AgentId> ids(sim.ids().begin(), sim.ids().end());
  ASSERT_EQ(ids.size(), 4u);
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(sim.behavior(ids[i]), scenario.agents[i].behavior);
  EXPECT_EQ(sim.target(ids[1]), std::optional<AgentId>(ids[0]));
  EXPECT_FALSE(sim.target(ids[0]).has_value());
  ASSERT_EQ(sim.pathCount(), 2);
  const std::span<const Vec2> loop = sim.pathPoints(0);
  EXPECT_EQ(std::vector<Vec2>(loop.begin(), loop.end()),
            (std::vector<Vec2>{{0, 0}, {20, 0}, {20, 20}, {0, 20}}));
  EXPECT_TRUE(sim.pathLoops(0));
  EXPECT_FALSE(sim.pathLoops(1));
  EXPECT_EQ(sim.behavior(ids[3]).path, 1);
  ASSERT_EQ(sim.obstacles().circles().size(), 1u);
  EXPECT_EQ(sim.obstacles().circles()[0].center, Vec2(40.0f, 40.0f));
  EXPECT_EQ(sim.obstacles().circles()[0].radius, 3.0f);
  for (int s = 0; s < 20; ++s) sim.step();
  EXPECT_LT(sim.position(ids[1]).x, sim.position(ids[0]).x);  // Chasing, not yet caught.
  EXPECT_GT(sim.position(ids[1]).x, -20.0f);
}

TEST(ScenarioBehaviors, ExampleFilesLoadCleanlyAndRun) {
  const std::string dir = std::string(CROWD_SOURCE_DIR) + "/scenarios/";
  for (const char* name : {"pursuit_pair.json", "path_loop.json", "posts.json"}) {
    const Scenario scenario = loadScenarioFile(dir + name);
    EXPECT_TRUE(scenario.warnings.empty()) << name << ": " << scenario.warnings.front();
    Simulator sim = makeSimulator(scenario, 1);
    for (int s = 0; s < 10; ++s) sim.step();
  }
  const Scenario pursuit = loadScenarioFile(dir + "pursuit_pair.json");
  for (std::size_t i = 1; i < pursuit.agents.size(); ++i) {
    EXPECT_EQ(pursuit.agents[i].target, std::optional<AgentId>(AgentId{0, 0}));
  }
  EXPECT_EQ(loadScenarioFile(dir + "path_loop.json").paths[0].points.size(), 5u);
  EXPECT_FALSE(loadScenarioFile(dir + "posts.json").circles.empty());
}

// ---- mistakes ---------------------------------------------------------------------------------

TEST(ScenarioBehaviors, UnknownNamesListTheKnownOnes) {
  const std::string known = "known: " + behaviorNameList();
  expectError(agentWith(R"("behavior": "seak")"), "/agents/1/behavior",
              "unknown behaviour 'seak' (did you mean 'seek'?) (" + known + ")");
  expectError(agentWith(R"("behavior": ["seek", "wandr"])"), "/agents/1/behavior/1",
              "unknown behaviour 'wandr'");
  expectError(agentWith(R"("behavior": [{ "name": "fly" }])"), "/agents/1/behavior/0/name",
              "unknown behaviour 'fly' (" + known + ")");
  expectError(agentWith(R"("combine": "add")"), "/agents/1/combine",
              "unknown combine rule 'add' (known: sum, priority)");
  expectError(agentWith(R"("avoidance": "rvo")"), "/agents/1/avoidance",
              "unknown motion model 'rvo' (known: orca, none, csm, socialforce)");
  expectError(agentWith(R"("pursuit": "chasse")"), "/agents/1/pursuit",
              "unknown pursuit rule 'chasse' (did you mean 'chase'?) (known: chase, sight, intercept)");
}

TEST(ScenarioBehaviors, WrongShapesAndUnknownKeys) {
  expectError(agentWith(R"("behavior": 3)"), "/agents/1/behavior", "expected a behaviour name or a list");
  expectError(agentWith(R"("behavior": [true])"), "/agents/1/behavior/0", "got boolean");
  expectError(agentWith(R"("behavior": [{ "name": "seek", "wieght": 2 }])"), "/agents/1/behavior/0/wieght",
              "unknown key 'wieght' (did you mean 'weight'?)");
  expectError(agentWith(R"("behavior": [{ "weight": 2 }])"), "/agents/1/behavior/0",
              "missing required key 'name'");
  expectError(agentWith(R"("behavior": [{ "name": "seek", "weight": "x" }])"), "/agents/1/behavior/0/weight",
              "expected a number");
  expectError(agentWith(R"("pathRadious": 2)"), "/agents/1/pathRadious", "did you mean 'pathRadius'?");
  expectError(R"({ "agentDefaults": { "wanderJiter": 1 } })", "/agentDefaults/wanderJiter",
              "did you mean 'wanderJitter'?");
  expectError(R"({ "groups": [ { "type": "circle", "count": 2, "radius": 5, "behaviour": "seek" } ] })",
              "/groups/0/behaviour", "did you mean 'behavior'?");
  expectError(agentWith(R"("target": [1])"), "/agents/1/target", "expected an agent number or an agent's");
  expectError(agentWith(R"("target": 0.5)"), "/agents/1/target", "must be an integer");
  expectError(agentWith(R"("path": "zero")"), "/agents/1/path", "expected a path number");
  expectError(R"({ "circles": [ [1, 2] ] })", "/circles/0",
              "expected an array of 3 numbers [x, y, radius], got an array of 2 elements");
  expectError(R"({ "circles": { "a": 1 } })", "/circles", "expected an array");
  expectError(R"({ "paths": [ { "loop": true } ] })", "/paths/0", "missing required key 'points'");
  expectError(R"({ "paths": [ { "points": [[0, 0], [1, 1]], "closed": true } ] })", "/paths/0/closed",
              "unknown key 'closed'");
  expectError(R"({ "paths": [ { "points": [[0, 0], [1]] } ] })", "/paths/0/points/1",
              "expected an array of 2");
  EXPECT_EQ(scenarioErrorFor(agentWith(R"("behavior": "seek", "behavior": "flee")"), "bad.json"),
            "bad.json: /agents/1: duplicate key 'behavior'");
  EXPECT_EQ(
      scenarioErrorFor(R"({ "paths": [ { "points": [[0, 0], [1, 1]], "loop": true, "loop": false } ] })",
                       "bad.json"),
      "bad.json: /paths/0: duplicate key 'loop'");
}

TEST(ScenarioBehaviors, BehaviourListRules) {
  expectError(agentWith(R"("behavior": [])"), "/agents/1/behavior", "needs at least one behaviour");
  expectError(agentWith(R"("behavior": ["seek", "flee", "wander", "separation", "avoid"])"),
              "/agents/1/behavior", "lists 5 behaviours; at most 4 can be combined");
  expectError(agentWith(R"("behavior": ["seek", "wander", { "name": "seek", "weight": 2 }])"),
              "/agents/1/behavior/2", "lists \"seek\" again (it is behaviour 0)");
  expectError(agentWith(R"("behavior": [{ "name": "seek", "weight": 2000 }])"), "/agents/1/behavior/0/weight",
              "(the behaviour weight limit), got 2000");
  expectError(R"({ "agentDefaults": { "behavior": ["seek", "seek"] }, "agents": [ { "position": [0, 0],
                   "behavior": "seek" } ] })",
              "/agentDefaults/behavior/1", "lists \"seek\" again");
}

TEST(ScenarioBehaviors, ParametersOutsideTheirLimits) {
  for (const BehaviorField& field : kBehaviorFields) {
    const std::string key(field.key);
    // Every lower limit is 0 or above.
    expectError(agentWith("\"" + key + "\": -1"), "/agents/1/" + key, "must be >= ");
    expectError(R"({ "agentDefaults": { ")" + key + R"(": -1 } })", "/agentDefaults/" + key, "got -1");
    expectError(R"({ "groups": [ { "type": "circle", "count": 2, "radius": 5, ")" + key + R"(": 1e7 } ] })",
                "/groups/0/" + key, "must be <= ");
  }
  expectError(agentWith(R"("mass": 0)"), "/agents/1/mass", "(the mass limit), got 0");
}

TEST(ScenarioBehaviors, TargetsMustBeOtherAgentsThatExist) {
  expectError(agentWith(R"("target": 2)"), "/agents/1/target",
              "agent 2 does not exist (the scenario has 2 agents)");
  expectError(agentWith(R"("target": -1)"), "/agents/1/target", "must be >= 0, got -1");
  expectError(agentWith(R"("target": 4294967296)"), "/agents/1/target", "does not exist");
  expectError(agentWith(R"("target": 1)"), "/agents/1/target",
              "an agent cannot target itself (it is agent 1)");
  expectError(agentWith(R"("name": "me", "target": "me")"), "/agents/1/target", "cannot target itself");
  expectError(agentWith(R"("target": "bob")"), "/agents/1/target",
              "no agent is named 'bob' (no agent in \"agents\" has a \"name\")");
  expectError(agentWith(R"("name": "robert", "behavior": "seek" }, { "position": [9, 9], "target": "robrt")"),
              "/agents/2/target", "no agent is named 'robrt' (did you mean 'robert'?)");
  const std::string group = R"({ "agents": [ { "position": [0, 0] } ], "groups": [
    { "type": "rectangle", "count": 3, "min": [5, 0], "max": [9, 0], "target": )";
  expectError(group + "2 } ] }", "/groups/0/target",
              "agent 2 is one of this group's agents (1 to 3): it would target itself");
  expectError(group + "4 } ] }", "/groups/0/target", "agent 4 does not exist (the scenario has 4 agents)");
}

TEST(ScenarioBehaviors, ADefaultTargetIsCheckedWhereItIsWritten) {
  expectError(
      R"({ "agentDefaults": { "target": 7 }, "agents": [ { "position": [0, 0] }, { "position": [5, 5] } ] })",
      "/agentDefaults/target", "agent 7 does not exist (the scenario has 2 agents)");
  expectError(
      R"({ "agentDefaults": { "target": 1 }, "agents": [ { "position": [0, 0] }, { "position": [5, 5] } ] })",
      "/agents/1", "targets itself through the default target (/agentDefaults/target)");
  expectError(R"({ "agentDefaults": { "target": 1 }, "agents": [ { "position": [0, 0] } ],
                   "groups": [ { "type": "circle", "count": 3, "radius": 5 } ] })",
              "/groups/0", "agent 1 of this group would target itself");
  expectError(R"({ "agentDefaults": { "target": "x" } })", "/agentDefaults/target", "no agent is named 'x'");
}

TEST(ScenarioBehaviors, NamesAreUniqueNonEmptyText) {
  expectError(R"({ "agents": [ { "position": [0, 0], "name": "a" }, { "position": [5, 5], "name": "a" } ] })",
              "/agents/1/name", "agent 0 is already named 'a'");
  expectError(agentWith(R"("name": "")"), "/agents/1/name", "must not be empty");
  expectError(agentWith(R"("name": 3)"), "/agents/1/name", "expected a string");
  expectError(R"({ "groups": [ { "type": "circle", "count": 2, "radius": 5, "name": "g" } ] })",
              "/groups/0/name", "unknown key 'name'");
}

TEST(ScenarioBehaviors, FollowersNeedAPathThatExists) {
  expectError(agentWith(R"("behavior": "follow")"), "/agents/1", "follow needs a path");
  expectError(followerWith(R"("behavior": "follow", "path": 1)"), "/agents/0/path",
              "path 1 does not exist (1 paths are defined)");
  expectError(followerWith(R"("path": -2)"), "/agents/0/path", "must be >= 0, got -2");
  expectError(followerWith(R"("path": 0, "loop": true)"), "/agents/0/loop",
              "'loop' goes with a path given here");
  expectError(followerWith(R"("loop": true)"), "/agents/0/loop", "'loop' goes with");
  expectError(R"({ "agentDefaults": { "behavior": "follow", "path": 3 },
                   "paths": [ { "points": [[0, 0], [1, 0]] } ] })",
              "/agentDefaults/path", "path 3 does not exist (1 paths are defined)");
  expectError(R"({ "groups": [ { "type": "circle", "count": 2, "radius": 5, "behavior": ["follow"] } ] })",
              "/groups/0", "follow needs a path");
}

TEST(ScenarioBehaviors, PathsMustBeFollowable) {
  expectError(R"({ "paths": [ { "points": [[0, 0]] } ] })", "/paths/0/points",
              "a path needs at least 2 points, got 1");
  expectError(R"({ "paths": [ { "points": [[0, 0], [5, 0]], "loop": true } ] })", "/paths/0/points",
              "a loop needs at least 3 points, got 2");
  expectError(R"({ "paths": [ { "points": [[0, 0], [5, 0], [5, 0], [9, 9]] } ] })", "/paths/0/points/2",
              "repeats point 1 (a segment of zero length)");
  expectError(R"({ "paths": [ { "points": [[0, 0], [5, 0], [5, 5], [0, 0]], "loop": true } ] })",
              "/paths/0/points/3", "repeats point 0: a loop joins its last point to its first by itself");
  expectError(R"({ "paths": [ { "points": [[0, 0], [2e6, 0]] } ] })", "/paths/0/points/1/0",
              "(the coordinate limit), got 2e6");
  // Inline paths are reported where they are written.
  expectError(agentWith(R"("path": [[1, 1], [1, 1]])"), "/agents/1/path/1", "repeats point 0");
  expectError(agentWith(R"("path": [[1, 1], [2, 2]], "loop": true)"), "/agents/1/path",
              "a loop needs at least 3 points, got 2");
  expectError(R"({ "agentDefaults": { "path": [[0, 0], [0, -3e6]] } })", "/agentDefaults/path/1/1",
              "the coordinate limit");
  expectError(R"({ "groups": [ { "type": "circle", "count": 2, "radius": 5, "path": [[0, 0]] } ] })",
              "/groups/0/path", "a path needs at least 2 points, got 1");
}

TEST(ScenarioBehaviors, CirclesMustBeDrawable) {
  expectError(R"({ "circles": [ [0, 0, 1], [5, 5, 0] ] })", "/circles/1/2", "must be > 0, got 0");
  expectError(R"({ "circles": [ [5, 5, -2] ] })", "/circles/0/2", "must be > 0, got -2");
  expectError(R"({ "circles": [ [5, 5, 2e4] ] })", "/circles/0/2", "(the radius limit), got 20000");
  expectError(R"({ "circles": [ [5, 2e6, 1] ] })", "/circles/0/1", "(the coordinate limit)");
  expectError(R"({ "circles": [ [999999, 0, 10] ] })", "/circles/0", "puts the circle's polygon as far as");
  // Far from the origin a tiny radius rounds every corner of its polygon onto one line.
  expectError(R"({ "circles": [ [900000, 0, 0.001] ] })", "/circles/0/2", "is too small to draw a circle");
}

TEST(ScenarioBehaviors, SpecsBuiltInCodeAreCheckedToo) {
  const auto problem = [](const ScenarioSpec& spec) {
    try {
      validateScenarioSpec(spec);
    } catch (const ScenarioError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  ScenarioSpec base;
  base.name = "code";
  base.agents.resize(2);
  base.agents[1].position = Vec2(5.0f, 0.0f);
  EXPECT_EQ(problem(base), "");
  ScenarioSpec self = base;
  self.agents[0].target = AgentId{0, 0};
  EXPECT_THAT(problem(self), StartsWith("code: /agents/0/target: an agent cannot target itself"));
  ScenarioSpec many = base;
  GroupSpec group;
  group.count = 2;
  group.circleRadius = 5.0f;
  group.behavior.behaviors.assign(5, WeightedBehavior{});
  many.groups.push_back(group);
  EXPECT_THAT(problem(many), StartsWith("code: /groups/0/behavior: lists 5 behaviours"));
  ScenarioSpec circle = base;
  circle.circles.push_back(CircleSpec{Vec2(0.0f, 0.0f), 0.0f});
  EXPECT_THAT(problem(circle), StartsWith("code: /circles/0/2: must be > 0"));
  ScenarioSpec path = base;
  path.paths.push_back(PathSpec{{Vec2(0.0f, 0.0f)}, false});
  EXPECT_THAT(problem(path), StartsWith("code: /paths/0/points: a path needs at least 2 points"));
  ScenarioSpec follower = base;
  follower.agents[1].behavior.behaviors = kinds({{BehaviorKind::FollowPath, 1.0f}});
  EXPECT_THAT(problem(follower), StartsWith("code: /agents/1: follow needs a path"));
}

// ---- warnings ---------------------------------------------------------------------------------

TEST(ScenarioBehaviors, WarnsOfParametersNoBehaviourReads) {
  const Scenario scenario =
      parseScenario(agentWith(R"("behavior": "seek", "pathRadius": 3, "wanderJitter": 1)"), "steer.json");
  EXPECT_TRUE(
      hasWarning(scenario, "agent 1 sets pathRadius, wanderJitter, which none of its behaviours (seek) uses"))
      << (scenario.warnings.empty() ? "" : scenario.warnings.front());
  const Scenario group = parseScenario(R"({ "paths": [ { "points": [[0, 0], [1, 0]] } ],
    "groups": [ { "type": "circle", "count": 3, "radius": 9, "maxForce": 2, "pursuit": "chase", "path": 0 } ] })",
                                       "steer.json");
  EXPECT_TRUE(hasWarning(group,
                         "3 agents (first: agent 0) set maxForce, pursuit, path, which none of their "
                         "behaviours (goal) uses"));
  // Parameters at their defaults, or read by a behaviour, say nothing.
  EXPECT_TRUE(parseScenario(agentWith(R"("behavior": "follow", "path": [[0, 0], [9, 0]], "pathRadius": 3)"),
                            "steer.json")
                  .warnings.empty());
}

TEST(ScenarioBehaviors, WarnsOfPursuersWithoutTargetsAndTargetsNothingUses) {
  const Scenario pursuers = parseScenario(
      R"({ "groups": [ { "type": "circle", "count": 4, "radius": 9, "behavior": "pursue" } ] })",
      "steer.json");
  EXPECT_TRUE(
      hasWarning(pursuers, "4 agents (first: agent 0) pursue or evade but have no target: no pursuit force"));
  const Scenario one = parseScenario(agentWith(R"("behavior": "evade")"), "steer.json");
  EXPECT_TRUE(hasWarning(one, "agent 1 pursues or evades but has no target: no pursuit force"));
  const Scenario idle = parseScenario(agentWith(R"("behavior": "wander", "target": 0)"), "steer.json");
  EXPECT_TRUE(hasWarning(idle, "agent 1 has a target that none of its behaviours uses"));
  // A goal-only agent keeps RVO2's rule, which has no target either.
  EXPECT_TRUE(hasWarning(parseScenario(agentWith(R"("target": 0)"), "steer.json"), "has a target that none"));
  EXPECT_TRUE(parseScenario(agentWith(R"("behavior": "flee", "target": 0)"), "steer.json").warnings.empty());
}

}  // namespace
}  // namespace crowd
