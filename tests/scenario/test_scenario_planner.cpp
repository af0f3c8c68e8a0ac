// The Frenet planner in scenario files: "planner" and every key of "frenet" read into Behavior,
// per agent, per group and in "agentDefaults", overriding the defaults key by key; every mistake
// refused with its JSON pointer (unknown names and keys, values out of range, settings that do
// not go together, a planner without a path or on a path too short for a reference line); and a
// vehicle read from a file passing a parked circle in its lane.
#include <algorithm>
#include <cmath>
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
  return parseScenarioSpec(text, "plan.json");
}

void expectError(const std::string& text, const std::string& path, const std::string& problem) {
  expectScenarioError(text, path, problem);
}

// One 20 m path, one agent with extra keys.
std::string plannerWith(const std::string& keys) {
  return R"({ "paths": [ { "points": [[0, 0], [20, 0]] } ], "agents": [ { "position": [0, 0], )" + keys +
         " } ] }";
}

// The same with a planner on path 0 and `frenet` as its "frenet" object.
std::string frenetWith(const std::string& frenet) {
  return plannerWith(R"("planner": "frenet", "path": 0, "frenet": )" + frenet);
}

// "laneHalfWidth, ..., horizons", as the tables list them.
std::string frenetKeyList() {
  std::string list;
  for (const FrenetField& field : kFrenetFields) list += (list.empty() ? "" : ", ") + std::string(field.key);
  for (const FrenetCountField& field : kFrenetCounts) list += ", " + std::string(field.key);
  return list;
}

// ---- reading ----------------------------------------------------------------------------------

TEST(ScenarioPlanner, NoPlannerKeysLeaveNoPlannerAndDefaultSettings) {
  const Behavior read = spec(plannerWith(R"("goal": [5, 0])")).agents[0].behavior;
  EXPECT_EQ(read.planner, LocalPlanner::None);
  EXPECT_EQ(read.frenet, FrenetSettings{});
  EXPECT_EQ(spec(plannerWith(R"("planner": "none")")).agents[0].behavior.planner, LocalPlanner::None);
}

TEST(ScenarioPlanner, ReadsThePlannerAndEveryFrenetKeyIntoItsField) {
  // A distinct value per key, each exact in binary, all within range and consistent (the
  // horizons far apart, so that checkStep fits in them).
  std::string frenet;
  std::vector<float> expected;
  for (std::size_t i = 0; i < std::size(kFrenetFields); ++i) {
    float value = 0.5f + 0.125f * static_cast<float>(i);
    if (kFrenetFields[i].value == &FrenetSettings::minHorizon) value = 1.5f;
    if (kFrenetFields[i].value == &FrenetSettings::maxHorizon) value = 30.0f;
    expected.push_back(value);
    frenet += (frenet.empty() ? "" : ", ") + std::string("\"") + std::string(kFrenetFields[i].key) +
              "\": " + std::to_string(value);
  }
  for (std::size_t i = 0; i < std::size(kFrenetCounts); ++i) {
    frenet += ", \"" + std::string(kFrenetCounts[i].key) + "\": " + std::to_string(i + 3);
  }
  const Behavior read = spec(frenetWith("{ " + frenet + " }")).agents[0].behavior;
  EXPECT_EQ(read.planner, LocalPlanner::Frenet);
  EXPECT_EQ(read.path, 0);
  for (std::size_t i = 0; i < std::size(kFrenetFields); ++i) {
    EXPECT_EQ(read.frenet.*kFrenetFields[i].value, expected[i]) << kFrenetFields[i].key;
  }
  for (std::size_t i = 0; i < std::size(kFrenetCounts); ++i) {
    EXPECT_EQ(read.frenet.*kFrenetCounts[i].value, static_cast<int>(i + 3)) << kFrenetCounts[i].key;
  }
  // Not settings: the simulator puts the agent's prefSpeed and maxSpeed there.
  EXPECT_EQ(read.frenet.targetSpeed, FrenetSettings{}.targetSpeed);
  EXPECT_EQ(read.frenet.maxSpeed, FrenetSettings{}.maxSpeed);
  // The rest of the behaviour is untouched: the planner is a mode, not a behaviour.
  Behavior rest = read;
  rest.planner = LocalPlanner::None;
  rest.frenet = FrenetSettings{};
  rest.path = -1;
  EXPECT_EQ(rest, Behavior{});
}

TEST(ScenarioPlanner, DefaultsApplyAndEachFrenetKeyOverridesAlone) {
  const ScenarioSpec read = spec(R"({
    "paths": [ { "points": [[0, 0], [20, 0]] }, { "points": [[0, 5], [20, 5]] } ],
    "agentDefaults": { "planner": "frenet", "path": 0, "frenet": { "offsets": 5, "margin": 0.5 } },
    "agents": [ { "position": [0, 0] },
                { "position": [4, 0], "frenet": { "offsets": 3 } },
                { "position": [8, 0], "planner": "none" },
                { "position": [12, 0], "path": 1, "frenet": { "maxHorizon": 6, "horizons": 2 } } ],
    "groups": [ { "type": "rectangle", "count": 2, "min": [0, 9], "max": [4, 9],
                  "frenet": { "laneHalfWidth": 2.5 } } ] })");
  FrenetSettings base;
  base.offsets = 5;
  base.margin = 0.5f;
  const Behavior& first = read.agents[0].behavior;
  EXPECT_EQ(first.planner, LocalPlanner::Frenet);
  EXPECT_EQ(first.path, 0);
  EXPECT_EQ(first.frenet, base);
  FrenetSettings fewer = base;
  fewer.offsets = 3;
  EXPECT_EQ(read.agents[1].behavior.frenet, fewer) << "offsets overridden, margin kept";
  EXPECT_EQ(read.agents[1].behavior.planner, LocalPlanner::Frenet);
  EXPECT_EQ(read.agents[2].behavior.planner, LocalPlanner::None);
  EXPECT_EQ(read.agents[2].behavior.frenet, base);
  FrenetSettings longer = base;
  longer.maxHorizon = 6.0f;
  longer.horizons = 2;
  EXPECT_EQ(read.agents[3].behavior.frenet, longer);
  EXPECT_EQ(read.agents[3].behavior.path, 1);
  FrenetSettings wider = base;
  wider.laneHalfWidth = 2.5f;
  EXPECT_EQ(read.groups[0].behavior.frenet, wider);
  EXPECT_EQ(read.groups[0].behavior.planner, LocalPlanner::Frenet);
  // And on to the agents the group makes.
  const Scenario expanded = expandScenario(read);
  ASSERT_EQ(expanded.agents.size(), 6u);
  EXPECT_EQ(expanded.agents[5].behavior.frenet, wider);
}

// ---- mistakes ---------------------------------------------------------------------------------

TEST(ScenarioPlanner, UnknownPlannerNamesListTheKnownOnes) {
  expectError(plannerWith(R"("planner": "frenett", "path": 0)"), "/agents/0/planner",
              "unknown planner 'frenett' (did you mean 'frenet'?) (known: none, frenet)");
  expectError(plannerWith(R"("planner": "lattice")"), "/agents/0/planner",
              "unknown planner 'lattice' (known: none, frenet)");
  expectError(plannerWith(R"("planner": 1)"), "/agents/0/planner", "expected a string");
  expectError(R"({ "agentDefaults": { "planner": "Frenet" } })", "/agentDefaults/planner",
              "unknown planner 'Frenet'");
  expectError(plannerWith(R"("planer": "frenet")"), "/agents/0/planer", "did you mean 'planner'?");
}

TEST(ScenarioPlanner, UnknownFrenetKeysListTheValidOnes) {
  const std::string known = "(known: " + frenetKeyList() + ")";
  expectError(frenetWith(R"({ "ofsets": 3 })"), "/agents/0/frenet/ofsets",
              "unknown frenet setting 'ofsets' (did you mean 'offsets'?) " + known);
  expectError(frenetWith(R"({ "lanes": 3 })"), "/agents/0/frenet/lanes",
              "unknown frenet setting 'lanes' " + known);
  // Settings of FrenetSettings that the agent's own parameters give.
  expectError(frenetWith(R"({ "targetSpeed": 2 })"), "/agents/0/frenet/targetSpeed",
              "'targetSpeed' is not a frenet setting: the planner uses the agent's \"prefSpeed\" " + known);
  expectError(frenetWith(R"({ "maxSpeed": 2 })"), "/agents/0/frenet/maxSpeed",
              "the planner uses the agent's \"maxSpeed\"");
  expectError(frenetWith("3"), "/agents/0/frenet", "expected an object, got number");
  expectError(frenetWith("[]"), "/agents/0/frenet", "expected an object, got array");
}

TEST(ScenarioPlanner, FrenetValuesOutOfRangeAreRefusedWhereTheyAreWritten) {
  for (const FrenetField& field : kFrenetFields) {
    const std::string key(field.key);
    const std::string range = "must be between ";
    expectError(frenetWith("{ \"" + key + "\": -1 }"), "/agents/0/frenet/" + key, range);
    expectError(frenetWith("{ \"" + key + "\": 1e7 }"), "/agents/0/frenet/" + key, "got 1e7");
    expectError(frenetWith("{ \"" + key + "\": \"2\" }"), "/agents/0/frenet/" + key, "expected a number");
    expectError(R"({ "agentDefaults": { "frenet": { ")" + key + R"(": -1 } } })",
                "/agentDefaults/frenet/" + key, "got -1");
    expectError(R"({ "groups": [ { "type": "circle", "count": 2, "radius": 5, "frenet": { ")" + key +
                    R"(": 1e7 } } ] })",
                "/groups/0/frenet/" + key, range);
  }
  expectError(frenetWith(R"({ "minHorizon": 0.01 })"), "/agents/0/frenet/minHorizon",
              "must be between 0.05 and 60, got 0.01");
  for (const FrenetCountField& field : kFrenetCounts) {
    const std::string key(field.key);
    const std::string at = "/agents/0/frenet/" + key;
    expectError(frenetWith("{ \"" + key + "\": 0 }"), at, "must be 1 to 9, got 0");
    expectError(frenetWith("{ \"" + key + "\": 10 }"), at, "must be 1 to 9, got 10");
    expectError(frenetWith("{ \"" + key + "\": 4294967297 }"), at, "must be 1 to 9, got 4294967297");
    expectError(frenetWith("{ \"" + key + "\": 2.5 }"), at, "must be an integer, got 2.5");
    expectError(frenetWith("{ \"" + key + "\": true }"), at, "expected a number");
  }
  // Whole numbers written as reals are counts too.
  EXPECT_EQ(spec(frenetWith(R"({ "offsets": 3.0, "speeds": 1e0 })")).agents[0].behavior.frenet.speeds, 1);
}

TEST(ScenarioPlanner, SettingsThatDoNotGoTogetherAreRefusedAtTheFrenetObject) {
  expectError(frenetWith(R"({ "minHorizon": 4, "maxHorizon": 3 })"), "/agents/0/frenet",
              "frenet.minHorizon is above frenet.maxHorizon");
  expectError(frenetWith(R"({ "checkStep": 6 })"), "/agents/0/frenet",
              "frenet.checkStep is longer than frenet.maxHorizon");
  // Over the defaults: the default minHorizon 4 and the agent's maxHorizon 3.
  expectError(R"({ "paths": [ { "points": [[0, 0], [20, 0]] } ],
                   "agentDefaults": { "frenet": { "minHorizon": 4 } },
                   "agents": [ { "position": [0, 0], "planner": "frenet", "path": 0,
                                 "frenet": { "maxHorizon": 3 } } ] })",
              "/agents/0/frenet", "frenet.minHorizon is above frenet.maxHorizon");
  expectError(R"({ "agentDefaults": { "frenet": { "minHorizon": 8 } } })", "/agentDefaults/frenet",
              "frenet.minHorizon is above frenet.maxHorizon");
}

TEST(ScenarioPlanner, APlannerNeedsAPath) {
  expectError(plannerWith(R"("planner": "frenet")"), "/agents/0/planner",
              "the frenet planner needs a path: give \"path\"");
  // A default path cleared by the agent, the planner its own.
  expectError(R"({ "paths": [ { "points": [[0, 0], [20, 0]] } ], "agentDefaults": { "path": 0 },
                   "agents": [ { "position": [0, 0], "planner": "frenet", "path": null } ] })",
              "/agents/0/planner", "the frenet planner needs a path");
  // The planner the defaults', the path nobody's: said at the agent that lacks one.
  expectError(R"({ "agentDefaults": { "planner": "frenet" },
                   "agents": [ { "position": [0, 0] } ] })",
              "/agents/0", "has the frenet planner of /agentDefaults/planner but no path");
  expectError(R"({ "groups": [ { "type": "circle", "count": 2, "radius": 5, "planner": "frenet" } ] })",
              "/groups/0/planner", "the frenet planner needs a path");
  // A path here or in the defaults is enough, and no planner needs none.
  EXPECT_EQ(scenarioErrorFor(R"({ "paths": [ { "points": [[0, 0], [20, 0]] } ],
                                  "agentDefaults": { "planner": "frenet", "path": 0 },
                                  "agents": [ { "position": [0, 0] } ] })",
                             "ok.json"),
            "");
  EXPECT_EQ(scenarioErrorFor(R"({ "agentDefaults": { "planner": "frenet" },
                                  "agents": [ { "position": [0, 0], "planner": "none" } ] })",
                             "ok.json"),
            "");
}

TEST(ScenarioPlanner, APathTooShortForAReferenceLineIsAScenarioError) {
  const std::string tooShort = "path 0 is too short for the frenet planner's reference line";
  expectError(R"({ "paths": [ { "points": [[0, 0], [0.1, 0]] } ],
                   "agents": [ { "position": [0, 0], "planner": "frenet", "path": 0 } ] })",
              "/agents/0/path", tooShort);
  expectError(R"({ "paths": [ { "points": [[0, 0], [0.05, 0], [0.05, 0.05]] } ],
                   "groups": [ { "type": "circle", "count": 3, "radius": 5, "planner": "frenet", "path": 0 } ] })",
              "/groups/0/path", tooShort);
  // Inline, numbered after the file's paths.
  expectError(R"({ "paths": [ { "points": [[0, 0], [20, 0]] } ],
                   "agents": [ { "position": [0, 0], "planner": "frenet", "path": [[3, 3], [3.1, 3]] } ] })",
              "/agents/0/path", "path 1 is too short for the frenet planner's reference line");
  // The same short path is fine for `follow`, which needs no reference line.
  EXPECT_EQ(scenarioErrorFor(R"({ "paths": [ { "points": [[0, 0], [0.1, 0]] } ],
                                  "agents": [ { "position": [0, 0], "behavior": "follow", "path": 0 } ] })",
                             "ok.json"),
            "");
}

// A loop's reference line would end at its seam and the vehicle stop there after one lap: the
// planner is refused on a loop, naming the place; `follow` on the same loop is fine.
TEST(ScenarioPlanner, APlannerOnALoopIsAScenarioError) {
  expectError(R"({ "paths": [ { "points": [[0, 0], [20, 0], [20, 20], [0, 20]], "loop": true } ],
                   "agents": [ { "position": [10, 0], "planner": "frenet", "path": 0 } ] })",
              "/agents/0/path", "path 0 is a loop; the frenet planner needs an open path");
  EXPECT_EQ(
      scenarioErrorFor(R"({ "paths": [ { "points": [[0, 0], [20, 0], [20, 20], [0, 20]], "loop": true } ],
                                  "agents": [ { "position": [10, 0], "behavior": "follow", "path": 0 } ] })",
                       "ok.json"),
      "");
}

TEST(ScenarioPlanner, SpecsBuiltInCodeAreCheckedToo) {
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
  base.paths.push_back(PathSpec{{Vec2(0.0f, 0.0f), Vec2(0.1f, 0.0f)}, false});
  base.agents.resize(1);
  base.agents[0].behavior.planner = LocalPlanner::Frenet;
  base.agents[0].behavior.path = 0;
  EXPECT_THAT(problem(base),
              StartsWith("code: /agents/0/path: path 0 is too short for the frenet planner's"));
  // So makeSimulator never sees it.
  EXPECT_THROW(expandScenario(base), ScenarioError);
  ScenarioSpec pathless = base;
  pathless.agents[0].behavior.path = -1;
  EXPECT_THAT(problem(pathless), StartsWith("code: /agents/0: the frenet planner needs a path"));
  ScenarioSpec settings = base;
  settings.paths[0].points[1] = Vec2(20.0f, 0.0f);
  EXPECT_EQ(problem(settings), "");
  settings.agents[0].behavior.frenet.offsets = 0;
  EXPECT_THAT(problem(settings), HasSubstr("frenet.offsets is 0"));
}

// ---- running ----------------------------------------------------------------------------------

// One vehicle on a straight 80 m lane read from a file, a parked disc of radius 1 on its centre
// line half way: it swerves round without touching it and settles on the lane's end.
TEST(ScenarioPlanner, AVehicleFromAFilePassesAParkedCircle) {
  const Scenario scenario = parseScenario(R"({ "timeStep": 0.1,
    "paths": [ { "points": [[0, 0], [80, 0]] } ],
    "circles": [ [40, 0, 1] ],
    "agents": [ { "position": [2, 0], "goal": [80, 0], "radius": 0.8, "prefSpeed": 3, "maxSpeed": 4,
                  "neighborDist": 12, "timeHorizon": 2, "timeHorizonObst": 1,
                  "planner": "frenet", "path": 0, "frenet": { "laneHalfWidth": 2.5 } } ] })",
                                          "lane.json");
  Simulator sim = makeSimulator(scenario, 2);
  const std::vector<AgentId> ids(sim.ids().begin(), sim.ids().end());
  ASSERT_EQ(ids.size(), 1u);
  const AgentId id = ids[0];
  EXPECT_EQ(sim.behavior(id).planner, LocalPlanner::Frenet);
  EXPECT_EQ(sim.behavior(id).frenet.laneHalfWidth, 2.5f);
  EXPECT_FALSE(sim.referenceLine(sim.behavior(id).path).empty());
  // Positions in the simulator's frame, as its circle and path are.
  ASSERT_EQ(sim.obstacles().circles().size(), 1u);
  const Vec2 centre = sim.obstacles().circles()[0].center;
  const Vec2 laneEnd = sim.pathPoints(0).back();
  float closest = INFINITY;
  float widest = 0.0f;
  std::int64_t candidates = 0;
  for (int s = 0; s < 400; ++s) {
    sim.step();
    const Vec2 p = sim.position(id);
    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y)) << "step " << s;
    closest = std::min(closest, length(p - centre) - 1.0f - 0.8f);
    widest = std::max(widest, std::fabs(p.y - centre.y));
    candidates += sim.lastPlanCandidates();
  }
  EXPECT_GT(closest, 0.0f) << "no contact with the parked circle";
  EXPECT_GT(widest, 1.0f) << "it left the centre line to pass";
  EXPECT_GT(candidates, 0) << "the planner steered it";
  EXPECT_LT(length(sim.position(id) - laneEnd), 0.5f) << "it came to rest on the lane's end";
}

TEST(ScenarioPlanner, TheExampleFileLoadsWithAPlannerForEveryVehicle) {
  const Scenario scenario = loadScenarioFile(std::string(CROWD_SOURCE_DIR) + "/scenarios/frenet_lane.json");
  EXPECT_TRUE(scenario.warnings.empty()) << scenario.warnings.front();
  ASSERT_GE(scenario.agents.size(), 6u);
  ASSERT_EQ(scenario.paths.size(), 2u);
  EXPECT_EQ(scenario.circles.size(), 2u);
  for (const AgentDef& agent : scenario.agents) {
    EXPECT_EQ(agent.behavior.planner, LocalPlanner::Frenet);
    EXPECT_GE(agent.behavior.path, 0);
  }
  Simulator sim = makeSimulator(scenario, 1);
  std::int64_t candidates = 0;
  for (int s = 0; s < 10; ++s) {
    sim.step();
    candidates += sim.lastPlanCandidates();
  }
  EXPECT_GT(candidates, 0) << "the vehicles plan";
}

}  // namespace
}  // namespace crowd
