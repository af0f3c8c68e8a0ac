// The 3D world: the CPU backend's steps against the independent 3D reference (double, brute
// force), and the Simulator3 API's bookkeeping and errors. The step-level tests both worlds share
// (cell sizes, candidate lists, thread counts) are StepWorlds in test_step.cpp.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario3.hpp>
#include <crowd/simulator3.hpp>

#include "parity_agreement.hpp"
#include "reference/reference_sim_3d.hpp"
#include "sim/worlds.hpp"

namespace crowd {
namespace {

namespace ref = crowd_reference;

// Where the half-spaces leave no room, the least-violation optimum can be flat: a different
// velocity with the same largest violation (within 2%) counts as agreeing.
bool equallyGoodOptimum(const ref::RefWorld3& world, int agent, ref::V3 ours, ref::V3 theirs) {
  const std::vector<ref::RefPlane> planes = ref::orcaPlanes(world, agent);
  const double ourWorst = ref::maxViolation(planes, ours);
  const double theirWorst = ref::maxViolation(planes, theirs);
  return theirWorst > 0.0 && ourWorst <= theirWorst + std::max(1e-3, 0.02 * theirWorst);
}

SimulatorConfig exactConfig(float timeStep) {
  SimulatorConfig config;
  config.timeStep = timeStep;
  config.exactRvo2 = true;  // RVO2-3D's rules: no speed clamp.
  return config;
}

// Random one-step cases: dense to sparse, overlapping agents, mixed parameters.
TEST(Simulator3Parity, RandomStatesOneStep) {
  std::mt19937 rng(20261126);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  Agreement total;
  for (int trial = 0; trial < 120; ++trial) {
    Simulator3 sim(exactConfig(0.05f + 0.3f * unit(rng)));
    const float side = 8.0f + 50.0f * unit(rng);
    for (int i = 0; i < 100; ++i) sim.addAgent(test::randomAgent<Vec3>(rng, unit, side));
    total += test::stepAndCompare(sim, "parity3", equallyGoodOptimum);
  }
  report("parity3", "random states", total);
  EXPECT_LE(total.disagreements, total.agents / 2000);
  EXPECT_GE(total.exactFraction(), 0.99);
}

// Every step of RVO2-3D's Sphere through the crush in the middle, and of a swarm.
TEST(Simulator3Parity, BuiltinsStepByStep) {
  for (const char* name : {"sphere", "swarm"}) {
    const Scenario3 scenario = builtinScenario3(name, 300, 4);
    Simulator3 sim = makeSimulator3(scenario, 2);
    sim.setConfig(exactConfig(scenario.timeStep));
    const Agreement total = test::compareSteps(sim, 60, "parity3", name, equallyGoodOptimum);
    EXPECT_LE(total.disagreements, total.agents / 2000) << name;
    EXPECT_GE(total.exactFraction(), 0.995) << name;
  }
}

// Clusters 4,000 units apart: many more cells than buckets, so the 3D grid wraps.
TEST(Simulator3Parity, SparseWorldWithWrappedGrid) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  Simulator3 sim(exactConfig(0.125f));
  for (int cluster = 0; cluster < 4; ++cluster) {
    const Vec3 corner(cluster % 2 == 0 ? -2000.0f : 2000.0f, cluster < 2 ? -2000.0f : 2000.0f,
                      500.0f * static_cast<float>(cluster));
    for (int i = 0; i < 60; ++i) {
      AgentDef3 def;
      def.position = corner + 25.0f * Vec3(unit(rng), unit(rng), unit(rng));
      def.goal = corner + 25.0f * Vec3(unit(rng), unit(rng), unit(rng));
      sim.addAgent(def);
    }
  }
  const Agreement total = test::compareSteps(sim, 20, "parity3", "wrapped grid", equallyGoodOptimum);
  EXPECT_EQ(total.disagreements, 0u);
  EXPECT_GE(total.exactFraction(), 0.995);
}

TEST(Simulator3, CoincidentAgentsSeparateWithoutNaN) {
  Simulator3 sim;
  AgentDef3 def;
  def.position = Vec3(1.0f, 2.0f, 3.0f);
  def.goal = Vec3(10.0f, 2.0f, 3.0f);
  const AgentId a = sim.addAgent(def);
  const AgentId b = sim.addAgent(def);
  sim.step();
  const Vec3 pa = sim.position(a), pb = sim.position(b);
  ASSERT_TRUE(std::isfinite(pa.x) && std::isfinite(pb.x));
  EXPECT_GT(length(pa - pb), 0.1f);
}

TEST(Simulator3, HeadOnPairPassesWithoutContact) {
  Simulator3 sim;
  AgentDef3 def;
  def.params.radius = 0.5f;
  const auto [a, b] = test::addHeadOnPair(sim, def, Vec3(-10.0f, 0.0f, 0.0f), Vec3(10.0f, 0.0f, 0.0f));
  const float closest = test::closestApproach(sim, a, b, 200, true);
  EXPECT_TRUE(sim.hasArrived(a));
  EXPECT_TRUE(sim.hasArrived(b));
  EXPECT_GE(closest, 0.99f);  // Never closer than their combined radii.
}

TEST(Simulator3, HeadOnPairFromRestBreaksItsStandoff) {
  // Within sight of each other from rest, RVO2-3D's rules hold both in a standoff for good (the
  // control, exactRvo2); deadlock breaking sidesteps them past each other, as in the plane.
  for (const bool exact : {true, false}) {
    SimulatorConfig config;
    config.exactRvo2 = exact;
    Simulator3 sim(config);
    const auto [a, b] = test::addHeadOnPair(sim, AgentDef3{}, Vec3(0.0f), Vec3(10.0f, 0.0f, 0.0f));
    const float closest = test::closestApproach(sim, a, b, 2000, true);
    EXPECT_EQ(sim.hasArrived(a) && sim.hasArrived(b), !exact) << (exact ? "exact" : "default");
    if (!exact) {
      EXPECT_LT(sim.stepCount(), 200);   // 10 m at 1 m/s, and the sidestep.
      EXPECT_GE(closest, 0.99f * 3.0f);  // Never closer than their combined radii (1.5 each).
    }
  }
}

TEST(Simulator3, AgentsOnOnePointAllLeaveForTheirGoals) {
  Simulator3 sim;
  AgentDef3 def;
  std::vector<AgentId> ids;
  for (const Vec3 goal : {Vec3(20, 0, 0), Vec3(-20, 0, 0), Vec3(0, 20, 0), Vec3(0, 0, 20)}) {
    def.goal = goal;
    ids.push_back(sim.addAgent(def));
  }
  while (sim.stepCount() < 1000 && sim.arrivedCount() < ids.size()) sim.step();
  for (const AgentId id : ids) EXPECT_TRUE(sim.hasArrived(id)) << "agent " << id.index;
}

// An agent that arrives in its first step, and one far from its goal (from which more are made).
AgentDef3 farFromItsGoal() {
  AgentDef3 far;
  far.position = Vec3(0.0f, 0.0f, 50.0f);
  far.goal = Vec3(0.0f, 0.0f, 100.0f);
  return far;
}
std::pair<AgentId, AgentId> addNearAndFar(Simulator3& sim) {
  AgentDef3 near;
  near.goal = Vec3(0.5f, 0.0f, 0.0f);
  const AgentId a = sim.addAgent(near);
  return {a, sim.addAgent(farFromItsGoal())};
}

TEST(Simulator3, HandlesArrivalsAndRemoval) {
  SimulatorConfig config;
  config.removeArrived = true;
  Simulator3 sim(config);
  const auto [a, b] = addNearAndFar(sim);
  sim.step();
  ASSERT_EQ(sim.lastArrivals().size(), 1u);
  EXPECT_EQ(sim.lastArrivals()[0].id, a);
  EXPECT_FALSE(sim.contains(a));
  EXPECT_THROW(sim.position(a), std::out_of_range);
  EXPECT_TRUE(sim.contains(b));
  EXPECT_GT(sim.position(b).z, 50.0f);
  // The freed slot is reused with a new generation: the old handle stays dead.
  const AgentId c = sim.addAgent(farFromItsGoal());
  EXPECT_EQ(c.index, a.index);
  EXPECT_FALSE(sim.contains(a));
  EXPECT_TRUE(sim.removeAgent(c));
  EXPECT_FALSE(sim.removeAgent(c));
  EXPECT_EQ(sim.agentCount(), 1u);
}

TEST(Simulator3, RemovalTurnedOnLaterTakesThoseAlreadyArrivedAndTimeSumsSteps) {
  SimulatorConfig config;
  Simulator3 sim(config);
  const auto [a, b] = addNearAndFar(sim);
  sim.step();
  ASSERT_TRUE(sim.hasArrived(a));
  config.removeArrived = true;
  config.timeStep = 0.5f;
  sim.setConfig(config);
  EXPECT_FALSE(sim.contains(a));
  EXPECT_TRUE(sim.contains(b));
  sim.step();
  EXPECT_DOUBLE_EQ(sim.time(), 0.25 + 0.5);  // One step at the default 0.25 s, one at 0.5 s.
}

TEST(Simulator3, SetGoalAndPreferredVelocity) {
  Simulator3 sim;
  const AgentId id = sim.addAgent(AgentDef3{});
  sim.setPrefVelocity(id, Vec3(0.0f, 0.0f, 1.0f));
  EXPECT_FALSE(sim.goal(id).has_value());
  for (int s = 0; s < 4; ++s) sim.step();
  EXPECT_NEAR(sim.position(id).z, 1.0f, 1e-5f);  // 4 steps of 0.25 s at 1 unit/s.
  sim.setGoal(id, Vec3(0.0f, 0.0f, -5.0f));
  ASSERT_TRUE(sim.goal(id).has_value());
  sim.step();
  EXPECT_LT(sim.velocity(id).z, 0.0f);
}

TEST(Simulator3, RefusesBadInput) {
  Simulator3 sim;
  AgentDef3 def;
  def.position = Vec3(0.0f, 0.0f, NAN);
  EXPECT_THROW(sim.addAgent(def), std::invalid_argument);
  def.position = Vec3(0.0f, 0.0f, 1e30f);
  try {
    sim.addAgent(def);
    FAIL() << "a position beyond the coordinate limit was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("position z"), std::string::npos) << e.what();
  }
  def.position = Vec3(0.0f);
  def.params.radius = -1.0f;
  EXPECT_THROW(sim.addAgent(def), std::invalid_argument);
  EXPECT_EQ(sim.agentCount(), 0u);
  SimulatorConfig badStep;
  badStep.timeStep = -1.0f;
  EXPECT_THROW(Simulator3{badStep}, std::invalid_argument);
}

}  // namespace
}  // namespace crowd
