// Settings that are legal but dangerous get a warning before the run; files that are not JSON
// text, and scenarios too large for memory, are refused before anything is generated.
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

namespace crowd {
namespace {

using testing::HasSubstr;

std::string allWarnings(const Scenario& scenario) {
  std::string text;
  for (const std::string& w : scenario.warnings) text += w + "\n";
  return text;
}

TEST(ScenarioRisks, HorizonShorterThanTheStepIsWarned) {
  const Scenario scenario = parseScenario(R"({ "timeStep": 10,
      "agentDefaults": { "timeHorizonObst": 0.001, "timeHorizon": 0.5, "maxSpeed": 1000 },
      "agents": [ { "position": [0, 0], "goal": [100, 0] } ],
      "obstacles": [ [[50, -5], [60, -5], [60, 5], [50, 5]] ] })",
                                          "tunnel.json");
  const std::string warnings = allWarnings(scenario);
  EXPECT_THAT(warnings, HasSubstr("timeHorizonObst 0.001 s is shorter than the time step 10 s"));
  EXPECT_THAT(warnings, HasSubstr("timeHorizon 0.5 s is shorter than the time step 10 s"));
  EXPECT_THAT(warnings, HasSubstr("moves 10000 per step, more than its radius 1.5"));
}

TEST(ScenarioRisks, OrdinarySettingsAreNotWarned) {
  for (const char* name : {"circle", "crossing", "corridor", "bottleneck", "random"}) {
    EXPECT_EQ(builtinScenario(name, 300).warnings.size(), 0u)
        << name << ": " << allWarnings(builtinScenario(name, 300));
  }
}

TEST(ScenarioRisks, APileDenserThanNeighbourListsIsWarned) {
  const Scenario scenario = parseScenario(R"({ "groups": [ { "type": "rectangle", "count": 200,
      "min": [0, 0], "max": [0.5, 0.5], "goalOffset": [10, 0] } ] })",
                                          "pile.json");
  EXPECT_THAT(allWarnings(scenario), HasSubstr("200 agents start within 3 of each other"));
  EXPECT_THAT(allWarnings(scenario), HasSubstr("(4.0e+04 candidate pairs a step at first)"));
}

// The same in a 3D world: a box of 2,000 agents one body wide, 4 million pair tests a step; the
// sphere of RVO2-3D, spread out, is not warned of a pile.
TEST(ScenarioRisks, A3dPileIsWarnedWithItsCost) {
  const Scenario3 pile = parseScenario3(R"({ "dimensions": 3, "groups": [ { "type": "box", "count": 2000,
      "min": [0, 0, 0], "max": [1, 1, 1], "placement": "random", "goal": [50, 50, 50] } ] })",
                                        "pile.json");
  std::string warnings;
  for (const std::string& w : pile.warnings) warnings += w + "\n";
  EXPECT_THAT(warnings, HasSubstr("2000 agents start within 3 of each other near ["));
  EXPECT_THAT(warnings, HasSubstr("(4.0e+06 candidate pairs a step at first)"));
  for (const std::string& w : builtinScenario3("sphere", 812).warnings)
    EXPECT_THAT(w, testing::Not(HasSubstr("neighbour list holds")));
}

TEST(ScenarioRisks, NulBytesAreRefusedWithTheirPlace) {
  const std::string text = std::string(R"({"agents": [{"position": [0, 0]}]})") + '\0' + R"({"steps": 1})";
  try {
    (void)parseScenario(text, "nul.json");
    FAIL() << "a NUL byte must be refused";
  } catch (const ScenarioError& error) {
    EXPECT_THAT(error.what(), HasSubstr("nul.json: byte 35 is a NUL character"));
  }
}

TEST(ScenarioRisks, TextAfterTheDocumentIsRefused) {
  EXPECT_THROW((void)parseScenario(R"({"agents": [{"position": [0, 0]}]} trailing)", "trail.json"),
               ScenarioError);
  EXPECT_NO_THROW((void)parseScenario("{\"agents\": [{\"position\": [0, 0]}]}\n\n", "spaces.json"));
}

TEST(ScenarioRisks, ScenariosTooLargeForMemoryAreRefusedBeforeTheyAreMade) {
  // 10^8 agents want about 40 GiB; refused with the estimate instead of running out of memory.
  try {
    (void)builtinScenario("random", 100'000'000);
    GTEST_SKIP() << "this machine has memory for 10^8 agents";
  } catch (const ScenarioError& error) {
    EXPECT_THAT(error.what(), HasSubstr("100000000 agents need about"));
    EXPECT_THAT(error.what(), HasSubstr("GiB of memory is available"));
  }
  const std::string path = testing::TempDir() + "crowd_huge.json";
  {
    std::ofstream out(path);
    out << R"({ "groups": [ { "type": "rectangle", "count": 100000000, "min": [-1e5, -1e5], "max": [1e5, 1e5],
                "goalOffset": [1, 0] } ] })";
  }
  EXPECT_THROW((void)loadScenarioFile(path), ScenarioError);
}

}  // namespace
}  // namespace crowd
