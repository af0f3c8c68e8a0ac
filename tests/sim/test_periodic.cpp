// A world that repeats along x (SimulatorConfig::periodicX, a scenario's "periodic"): walkers
// leaving at one end come in at the other, neighbours across the ends are seen as near ones by
// every model, a crowd moves the same wherever the ends cut it, one state for any thread count,
// lines are not crossed by the jump from one end to the other, and the refusals.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/measurement_sampler.hpp>
#include <crowd/scenario.hpp>
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

constexpr float kLength = 20.0f;

SimulatorConfig periodicConfig() {
  SimulatorConfig config;
  config.timeStep = 0.1f;
  config.periodicX = PeriodicRange{0.0f, kLength};
  return config;
}

AgentDef walker(Vec2 position, Vec2 prefVelocity, AvoidanceMode model, bool densitySpeed = false) {
  AgentDef def;
  def.position = position;
  def.velocity = prefVelocity;
  def.prefVelocity = prefVelocity;
  def.params = kPedestrianParams;
  def.behavior.avoidance = model;
  def.behavior.model.densitySpeed = densitySpeed;
  return def;
}

/// Where `p` lies once moved by `shift` along x and brought back into the period.
Vec2 shifted(Vec2 p, float shift) {
  float x = std::fmod(p.x + shift, kLength);
  if (x < 0.0f) x += kLength;
  return Vec2(x, p.y);
}

/// The distance from a to b along the repeating x, and straight along y.
float periodicDistance(Vec2 a, Vec2 b) {
  float dx = std::fabs(a.x - b.x);
  dx = std::min(dx, kLength - dx);
  return std::hypot(dx, a.y - b.y);
}

TEST(Periodic, AWalkerOutAtOneEndComesInAtTheOther) {
  Simulator sim(periodicConfig());
  const AgentId id = sim.addAgent(walker({19.95f, 2.0f}, {1.0f, 0.0f}, AvoidanceMode::Orca));
  sim.step();
  EXPECT_NEAR(sim.position(id).x, 0.05f, 1e-5f);
  EXPECT_NEAR(sim.position(id).y, 2.0f, 1e-6f);
  EXPECT_FLOAT_EQ(sim.velocity(id).x, 1.0f);
  for (int s = 0; s < 500; ++s) sim.step();  // 2.5 periods: in the period every step.
  EXPECT_GE(sim.position(id).x, 0.0f);
  EXPECT_LT(sim.position(id).x, kLength);
}

struct PairRun {
  Vec2 velocityA, velocityB;
};

/// Two walkers head on, 0.7 m apart along x (`a` walking +x at `ax`, `b` walking -x 0.7 m ahead
/// of it, 0.1 m to the side), after `steps` steps, with or without the period.
PairRun headOn(float ax, AvoidanceMode model, bool densitySpeed, bool periodic, int steps) {
  SimulatorConfig config = periodicConfig();
  if (!periodic) config.periodicX = PeriodicRange{};
  if (model == AvoidanceMode::SocialForce) config.timeStep = 0.01f;
  Simulator sim(config);
  const Vec2 a(ax, 2.0f);
  const Vec2 b = periodic ? shifted(Vec2(ax + 0.7f, 2.1f), 0.0f) : Vec2(ax + 0.7f - kLength, 2.1f);
  const AgentId ia = sim.addAgent(walker(a, {1.3f, 0.0f}, model, densitySpeed));
  const AgentId ib = sim.addAgent(walker(b, {-1.3f, 0.0f}, model, densitySpeed));
  for (int s = 0; s < steps; ++s) sim.step();
  return PairRun{sim.velocity(ia), sim.velocity(ib)};
}

TEST(Periodic, EveryModelSeesNeighboursAcrossTheEndsAsNearOnes) {
  struct Case {
    const char* name;
    AvoidanceMode model;
    bool densitySpeed;
  };
  for (const Case c : {Case{"orca", AvoidanceMode::Orca, false}, Case{"csm", AvoidanceMode::Csm, false},
                       Case{"socialforce", AvoidanceMode::SocialForce, false},
                       Case{"orca+densitySpeed", AvoidanceMode::Orca, true}}) {
    const int steps = c.model == AvoidanceMode::SocialForce ? 20 : 2;
    // The pair across the ends (a at 19.5, b at 0.2) against the same pair in the middle.
    const PairRun across = headOn(19.5f, c.model, c.densitySpeed, true, steps);
    const PairRun middle = headOn(9.0f, c.model, c.densitySpeed, true, steps);
    EXPECT_NEAR(across.velocityA.x, middle.velocityA.x, 1e-4f) << c.name;
    EXPECT_NEAR(across.velocityA.y, middle.velocityA.y, 1e-4f) << c.name;
    EXPECT_NEAR(across.velocityB.x, middle.velocityB.x, 1e-4f) << c.name;
    EXPECT_NEAR(across.velocityB.y, middle.velocityB.y, 1e-4f) << c.name;
    // They react to each other: neither walks on as it wished.
    EXPECT_GT(length(middle.velocityA - Vec2(1.3f, 0.0f)), 0.01f) << c.name;
    // Without the period the same two stand 19.3 m apart, out of sight: both walk as they wish.
    const PairRun apart = headOn(19.5f, c.model, c.densitySpeed, false, steps);
    EXPECT_NEAR(apart.velocityA.x, 1.3f, 1e-4f) << c.name;
    EXPECT_NEAR(apart.velocityA.y, 0.0f, 1e-4f) << c.name;
  }
}

Scenario corridor(AvoidanceMode model, float shift) {
  Scenario scenario = loadScenarioFile(std::string(CROWD_SOURCE_DIR) + "/scenarios/periodic_corridor.json");
  for (AgentDef& agent : scenario.agents) {
    agent.position = shifted(agent.position, shift);
    agent.behavior.avoidance = model;
  }
  if (model == AvoidanceMode::SocialForce) scenario.timeStep = 0.01f;
  return scenario;
}

TEST(Periodic, ACrowdMovesTheSameWhereverTheEndsCutIt) {
  // The corridor's crowd, and the same crowd moved 7.25 m along (those past the end coming in at
  // the start): after 2 s every walker is where its twin is, 7.25 m back, to rounding.
  for (const AvoidanceMode model : {AvoidanceMode::Orca, AvoidanceMode::Csm}) {
    Simulator sim = makeSimulator(corridor(model, 0.0f), 2);
    Simulator moved = makeSimulator(corridor(model, 7.25f), 2);
    for (int s = 0; s < 20; ++s) {
      sim.step();
      moved.step();
    }
    float worst = 0.0f;
    for (std::size_t i = 0; i < sim.agentCount(); ++i) {
      const AgentId id = sim.ids()[i];
      const Vec2 there = shifted(moved.position(id), -7.25f);
      worst = std::max(worst, periodicDistance(sim.position(id), there));
    }
    EXPECT_LT(worst, 1e-3f) << static_cast<int>(model);
  }
}

TEST(Periodic, EveryModelGivesOneStateForAnyThreadCount) {
  for (const AvoidanceMode model : {AvoidanceMode::Orca, AvoidanceMode::Csm, AvoidanceMode::SocialForce}) {
    const Scenario scenario = corridor(model, 3.0f);
    Simulator one = makeSimulator(scenario, 1);
    Simulator two = makeSimulator(scenario, 2);
    for (int s = 0; s < 40; ++s) {
      one.step();
      two.step();
    }
    EXPECT_EQ(one.stateHash(), two.stateHash()) << static_cast<int>(model);
  }
}

TEST(Periodic, ALineCountsOnlyRealCrossings) {
  // Everyone walks +x; coming in at x = 0 after going out at x = 20 is no walk back across x = 10.
  Scenario scenario = corridor(AvoidanceMode::Orca, 0.0f);
  Simulator sim = makeSimulator(scenario, 2);
  MeasurementSampler sampler(*scenario.measure, sim);
  for (int s = 0; s < 300; ++s) {
    sim.step();
    sampler.afterStep(sim);
  }
  const LineSeries& line = sampler.measurements().lines().at(0);
  EXPECT_EQ(line.backward.back(), 0);
  // 30 s at 0.6 m/s or more: each of the 160 passes x = 10 at least once, none more than 3 times.
  EXPECT_GE(line.forward.back(), 160);
  EXPECT_LE(line.forward.back(), 3 * 160);
}

TEST(Periodic, TheLibraryRefusesWhatCannotRepeat) {
  SimulatorConfig empty = periodicConfig();
  empty.periodicX = PeriodicRange{5.0f, 5.0f};
  EXPECT_THROW(Simulator{empty}, std::invalid_argument);
  EXPECT_THROW(Simulator3{periodicConfig()}, std::invalid_argument);

  Simulator sim(periodicConfig());
  try {
    sim.addAgent(walker({20.0f, 1.0f}, {1.0f, 0.0f}, AvoidanceMode::Orca));  // The end is outside.
    FAIL() << "an agent outside the period was added";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("outside periodicX"), std::string::npos) << error.what();
  }
  AgentDef farSighted = walker({10.0f, 1.0f}, {1.0f, 0.0f}, AvoidanceMode::Orca);
  farSighted.params.neighborDist = 10.0f;  // Would see two images of someone 10 m away.
  sim.addAgent(farSighted);
  try {
    sim.step();
    FAIL() << "a period no longer than twice the neighbour range was stepped";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("twice the largest neighborDist"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(sim.stepCount(), 0);
  SimulatorConfig other = sim.config();
  other.periodicX = PeriodicRange{0.0f, 30.0f};
  EXPECT_THROW(sim.setConfig(other), std::invalid_argument);  // Set before the first agent.
}

TEST(Periodic, AScenarioSaysWhatIsWrongWithItsPeriod) {
  const std::string start = R"({"preset": "pedestrian", "periodic": )";
  const std::string group =
      R"(, "groups": [{"type": "rectangle", "count": 4, "min": [1, 1], "max": [5, 3], "prefVelocity": [1, 0]}]})";
  expectScenarioError(start + R"({"x": [0, 8]})" + group, "/periodic/x",
                      "the period 8 must be longer than twice the neighborDist 4 of /groups/0");
  expectScenarioError(start + R"({"x": [20, 0]})" + group, "/periodic/x", "from a smaller x");
  expectScenarioError(start + R"({"y": [0, 20]})" + group, "/periodic/y", "unknown key");
  // An agent placed outside the period: named by its number when the simulator is made.
  const Scenario outside = parseScenario(start + R"({"x": [2, 22]})" + group, "outside.json");
  try {
    makeSimulator(outside, 1);
    FAIL() << "an agent outside the period was accepted";
  } catch (const ScenarioError& error) {
    EXPECT_NE(std::string(error.what()).find("agent 0"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("outside periodicX"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace crowd
