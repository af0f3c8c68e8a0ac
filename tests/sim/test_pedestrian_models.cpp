// The pedestrian models through the simulator: the collision-free speed model and the social
// force model against walls (worked by hand from their definitions), bodies that never overlap
// head on under the CSM, each model in a pressed corridor crowd giving one state for any thread
// count, and the refusals (a bad parameter, a model a 3D world cannot use).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

#include "sim/worlds.hpp"

namespace crowd {
namespace {

AgentDef pedestrian(Vec2 position, AvoidanceMode model) {
  AgentDef def;
  def.position = position;
  def.params = kPedestrianParams;
  def.behavior.avoidance = model;
  return def;
}

/// A simulator with a wall whose top face is the line y = 0, from x = -5 to 5.
Simulator withFloorWall(float timeStep) {
  SimulatorConfig config;
  config.timeStep = timeStep;
  Simulator sim(config);
  const std::vector<Vec2> wall = {{-5, -1}, {5, -1}, {5, 0}, {-5, 0}};
  sim.addObstacle(wall);
  return sim;
}

TEST(PedestrianModels, SocialForcePushesABodyOffTheWallItOverlaps) {
  // Radius 0.2 at 0.15 m from the wall, at rest, no wish: (A exp(0.05 / B) + k 0.05) / m * dt =
  // (2000 e^0.625 + 6000) / 80 * 0.01 = 1.2171 m/s straight up.
  Simulator sim = withFloorWall(0.01f);
  const AgentId id = sim.addAgent(pedestrian({0, 0.15f}, AvoidanceMode::SocialForce));
  sim.step();
  const double expected = (2000.0 * std::exp(0.625) + 6000.0) / 80.0 * 0.01;
  EXPECT_NEAR(sim.velocity(id).y, expected, 1e-5);
  EXPECT_NEAR(sim.velocity(id).x, 0.0f, 1e-6f);
}

TEST(PedestrianModels, CsmTurnsAWalkerAwayFromAWallBesideIt) {
  // Walking along the wall 0.01 m off it: the wall's push 5 exp(-0.01 / 0.02) = 3.033 is added
  // to the unit wish (1, 0), and the agent walks at its desired speed along the sum.
  Simulator sim = withFloorWall(0.1f);
  AgentDef def = pedestrian({0, 0.21f}, AvoidanceMode::Csm);
  def.prefVelocity = Vec2(1.34f, 0);
  const AgentId id = sim.addAgent(def);
  sim.step();
  const double push = 5.0 * std::exp(-0.5);
  const double norm = std::hypot(1.0, push);
  EXPECT_NEAR(sim.velocity(id).x, 1.34 / norm, 1e-5);
  EXPECT_NEAR(sim.velocity(id).y, 1.34 * push / norm, 1e-5);
}

TEST(PedestrianModels, CsmBodiesHeadOnNeverOverlap) {
  // Two walkers head on, a little offset so that they can pass: each step shrinks a gap by at
  // most 2 dt / T of itself, so with dt <= T / 2 no body ever enters another.
  SimulatorConfig config;
  config.timeStep = 0.1f;
  Simulator sim(config);
  AgentDef left = pedestrian({-5, 0}, AvoidanceMode::Csm);
  left.goal = Vec2(5, 0.05f);
  AgentDef right = pedestrian({5, 0.05f}, AvoidanceMode::Csm);
  right.goal = Vec2(-5, 0);
  const AgentId a = sim.addAgent(left);
  const AgentId b = sim.addAgent(right);
  float closest = 1e9f;
  for (int s = 0; s < 400; ++s) {
    sim.step();
    closest = std::min(closest, length(sim.position(a) - sim.position(b)));
  }
  EXPECT_GE(closest, 0.4f * 0.9999f);
  EXPECT_TRUE(sim.hasArrived(a));
  EXPECT_TRUE(sim.hasArrived(b));
}

/// A 20 m stretch of 4 m corridor packed at 3 P/m^2, everyone walking +x, one group per model.
/// `varied`: speeds and start times drawn per agent, and a speed zone midway.
std::string pressedCorridor(const std::string& model, const std::string& extra, float timeStep,
                            bool varied = false) {
  const std::string variety =
      varied
          ? R"(, "prefSpeed": {"normal": [1.34, 0.26], "min": 0.8, "max": 1.8}, "startTime": {"uniform": [0, 1]})"
          : "";
  return R"({"preset": "pedestrian", "timeStep": )" + std::to_string(timeStep) + R"(, "seed": 3,)" +
         (varied ? R"("speedZones": [{"min": [8, 0], "max": [12, 4], "factor": 0.5}],)" : "") + R"(
    "obstacles": [[[-5, -1], [60, -1], [60, 0], [-5, 0]], [[-5, 4], [60, 4], [60, 5], [-5, 5]]],
    "groups": [{"type": "rectangle", "count": 240, "min": [0.25, 0.25], "max": [19.75, 3.75],
                "placement": "random", "prefVelocity": [1.34, 0], "model": ")" +
         model + "\"" + extra + variety + "}]}";
}

TEST(PedestrianModels, EveryModelGivesOneStateForAnyThreadCount) {
  // With drawn speeds, premovement times and a speed zone: every pedestrian feature at once.
  for (const auto& [model, extra, dt] : {std::tuple{"csm", "", 0.1f}, std::tuple{"socialforce", "", 0.01f},
                                         std::tuple{"orca", R"(, "densitySpeed": true)", 0.1f}}) {
    const Scenario scenario = parseScenario(pressedCorridor(model, extra, dt, true), model);
    const std::uint64_t one = test::hashAfter<test::Planar>(scenario, 1, 30);
    EXPECT_EQ(test::hashAfter<test::Planar>(scenario, 2, 30), one) << model;
    EXPECT_EQ(test::hashAfter<test::Planar>(scenario, 3, 30), one) << model;
  }
}

TEST(PedestrianModels, DensitySpeedSlowsAnOrcaCrowdThatWalksTheSameWay) {
  // Without it, ORCA never slows people who walk the same way; with it, a crowd at 3 P/m^2
  // walks at a fraction of the free speed.
  const auto meanSpeed = [](const std::string& extra) {
    Simulator sim = makeSimulator(parseScenario(pressedCorridor("orca", extra, 0.1f), "corridor"), 2);
    for (int s = 0; s < 30; ++s) sim.step();
    double sum = 0;
    for (const Vec2 v : sim.velocities()) sum += length(v);
    return sum / static_cast<double>(sim.agentCount());
  };
  EXPECT_GT(meanSpeed(""), 1.0);
  EXPECT_LT(meanSpeed(R"(, "densitySpeed": true)"), 0.7);
}

TEST(PedestrianModels, BadParametersAndModelsAWorldCannotUseAreRefused) {
  Simulator sim;
  AgentDef def = pedestrian({0, 0}, AvoidanceMode::Csm);
  def.behavior.model.timeGap = 0.0f;
  try {
    sim.addAgent(def);
    ADD_FAILURE() << "a zero time gap was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("timeGap must be >= 0.001"), std::string::npos) << e.what();
  }
  Simulator3 sim3;
  AgentDef3 def3;
  def3.behavior.avoidance = AvoidanceMode::Csm;
  try {
    sim3.addAgent(def3);
    ADD_FAILURE() << "the CSM was accepted in 3D";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("model 'csm' is planar for now"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crowd
