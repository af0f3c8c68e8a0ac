// The Simulator facade: handles, parameters, errors, and single-agent motion.
#include <cmath>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include <crowd/simulator.hpp>

namespace crowd {
namespace {

AgentDef agentAt(Vec2 position) {
  AgentDef def;
  def.position = position;
  return def;
}

// The names the command line and the tools give backends, read one way and written the other.
TEST(Simulator, BackendNamesReadAndWrite) {
  for (const BackendKind kind : {BackendKind::Auto, BackendKind::Cpu, BackendKind::Cuda}) {
    EXPECT_EQ(parseBackendKind(backendKindName(kind)), kind);
  }
  EXPECT_STREQ(backendKindName(BackendKind::Cuda), "cuda");
  EXPECT_EQ(parseBackendKind("gpu"), std::nullopt);
  EXPECT_EQ(parseBackendKind("CPU"), std::nullopt);
  EXPECT_EQ(parseBackendKind(""), std::nullopt);
}

TEST(Simulator, HandlesStayValidAcrossRemovals) {
  Simulator sim;
  const AgentId a = sim.addAgent(agentAt({0, 0}));
  const AgentId b = sim.addAgent(agentAt({10, 0}));
  const AgentId c = sim.addAgent(agentAt({20, 0}));
  EXPECT_EQ(a.index, 0u);
  EXPECT_EQ(c.index, 2u);
  EXPECT_TRUE(sim.removeAgent(b));
  EXPECT_FALSE(sim.contains(b));
  EXPECT_FALSE(sim.removeAgent(b));
  EXPECT_EQ(sim.agentCount(), 2u);
  EXPECT_EQ(sim.position(c), Vec2(20, 0));
  EXPECT_EQ(sim.position(a), Vec2(0, 0));

  // The freed slot is reused with a new generation; the old handle stays dead.
  const AgentId d = sim.addAgent(agentAt({30, 0}));
  EXPECT_EQ(d.index, b.index);
  EXPECT_NE(d.generation, b.generation);
  EXPECT_THROW((void)sim.position(b), std::out_of_range);
  EXPECT_EQ(sim.position(d), Vec2(30, 0));
  EXPECT_EQ(sim.position(c), Vec2(20, 0));
}

TEST(Simulator, RejectsBadAgentsAndSettings) {
  Simulator sim;
  AgentDef bad = agentAt({0, 0});
  bad.params.radius = -1;
  EXPECT_THROW(sim.addAgent(bad), std::invalid_argument);
  bad = agentAt({NAN, 0});
  EXPECT_THROW(sim.addAgent(bad), std::invalid_argument);
  bad = agentAt({0, 0});
  bad.goal = Vec2(INFINITY, 0);
  EXPECT_THROW(sim.addAgent(bad), std::invalid_argument);
  bad = agentAt({0, 0});
  bad.params.maxNeighbors = kMaxNeighbors + 1;
  EXPECT_THROW(sim.addAgent(bad), std::invalid_argument);
  bad.params.maxNeighbors = 10;
  bad.params.timeHorizon = 0;
  EXPECT_THROW(sim.addAgent(bad), std::invalid_argument);
  EXPECT_EQ(sim.agentCount(), 0u);

  SimulatorConfig config;
  config.timeStep = 0;
  EXPECT_THROW(Simulator{config}, std::invalid_argument);
  config.timeStep = 0.1f;
  config.threads = -2;
  EXPECT_THROW(sim.setConfig(config), std::invalid_argument);
  config.threads = kMaxThreads + 1;  // OpenMP crashes trying to start 100,000.
  EXPECT_THROW(sim.setConfig(config), std::invalid_argument);
  config.threads = kMaxThreads;
  EXPECT_NO_THROW(sim.setConfig(config));
  EXPECT_THROW(sim.addObstacle(std::vector<Vec2>{{0, 0}}), std::invalid_argument);
}

TEST(Simulator, RefusesCirclesItCannotDrawWithTheReason) {
  Simulator sim;
  const auto messageOf = [&](Vec2 center, float radius) {
    try {
      sim.addCircle(center, radius);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(messageOf({1e5f, 0.0f}, 1e-3f).find("too small to draw"), std::string::npos);
  EXPECT_NE(messageOf({1e6f - 10.0f, 0.0f}, 1e4f).find("outermost point"), std::string::npos);
  EXPECT_EQ(messageOf({0.0f, 0.0f}, 0.0f), "circle radius must be > 0, got 0");
  EXPECT_EQ(messageOf({0.0f, 0.0f}, 1.0f), "accepted");
  EXPECT_EQ(sim.obstacles().circles().size(), 1u);  // Only the good one.
  ObstacleSet set;                                  // Below the simulator's limits: what floats cannot hold.
  try {
    set.addCircle({0.0f, 0.0f}, 3.4e38f);
    ADD_FAILURE() << "a circle beyond float range was drawn";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beyond what floats hold"), std::string::npos) << e.what();
  }
}

TEST(Simulator, LoneAgentWalksToItsGoalAndSettles) {
  SimulatorConfig config;
  config.timeStep = 0.5f;
  Simulator sim(config);
  AgentDef def = agentAt({0, 0});
  def.goal = Vec2(10, 0);
  def.params.prefSpeed = 2.0f;
  const AgentId id = sim.addAgent(def);
  sim.step();
  // Preferred velocity is the goal direction at prefSpeed; with nobody around ORCA keeps it.
  EXPECT_FLOAT_EQ(sim.velocity(id).x, 2.0f);
  EXPECT_FLOAT_EQ(sim.position(id).x, 1.0f);
  for (int s = 0; s < 20; ++s) sim.step();
  EXPECT_TRUE(sim.hasArrived(id));
  // 1 unit per step to within prefSpeed * dt, then the gap halves each step: 2 * 2^-13 left.
  EXPECT_NEAR(sim.position(id).x, 10.0f - 2.0f / 8192.0f, 1e-6f);
  EXPECT_EQ(sim.arrivedCount(), 1u);
}

TEST(Simulator, ReportsArrivalStepOnceAndRemovesWhenAsked) {
  SimulatorConfig config;
  config.timeStep = 1.0f;
  config.removeArrived = true;
  Simulator sim(config);
  AgentDef def = agentAt({0, 0});
  def.goal = Vec2(3, 0);
  def.params.radius = 0.5f;  // goalRadius defaults to the radius.
  const AgentId walker = sim.addAgent(def);
  AgentDef idle = agentAt({100, 100});
  const AgentId stayer = sim.addAgent(idle);
  std::vector<Arrival> arrivals;
  for (int s = 0; s < 5; ++s) {
    sim.step();
    arrivals.insert(arrivals.end(), sim.lastArrivals().begin(), sim.lastArrivals().end());
  }
  ASSERT_EQ(arrivals.size(), 1u);
  EXPECT_EQ(arrivals[0].id, walker);
  EXPECT_EQ(arrivals[0].step, 3);  // Speed 1: 1 unit short after step 2 (> 0.5), there after 3.
  EXPECT_FALSE(sim.contains(walker));
  EXPECT_TRUE(sim.contains(stayer));
}

TEST(Simulator, RemovalTurnedOnLaterTakesThoseAlreadyArrived) {
  SimulatorConfig config;
  config.timeStep = 1.0f;
  Simulator sim(config);
  AgentDef def = agentAt({0, 0});
  def.goal = Vec2(3, 0);
  def.params.radius = 0.5f;
  const AgentId walker = sim.addAgent(def);
  const AgentId stayer = sim.addAgent(agentAt({100, 100}));
  for (int s = 0; s < 5; ++s) sim.step();
  ASSERT_TRUE(sim.hasArrived(walker));
  config.removeArrived = true;
  sim.setConfig(config);
  EXPECT_FALSE(sim.contains(walker));
  EXPECT_TRUE(sim.contains(stayer));
}

TEST(Simulator, TimeSumsTheStepsTakenAndRefusesANonFiniteOrigin) {
  SimulatorConfig config;
  config.timeStep = 0.25f;
  Simulator sim(config);
  sim.addAgent(agentAt({0, 0}));
  for (int s = 0; s < 3; ++s) sim.step();
  config.timeStep = 0.5f;
  sim.setConfig(config);
  EXPECT_DOUBLE_EQ(sim.time(), 0.75);  // Not re-measured at the new step.
  sim.step();
  EXPECT_DOUBLE_EQ(sim.time(), 1.25);
  config.origin = {NAN, 0.0};
  EXPECT_THROW(sim.setConfig(config), std::invalid_argument);
  config.origin = {0.0, INFINITY};
  EXPECT_THROW(Simulator{config}, std::invalid_argument);
}

TEST(Simulator, FixedPreferredVelocityIsKept) {
  Simulator sim;
  AgentDef def = agentAt({0, 0});
  def.prefVelocity = Vec2(0, 1.5f);
  const AgentId id = sim.addAgent(def);
  sim.step();
  EXPECT_EQ(sim.velocity(id), Vec2(0, 1.5f));
  sim.setPrefVelocity(id, Vec2(5, 0));  // Faster than maxSpeed 2: clipped by the LP.
  sim.step();
  EXPECT_NEAR(length(sim.velocity(id)), 2.0f, 1e-6f);
}

// All preferred velocities at once, in dense order: each agent takes its own (alone, ORCA leaves
// it as it is), goals are cleared, and a bad list changes nothing.
TEST(Simulator, PreferredVelocitiesInBulk) {
  Simulator sim;
  AgentDef withGoal = agentAt({0, 0});
  withGoal.goal = Vec2(100, 0);
  const AgentId a = sim.addAgent(withGoal);
  const AgentId b = sim.addAgent(agentAt({50, 0}));
  const Vec2 wanted[] = {{0, 1}, {-1, 0.5f}};
  sim.setPrefVelocities(wanted);
  EXPECT_EQ(sim.goal(a), std::nullopt);
  sim.step();
  EXPECT_EQ(sim.velocity(a), Vec2(0, 1));
  EXPECT_EQ(sim.velocity(b), Vec2(-1, 0.5f));
  EXPECT_EQ(sim.position(b), Vec2(50 - 0.25f, 0.125f));

  const Vec2 tooFew[] = {{1, 0}};
  EXPECT_THROW(sim.setPrefVelocities(tooFew), std::invalid_argument);
  const Vec2 notFinite[] = {{1, 0}, {NAN, 0}};
  try {
    sim.setPrefVelocities(notFinite);
    ADD_FAILURE() << "a non-finite vector was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("row 1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sim.prefVelocity(a), Vec2(0, 1));  // Unchanged by the refused lists.
}

TEST(Simulator, ParametersAreSharedButIndependentPerAgent) {
  Simulator sim;
  const AgentId a = sim.addAgent(agentAt({0, 0}));
  const AgentId b = sim.addAgent(agentAt({50, 0}));
  AgentParams p = sim.params(a);
  p.radius = 0.25f;
  sim.setParams(b, p);
  EXPECT_EQ(sim.params(a).radius, AgentParams{}.radius);
  EXPECT_EQ(sim.params(b).radius, 0.25f);
  EXPECT_EQ(sim.radii()[1], 0.25f);
}

TEST(Simulator, HeadOnPairPassesWithoutContact) {
  Simulator sim;
  AgentDef left = agentAt({-20, 0.1f});
  left.goal = Vec2(20, 0.1f);
  AgentDef right = agentAt({20, -0.1f});
  right.goal = Vec2(-20, -0.1f);
  const AgentId a = sim.addAgent(left);
  const AgentId b = sim.addAgent(right);
  float closest = 1e9f;
  for (int s = 0; s < 400; ++s) {
    sim.step();
    closest = std::min(closest, length(sim.position(a) - sim.position(b)));
  }
  EXPECT_GE(closest, 0.99f * 3.0f);
  EXPECT_TRUE(sim.hasArrived(a));
  EXPECT_TRUE(sim.hasArrived(b));
}

}  // namespace
}  // namespace crowd
