// Scenario files that must be refused: one test per kind of mistake, each checking that the
// message names the source, the exact JSON path of the bad value and the problem.
#include <string>
#include <type_traits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/grid_map.hpp>
#include <crowd/recorded_scene.hpp>
#include <crowd/scenario.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string errorFor(const std::string& text) {
  return scenarioErrorFor(text, "bad.json");
}

// Checks "bad.json: <path>: ..." with `problem` somewhere in the rest.
void expectError(const std::string& text, const std::string& path, const std::string& problem) {
  const std::string message = errorFor(text);
  EXPECT_THAT(message, StartsWith("bad.json: " + path + ": ")) << "for " << text;
  EXPECT_THAT(message, HasSubstr(problem)) << "for " << text;
}

// An agent with one extra key, for the many per-value checks.
std::string agentWith(const std::string& keyAndValue) {
  return R"({ "agents": [ { "position": [0, 0] }, { "position": [5, 5], )" + keyAndValue + " } ] }";
}

// A file with several mistakes is refused with all of them, each at its place, in file order:
// first what the reader refuses, and once it reads, every value out of its limits.
TEST(ScenarioErrors, EveryProblemIsReported) {
  const std::string unreadable = errorFor(R"({
    "agents": [ { "position": [0, 0], "gol": [1, 1] }, { "position": [5, 5] }, { "position": "here" } ],
    "groups": [ { "type": "square", "count": 3 } ],
    "obstacles": [ [[0, 0], [1, "a"], [1, 1]] ] })");
  EXPECT_THAT(unreadable, StartsWith("bad.json: 4 problems\n"));
  EXPECT_THAT(unreadable,
              HasSubstr("\n  bad.json: /agents/0/gol: unknown key 'gol' (did you mean 'goal'?)\n"));
  EXPECT_THAT(unreadable, HasSubstr("\n  bad.json: /agents/2/position: "));
  EXPECT_THAT(unreadable, HasSubstr("\n  bad.json: /groups/0/type: unknown group type 'square'"));
  EXPECT_THAT(unreadable, HasSubstr("\n  bad.json: /obstacles/0/1/1: expected a number, got string"));
  EXPECT_LT(unreadable.find("/agents/2/"), unreadable.find("/groups/0/"));

  const std::string outOfLimits = errorFor(R"({ "timeStep": -1,
    "agents": [ { "position": [0, 0], "radius": -2 }, { "position": [5, 5] }, { "position": [9, 9], "maxSpeed": -1 } ] })");
  EXPECT_THAT(outOfLimits, StartsWith("bad.json: 3 problems\n  bad.json: /timeStep: "));
  EXPECT_THAT(outOfLimits, HasSubstr("\n  bad.json: /agents/0/radius: "));
  EXPECT_THAT(outOfLimits, HasSubstr("\n  bad.json: /agents/2/maxSpeed: "));

  // One problem reads as before: the problem alone.
  EXPECT_THAT(errorFor(R"({ "steps": -3 })"), StartsWith("bad.json: /steps: must be >= 0"));
}

// Past twenty problems a refusal says how many more there were.
TEST(ScenarioErrors, ManyProblemsAreCountedPastTheShownOnes) {
  std::string agents;
  for (int i = 0; i < 25; ++i) agents += std::string(i == 0 ? "" : ", ") + R"({ "position": [0, "x"] })";
  const std::string message = errorFor(R"({ "agents": [)" + agents + "] }");
  EXPECT_THAT(message, StartsWith("bad.json: 25 problems\n"));
  EXPECT_THAT(message, HasSubstr("/agents/19/position/1"));
  EXPECT_THAT(message, Not(HasSubstr("/agents/20/")));
  EXPECT_THAT(message, HasSubstr("\n  and 5 more"));
}

TEST(ScenarioErrors, SyntaxErrorGivesTheBytePosition) {
  // The stray comma is byte 13; nlohmann reports the '}' after it, byte 14.
  EXPECT_THAT(errorFor(R"({"steps": 10,})"), StartsWith("bad.json: syntax error at byte 14: "));
  EXPECT_THAT(errorFor(""), StartsWith("bad.json: syntax error at byte "));
  EXPECT_THAT(errorFor(R"({"steps": nope})"), HasSubstr("invalid literal"));
}

TEST(ScenarioErrors, NumberTooLargeForADouble) {
  const std::string message = errorFor(R"({ "timeStep": 1e999 })");
  EXPECT_THAT(message, StartsWith("bad.json: syntax error at byte 15: "));
  EXPECT_THAT(message, HasSubstr("1e999"));
  EXPECT_THAT(message, HasSubstr("finite"));
}

TEST(ScenarioErrors, TopLevelMustBeAnObject) {
  expectError("[1, 2]", "/", "expected an object at the top level, got array");
  expectError("3", "/", "got number");
}

TEST(ScenarioErrors, UnknownKeys) {
  expectError(R"({ "stpes": 5 })", "/stpes", "unknown key 'stpes' (did you mean 'steps'?)");
  expectError(agentWith(R"("radiuss": 1)"), "/agents/1/radiuss", "unknown key 'radiuss'");
  expectError(R"({ "agentDefaults": { "speed": 1 } })", "/agentDefaults/speed", "unknown key 'speed'");
  expectError(R"({ "groups": [ { "type": "circle", "count": 1, "radius": 5, "goal": [0, 0] } ] })",
              "/groups/0/goal", "unknown key 'goal'");
  expectError(R"({ "groups": [ { "type": "rectangle", "count": 1, "min": [0, 0], "max": [1, 1],
                   "goalRect": { "min": [0, 0], "max": [1, 1], "mid": [0, 0] } } ] })",
              "/groups/0/goalRect/mid", "unknown key 'mid'");
  // A key with characters that JSON pointers escape.
  expectError(R"({ "a/b~c": 1 })", "/a~1b~0c", "unknown key 'a/b~c'");
}

TEST(ScenarioErrors, DuplicateKeysNameTheObject) {
  // JSON readers keep the last of two equal keys; a scenario file refuses them instead.
  EXPECT_EQ(errorFor(R"({ "steps": 1, "steps": 2 })"), "bad.json: /: duplicate key 'steps'");
  EXPECT_EQ(errorFor(R"({ "agents": [ { "position": [0, 0] }, { "position": [5, 5] },
                          { "position": [9, 9], "radius": 1, "radius": 2 } ] })"),
            "bad.json: /agents/2: duplicate key 'radius'");
  // Numbers inside an agent's arrays do not move the count of agents on.
  EXPECT_EQ(errorFor(R"({ "agents": [ { "position": [0, 0], "velocity": [1, 1] },
                          { "position": [5, 5], "goal": [1, 2], "goal": [3, 4] } ] })"),
            "bad.json: /agents/1: duplicate key 'goal'");
  EXPECT_EQ(errorFor(R"({ "obstacles": [ [[0, 0], [1, 0]] ], "groups": [ { "type": "rectangle", "count": 1,
                          "min": [0, 0], "max": [1, 1], "goalRect": { "min": [0, 0], "min": [1, 1] } } ] })"),
            "bad.json: /groups/0/goalRect: duplicate key 'min'");
  EXPECT_EQ(errorFor(R"({ "a/b": { "k": 1, "k": 2 } })"), "bad.json: /a~1b: duplicate key 'k'");
  // The same key in sibling objects is no duplicate.
  EXPECT_EQ(errorFor(R"({ "agents": [ { "position": [0, 0], "radius": 1 },
                                      { "position": [5, 5], "radius": 1 } ] })"),
            "");
}

TEST(ScenarioErrors, WrongTypes) {
  expectError(R"({ "timeStep": "fast" })", "/timeStep", "expected a number, got string");
  expectError(R"({ "removeArrived": 1 })", "/removeArrived", "expected true or false, got number");
  expectError(R"({ "name": 5 })", "/name", "expected a string, got number");
  expectError(R"({ "agents": { "position": [0, 0] } })", "/agents", "expected an array, got object");
  expectError(R"({ "agents": [ [0, 0] ] })", "/agents/0", "expected an object, got array");
  expectError(agentWith(R"("maxSpeed": null)"), "/agents/1/maxSpeed", "expected a number, got null");
  expectError(R"({ "agentDefaults": [] })", "/agentDefaults", "expected an object, got array");
}

TEST(ScenarioErrors, NumbersBeyondFloatRange) {
  // Finite as a double, infinite once stored as the simulator's 32-bit float.
  expectError(agentWith(R"("radius": 1e39)"), "/agents/1/radius", "finite");
  expectError(R"({ "agents": [ { "position": [-1e300, 0] } ] })", "/agents/0/position/0", "finite");
}

TEST(ScenarioErrors, NegativeRadiusSpeedsAndNeighborDist) {
  expectError(agentWith(R"("radius": -1)"), "/agents/1/radius", "must be >= 0, got -1");
  expectError(agentWith(R"("maxSpeed": -0.5)"), "/agents/1/maxSpeed", "must be >= 0, got -0.5");
  expectError(agentWith(R"("prefSpeed": -2)"), "/agents/1/prefSpeed", "must be >= 0");
  expectError(agentWith(R"("neighborDist": -3)"), "/agents/1/neighborDist", "must be >= 0");
  expectError(R"({ "agentDefaults": { "radius": -1 } })", "/agentDefaults/radius", ">= 0");
  expectError(R"({ "groups": [ { "type": "circle", "count": 3, "radius": -5 } ] })", "/groups/0/radius",
              "must be >= 0");
  expectError(R"({ "groups": [ { "type": "circle", "count": 3, "radius": 5,
                   "agentRadius": -1 } ] })",
              "/groups/0/agentRadius", "must be >= 0");
}

TEST(ScenarioErrors, MaxNeighborsOutOfRangeOrFractional) {
  expectError(agentWith(R"("maxNeighbors": 33)"), "/agents/1/maxNeighbors",
              "must be <= 32 (the neighbour count limit), got 33");
  expectError(agentWith(R"("maxNeighbors": -1)"), "/agents/1/maxNeighbors", "must be >= 0, got -1");
  // Far outside an int: refused before it is narrowed.
  expectError(agentWith(R"("maxNeighbors": 1e12)"), "/agents/1/maxNeighbors",
              "must be <= 32 (the neighbour count limit), got 1000000000000");
  expectError(agentWith(R"("maxNeighbors": 2.5)"), "/agents/1/maxNeighbors", "must be an integer, got 2.5");
}

TEST(ScenarioErrors, TimeHorizonsMustBePositive) {
  expectError(agentWith(R"("timeHorizon": 0)"), "/agents/1/timeHorizon",
              "must be >= 1e-4 (the time horizon limit), got 0");
  expectError(agentWith(R"("timeHorizonObst": -1)"), "/agents/1/timeHorizonObst",
              "must be >= 1e-4 (the time horizon limit), got -1");
}

TEST(ScenarioErrors, TimeStepMustBePositive) {
  expectError(R"({ "timeStep": 0 })", "/timeStep", "must be >= 1e-6 (the time step limit), got 0");
  expectError(R"({ "timeStep": -0.25 })", "/timeStep", "must be >= 1e-6 (the time step limit), got -0.25");
}

TEST(ScenarioErrors, StepsMustBeANonNegativeInteger) {
  expectError(R"({ "steps": -1 })", "/steps", "must be >= 0, got -1");
  expectError(R"({ "steps": 10.5 })", "/steps", "must be an integer, got 10.5");
  expectError(R"({ "steps": 1e30 })", "/steps", "too large");
}

TEST(ScenarioErrors, SeedMustBeANonNegativeInteger) {
  expectError(R"({ "seed": -3 })", "/seed", "must be >= 0, got -3");
  expectError(R"({ "seed": 0.5 })", "/seed", "must be an integer");
  expectError(R"({ "seed": "x" })", "/seed", "expected a number, got string");
}

TEST(ScenarioErrors, CountMustBeANonNegativeInteger) {
  expectError(R"({ "groups": [ { "type": "circle", "count": -1, "radius": 5 } ] })", "/groups/0/count",
              "must be >= 0, got -1");
  expectError(R"({ "groups": [ { "type": "circle", "count": 1.5, "radius": 5 } ] })", "/groups/0/count",
              "must be an integer");
  expectError(R"({ "groups": [ { "type": "circle", "radius": 5 } ] })", "/groups/0",
              "missing required key 'count'");
}

TEST(ScenarioErrors, VectorsAreTwoFiniteNumbers) {
  expectError(R"({ "agents": [ { "position": [1] } ] })", "/agents/0/position",
              "expected an array of 2 numbers [x, y], got an array of 1 elements");
  expectError(R"({ "agents": [ { "position": [1, 2, 3] } ] })", "/agents/0/position",
              "got an array of 3 elements");
  expectError(R"({ "agents": [ { "position": "0,0" } ] })", "/agents/0/position", "got string");
  expectError(R"({ "agents": [ { "position": [0, 0], "velocity": [1, "a"] } ] })", "/agents/0/velocity/1",
              "expected a number, got string");
  expectError(R"({ "agents": [ { "position": [0, 0], "goal": {"x": 1, "y": 2} } ] })", "/agents/0/goal",
              "got object");
  expectError(R"({ "agents": [ { "velocity": [0, 0] } ] })", "/agents/0", "missing required key 'position'");
}

TEST(ScenarioErrors, RectangleMinAboveMax) {
  expectError(R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [0, 5],
                   "max": [10, 4] } ] })",
              "/groups/0/max", "must be >= min in both coordinates, got min [0, 5] and max [10, 4]");
  expectError(R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [0, 0], "max": [1, 1],
                   "goalRect": { "min": [5, 0], "max": [4, 1] } } ] })",
              "/groups/0/goalRect/max", "must be >= min");
  expectError(R"({ "groups": [ { "type": "rectangle", "count": 4, "min": [0, 0] } ] })", "/groups/0",
              "missing required key 'max'");
}

TEST(ScenarioErrors, AgentWithGoalAndPrefVelocity) {
  expectError(agentWith(R"("goal": [1, 1], "prefVelocity": [1, 0])"), "/agents/1",
              "has both 'goal' and 'prefVelocity'");
}

TEST(ScenarioErrors, GroupWithMoreThanOneGoalSpec) {
  expectError(R"({ "groups": [ { "type": "rectangle", "count": 2, "min": [0, 0], "max": [1, 1],
                   "goal": [5, 5], "goalOffset": [1, 0] } ] })",
              "/groups/0", "more than one goal spec (goal, goalOffset)");
  expectError(R"({ "groups": [ { "type": "rectangle", "count": 2, "min": [0, 0], "max": [1, 1],
                   "prefVelocity": [1, 0], "goalRect": { "min": [0, 0], "max": [1, 1] } } ] })",
              "/groups/0", "more than one goal spec (goalRect, prefVelocity)");
}

TEST(ScenarioErrors, UnknownGroupTypeOrPlacement) {
  expectError(R"({ "groups": [ { "type": "hexagon", "count": 2 } ] })", "/groups/0/type",
              "unknown group type 'hexagon' (known: circle, rectangle)");
  expectError(R"({ "groups": [ { "count": 2 } ] })", "/groups/0", "missing required key 'type'");
  expectError(R"({ "groups": [ { "type": "rectangle", "count": 2, "min": [0, 0], "max": [1, 1],
                   "placement": "spiral" } ] })",
              "/groups/0/placement", "unknown placement 'spiral' (known: grid, random)");
}

TEST(ScenarioErrors, PolygonsThatCheckPolygonRejects) {
  const std::string square = "[[0, 0], [4, 0], [4, 4], [0, 4]]";
  // A bow tie: its first and third edges cross.
  expectError(R"({ "obstacles": [ )" + square + ", " + square + R"(,
                   [[0, 0], [4, 4], [4, 0], [0, 4]] ] })",
              "/obstacles/2", "cross");
  expectError(R"({ "obstacles": [ [[1, 1]] ] })", "/obstacles/0", "at least 2 vertices");
  expectError(R"({ "obstacles": [ [[0, 0], [1, 0], [1, 0], [0, 1]] ] })", "/obstacles/0", "zero-length");
  expectError(R"({ "obstacles": [ [[0, 0], [1, 0], [1]] ] })", "/obstacles/0/2",
              "expected an array of 2 numbers");
  expectError(R"({ "obstacles": [ {"points": []} ] })", "/obstacles/0", "expected an array");
}

TEST(ScenarioErrors, TooManyAgentsToFit) {
  expectError(R"({ "groups": [
                   { "type": "rectangle", "count": 60000000, "min": [0, 0], "max": [1e5, 1e5] },
                   { "type": "circle", "count": 40000001, "radius": 1e6 } ] })",
              "/groups/1/count",
              "brings the total to 100000001 agents, more than the 100000000 a scenario can hold");
  EXPECT_THAT(errorFor(R"({ "groups": [ { "type": "circle", "count": 1e12, "radius": 5 } ] })"),
              HasSubstr("will not fit in memory"));
}

TEST(ScenarioErrors, MergedParamsAreCheckedAtTheAgentsPath) {
  // Every value is checked where it is written, so a bad default is reported at the default...
  expectError(R"({ "agentDefaults": { "timeHorizon": 0 },
                   "agents": [ { "position": [0, 0] } ] })",
              "/agentDefaults/timeHorizon", "must be >= 1e-4 (the time horizon limit)");
  // ...and a good override of a bad default never sees the bad value.
  EXPECT_EQ(errorFor(R"({ "agentDefaults": { "maxNeighbors": 32 },
                          "agents": [ { "position": [0, 0], "maxNeighbors": 0 } ] })"),
            "");
}

TEST(ScenarioErrors, MissingFileNamesThePathAndTheReason) {
  const std::string path = std::string(CROWD_SOURCE_DIR) + "/tests/data/no_such_file.json";
  try {
    loadScenarioFile(path);
    FAIL() << "loaded a file that does not exist";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()), path + ": cannot open: No such file or directory");
  }
}

TEST(ScenarioErrors, DirectoryIsNotAScenario) {
  const std::string path = std::string(CROWD_SOURCE_DIR) + "/tests/data";
  try {
    loadScenarioFile(path);
    FAIL() << "loaded a directory";
  } catch (const ScenarioError& error) {
    EXPECT_THAT(error.what(), StartsWith(path + ": cannot "));
  }
}

TEST(ScenarioErrors, BadFilesNameTheirPath) {
  const std::string data = std::string(CROWD_SOURCE_DIR) + "/tests/data/";
  try {
    loadScenarioFile(data + "bad_radius.json");
    FAIL() << "accepted bad_radius.json";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()), data + "bad_radius.json: /agents/0/radius: must be >= 0, got -1");
  }
  try {
    loadScenarioFile(data + "bad_syntax.json");
    FAIL() << "accepted bad_syntax.json";
  } catch (const ScenarioError& error) {
    EXPECT_THAT(error.what(), StartsWith(data + "bad_syntax.json: syntax error at byte "));
    EXPECT_THAT(error.what(), HasSubstr("line 3"));
  }
}

// Every refusal of bad input shares one base (crowd/errors.hpp), itself a std::invalid_argument:
// a scenario, a map and a recording, each with the place of its problem in the message.
TEST(ScenarioErrors, EveryKindOfBadInputSharesOneBase) {
  const auto refusal = [](auto&& read) -> std::string {
    try {
      read();
    } catch (const InputError& error) {
      return error.what();
    } catch (...) {
      return "another kind of error";
    }
    return "accepted";
  };
  EXPECT_EQ(refusal([] { parseScenario(R"({"agents": [{"position": [0, 0], "radius": -1}]})", "bad.json"); }),
            "bad.json: /agents/0/radius: must be >= 0, got -1");
  const std::vector<std::string> rows{"..", ".x"};
  EXPECT_EQ(refusal([&] { GridMap::fromRows(rows, "rows"); }).rfind("rows:2:", 0), 0u);
  EXPECT_EQ(refusal([] { parseRecordedScene("1 2 3\n", "walk.txt"); }).rfind("walk.txt:1:", 0), 0u);
  static_assert(std::is_base_of_v<std::invalid_argument, InputError>);
}

}  // namespace
}  // namespace crowd
