// The motion model in scenario files: "model" (or its older name "avoidance") with the models'
// parameters, "densitySpeed", the pedestrian preset, and the refusals, each naming the place.
#include <string>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

std::string groupWith(const std::string& keys, const std::string& top = "") {
  return R"({)" + top + R"( "groups": [{"type": "rectangle", "count": 4, "min": [0, 0], "max": [2, 2],
    "prefVelocity": [1, 0], )" +
         keys + "}]}";
}

TEST(ScenarioModels, ModelAndItsParametersAreRead) {
  const Scenario scenario =
      parseScenario(groupWith(R"("model": "csm", "timeGap": 0.7, "neighborRepulsion": 3, "densitySpeed": true,
                   "maxNeighbors": 16, "neighborDist": 2)"),
                    "models.json");
  ASSERT_EQ(scenario.agents.size(), 4u);
  const Behavior& b = scenario.agents[0].behavior;
  EXPECT_EQ(b.avoidance, AvoidanceMode::Csm);
  EXPECT_EQ(b.model.timeGap, 0.7f);
  EXPECT_EQ(b.model.neighborRepulsion, 3.0f);
  EXPECT_TRUE(b.model.densitySpeed);
  EXPECT_EQ(b.model.wallRepulsion, 5.0f);  // JuPedSim's default where the file is silent.
  // The older key names the same thing; agentDefaults give every group the model.
  const Scenario older =
      parseScenario(groupWith(R"("avoidance": "socialforce")", R"("timeStep": 0.01,)"), "a.json");
  EXPECT_EQ(older.agents[0].behavior.avoidance, AvoidanceMode::SocialForce);
  const Scenario defaulted =
      parseScenario(groupWith(R"("maxNeighbors": 10)", R"("agentDefaults": {"model": "csm"},)"), "d.json");
  EXPECT_EQ(defaulted.agents[0].behavior.avoidance, AvoidanceMode::Csm);
}

TEST(ScenarioModels, ThePedestrianPresetGivesSiDefaults) {
  const Scenario scenario =
      parseScenario(groupWith(R"("radius": 0.25)", R"("preset": "pedestrian",)"), "p.json");
  EXPECT_EQ(scenario.timeStep, kPedestrianTimeStep);
  AgentParams expected = kPedestrianParams;
  expected.radius = 0.25f;  // The file's own value wins over the preset.
  EXPECT_EQ(scenario.agents[0].params, expected);
  EXPECT_EQ(scenario.agents[0].params.prefSpeed, 1.34f);
  // Without a preset, RVO2's defaults as before.
  EXPECT_EQ(parseScenario(groupWith(R"("model": "orca")"), "r.json").agents[0].params.radius, 1.5f);
  expectScenarioError(groupWith(R"("model": "orca")", R"("preset": "people",)"), "/preset",
                      "unknown preset 'people' (known: rvo2, the default, and pedestrian)");
}

TEST(ScenarioModels, BadValuesAreRefusedWhereTheyAreWritten) {
  expectScenarioError(groupWith(R"("model": "csm", "timeGap": 0)"), "/groups/0/timeGap",
                      "must be >= 0.001 (the model time limit), got 0");
  expectScenarioError(groupWith(R"("model": "csm", "avoidance": "orca")"), "/groups/0",
                      "has both 'model' and 'avoidance'");
  expectScenarioError(groupWith(R"("model": "helbing")"), "/groups/0/model",
                      "unknown motion model 'helbing' (known: orca, none, csm, socialforce)");
  expectScenarioError(groupWith(R"("densitySpeed": 1)"), "/groups/0/densitySpeed", "expected true or false");
  // The social force model's body force needs a short step.
  expectScenarioError(groupWith(R"("model": "socialforce")", R"("timeStep": 0.1,)"), "/timeStep",
                      "the social force model of groups/0 needs a timeStep of at most 0.0235 s");
  // The density-aware speed must be able to count a standing crowd within its radius.
  expectScenarioError(groupWith(R"("densitySpeed": true, "maxNeighbors": 10, "neighborDist": 5)"),
                      "/groups/0/densitySpeed",
                      "needs maxNeighbors >= 16 and neighborDist >= 1, got 10 and 5");
}

TEST(ScenarioModels, A3dWorldRefusesThePlanarModels) {
  try {
    parseScenario3(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "model": "csm"}]})", "3d.json");
    ADD_FAILURE() << "the CSM was accepted in 3D";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("model 'csm' is planar for now"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crowd
