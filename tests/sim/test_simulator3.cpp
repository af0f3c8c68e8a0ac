// The 3D world: the CPU backend's steps against the independent 3D reference (double, brute
// force), determinism across thread counts, and the Simulator3 API's bookkeeping and errors.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario3.hpp>
#include <crowd/simulator3.hpp>

#include "parity_agreement.hpp"
#include "reference/reference_sim_3d.hpp"

namespace crowd {
namespace {

namespace ref = crowd_reference;

ref::V3 toRef(Vec3 v) { return {v.x, v.y, v.z}; }

ref::RefWorld3 toReference(const Simulator3& sim) {
  ref::RefWorld3 world;
  world.timeStep = sim.config().timeStep;
  for (AgentId id : sim.ids()) {
    const AgentParams& p = sim.params(id);
    ref::RefAgent3 a;
    a.position = toRef(sim.position(id));
    a.velocity = toRef(sim.velocity(id));
    a.prefVelocity = toRef(sim.prefVelocity(id));
    if (const auto goal = sim.goal(id)) {
      a.hasGoal = true;
      a.goal = toRef(*goal);
    }
    a.radius = p.radius;
    a.maxSpeed = p.maxSpeed;
    a.prefSpeed = p.prefSpeed;
    a.neighborDist = p.neighborDist;
    a.maxNeighbors = p.maxNeighbors;
    a.timeHorizon = p.timeHorizon;
    world.agents.push_back(a);
  }
  return world;
}


// Steps `sim` once and compares every new velocity with the reference's from the same state.
// Where the half-spaces leave no room, the least-violation optimum can be flat: a different
// velocity with the same largest violation (within 2%) counts as agreeing.
Agreement stepAndCompare(Simulator3& sim) {
  const ref::RefWorld3 world = toReference(sim);
  const std::vector<ref::V3> expected = ref::computeNewVelocities(world);
  const std::vector<AgentId> ids(sim.ids().begin(), sim.ids().end());
  sim.step();
  Agreement a;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!sim.contains(ids[i])) continue;
    const ref::V3 v = toRef(sim.velocity(ids[i]));
    const double error = ref::length(v - expected[i]);
    ++a.agents;
    a.worst = std::max(a.worst, error);
    if (error <= 1e-4) {
      ++a.within1e4;
      continue;
    }
    const std::vector<ref::RefPlane> planes = ref::orcaPlanes(world, static_cast<int>(i));
    const double ours = ref::maxViolation(planes, v);
    const double theirs = ref::maxViolation(planes, expected[i]);
    if (theirs > 0.0 && ours <= theirs + std::max(1e-3, 0.02 * theirs)) {
      ++a.equallyGood;
    } else {
      ++a.disagreements;
      std::printf("[ parity3 ] disagreement: agent %zu, velocity (%.6g, %.6g, %.6g), reference (%.6g, %.6g, %.6g)\n", i,
                  v.x, v.y, v.z, expected[i].x, expected[i].y, expected[i].z);
    }
  }
  return a;
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
    for (int i = 0; i < 100; ++i) {
      AgentDef3 def;
      def.position = Vec3(side * unit(rng), side * unit(rng), side * unit(rng));
      def.velocity = Vec3(4 * unit(rng) - 2, 4 * unit(rng) - 2, 4 * unit(rng) - 2);
      if (unit(rng) < 0.5f) {
        def.goal = Vec3(side * unit(rng), side * unit(rng), side * unit(rng));
      } else {
        def.prefVelocity = Vec3(4 * unit(rng) - 2, 4 * unit(rng) - 2, 4 * unit(rng) - 2);
      }
      def.params.radius = 0.2f + 1.3f * unit(rng);
      def.params.maxSpeed = 0.5f + 2.0f * unit(rng);
      def.params.prefSpeed = 0.5f + 1.5f * unit(rng);
      def.params.neighborDist = 2.0f + 15.0f * unit(rng);
      def.params.maxNeighbors = static_cast<int>(unit(rng) * 20.0f);
      def.params.timeHorizon = 0.5f + 10.0f * unit(rng);
      sim.addAgent(def);
    }
    total += stepAndCompare(sim);
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
    Agreement total;
    for (int s = 0; s < 60; ++s) total += stepAndCompare(sim);
    report("parity3", name, total);
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
    const Vec3 corner(cluster % 2 == 0 ? -2000.0f : 2000.0f, cluster < 2 ? -2000.0f : 2000.0f, 500.0f * static_cast<float>(cluster));
    for (int i = 0; i < 60; ++i) {
      AgentDef3 def;
      def.position = corner + 25.0f * Vec3(unit(rng), unit(rng), unit(rng));
      def.goal = corner + 25.0f * Vec3(unit(rng), unit(rng), unit(rng));
      sim.addAgent(def);
    }
  }
  Agreement total;
  for (int s = 0; s < 20; ++s) total += stepAndCompare(sim);
  report("parity3", "wrapped grid", total);
  EXPECT_EQ(total.disagreements, 0u);
  EXPECT_GE(total.exactFraction(), 0.995);
}

TEST(Simulator3, SameResultsForAnyThreadCount) {
  const Scenario3 scenario = builtinScenario3("swarm", 3000, 9);
  std::uint64_t first = 0;
  for (const int threads : {1, 2, 3}) {
    Simulator3 sim = makeSimulator3(scenario, threads);
    for (int s = 0; s < 40; ++s) sim.step();
    if (threads == 1) first = sim.stateHash();
    EXPECT_EQ(sim.stateHash(), first) << threads << " threads";
  }
}

std::uint64_t hashAfterSteps3(const Scenario3& scenario, float cellSize, int steps) {
  Simulator3 sim = makeSimulator3(scenario, 2);
  SimulatorConfig config = sim.config();
  config.cellSize = cellSize;
  sim.setConfig(config);
  for (int s = 0; s < steps; ++s) sim.step();
  return sim.stateHash();
}

// The neighbour search reads a block tile, or the grid when the tile overflows, and in a sparse
// crowd candidate lists: none of that may change a bit, whatever the cells.
TEST(Simulator3, ResultsDoNotDependOnTheCellSize) {
  for (const char* name : {"sphere", "swarm"}) {
    const Scenario3 scenario = builtinScenario3(name, 600, 3);
    const std::uint64_t automatic = hashAfterSteps3(scenario, 0.0f, 40);
    // From the smallest allowed (raised to 1/2.5 of neighborDist) to blocks too full for a tile.
    for (const float cellSize : {1.0f, 6.0f, 9.5f, 15.0f, 60.0f}) {
      EXPECT_EQ(hashAfterSteps3(scenario, cellSize, 40), automatic) << name << " cell " << cellSize;
    }
  }
}

// Beyond x = 65536 positions round to 1/128: an agent moving 0.005 a step moves 0.0078. Lists
// must be dropped by how far agents really moved, not by their speed, or these two, closing from
// just beyond a list's reach, would not see each other in time: with a long time horizon they
// start to give way as soon as they are neighbours (the run without lists judges).
TEST(Simulator3, ListsFarFromTheOriginFollowTheRoundedMoves) {
  auto run = [](float cellSize, std::vector<std::uint64_t>& hashes) {
    SimulatorConfig config;
    config.timeStep = 0.125f;
    config.threads = 1;
    config.exactRvo2 = true;
    config.cellSize = cellSize;
    Simulator3 sim(config);
    AgentDef3 def;  // neighborDist 15: lists reach 18.
    def.params.timeHorizon = 500.0f;
    def.position = Vec3(70000.0f, 0.0f, 0.0f);
    const AgentId left = sim.addAgent(def);
    def.position = Vec3(70018.2f, 0.0f, 0.0f);
    const AgentId right = sim.addAgent(def);
    sim.setPrefVelocity(left, Vec3(0.04f, 0.0f, 0.0f));
    sim.setPrefVelocity(right, Vec3(-0.04f, 0.0f, 0.0f));
    for (int s = 0; s < 400; ++s) {
      sim.step();
      hashes.push_back(sim.stateHash());
    }
  };
  std::vector<std::uint64_t> withLists, withoutLists;
  run(0.0f, withLists);
  run(5.0f, withoutLists);
  EXPECT_EQ(withLists, withoutLists);
}

// Candidate lists are made while the sphere's agents are spread out and used for several steps:
// the results must be the grid search's to the bit, through the crush in the middle (lists
// overflow there) and out again. A configured cell narrower than a list keeps them from being made.
TEST(Simulator3, CandidateListsGiveTheGridSearchResults) {
  const Scenario3 scenario = builtinScenario3("sphere", 300);
  Simulator3 withLists = makeSimulator3(scenario, 2);
  Simulator3 withoutLists = makeSimulator3(scenario, 2);
  for (Simulator3* sim : {&withLists, &withoutLists}) {
    SimulatorConfig config = sim->config();
    config.exactRvo2 = true;
    config.cellSize = sim == &withoutLists ? 7.0f : 0.0f;
    sim->setConfig(config);
  }
  int listSteps = 0;  // Steps that read lists hold at most 10 candidates an agent; a tile, many more.
  for (int s = 0; s < 1500; ++s) {
    withLists.step();
    withoutLists.step();
    listSteps += withLists.lastCandidatesPerAgent() <= 10.0 ? 1 : 0;
    ASSERT_EQ(withLists.stateHash(), withoutLists.stateHash()) << "step " << s + 1;
  }
  EXPECT_GT(listSteps, 200);
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
  def.position = Vec3(-10.0f, 0.0f, 0.0f);
  def.goal = Vec3(10.0f, 0.0f, 0.0f);
  const AgentId a = sim.addAgent(def);
  def.position = Vec3(10.0f, 0.0f, 0.0f);
  def.goal = Vec3(-10.0f, 0.0f, 0.0f);
  const AgentId b = sim.addAgent(def);
  float closest = INFINITY;
  for (int s = 0; s < 200 && !(sim.hasArrived(a) && sim.hasArrived(b)); ++s) {
    sim.step();
    closest = std::min(closest, length(sim.position(a) - sim.position(b)));
  }
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
    AgentDef3 def;
    def.goal = Vec3(10.0f, 0.0f, 0.0f);
    const AgentId a = sim.addAgent(def);
    def.position = Vec3(10.0f, 0.0f, 0.0f);
    def.goal = Vec3(0.0f, 0.0f, 0.0f);
    const AgentId b = sim.addAgent(def);
    float closest = INFINITY;
    for (int s = 0; s < 2000 && !(sim.hasArrived(a) && sim.hasArrived(b)); ++s) {
      sim.step();
      closest = std::min(closest, length(sim.position(a) - sim.position(b)));
    }
    EXPECT_EQ(sim.hasArrived(a) && sim.hasArrived(b), !exact) << (exact ? "exact" : "default");
    if (!exact) {
      EXPECT_LT(sim.stepCount(), 200);  // 10 m at 1 m/s, and the sidestep.
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

TEST(Simulator3, HandlesArrivalsAndRemoval) {
  SimulatorConfig config;
  config.removeArrived = true;
  Simulator3 sim(config);
  AgentDef3 near;
  near.goal = Vec3(0.5f, 0.0f, 0.0f);
  const AgentId a = sim.addAgent(near);
  AgentDef3 far;
  far.position = Vec3(0.0f, 0.0f, 50.0f);
  far.goal = Vec3(0.0f, 0.0f, 100.0f);
  const AgentId b = sim.addAgent(far);
  sim.step();
  ASSERT_EQ(sim.lastArrivals().size(), 1u);
  EXPECT_EQ(sim.lastArrivals()[0].id, a);
  EXPECT_FALSE(sim.contains(a));
  EXPECT_THROW(sim.position(a), std::out_of_range);
  EXPECT_TRUE(sim.contains(b));
  EXPECT_GT(sim.position(b).z, 50.0f);
  // The freed slot is reused with a new generation: the old handle stays dead.
  const AgentId c = sim.addAgent(far);
  EXPECT_EQ(c.index, a.index);
  EXPECT_FALSE(sim.contains(a));
  EXPECT_TRUE(sim.removeAgent(c));
  EXPECT_FALSE(sim.removeAgent(c));
  EXPECT_EQ(sim.agentCount(), 1u);
}

TEST(Simulator3, RemovalTurnedOnLaterTakesThoseAlreadyArrivedAndTimeSumsSteps) {
  SimulatorConfig config;
  Simulator3 sim(config);
  AgentDef3 near;
  near.goal = Vec3(0.5f, 0.0f, 0.0f);
  const AgentId a = sim.addAgent(near);
  AgentDef3 far;
  far.position = Vec3(0.0f, 0.0f, 50.0f);
  far.goal = Vec3(0.0f, 0.0f, 100.0f);
  const AgentId b = sim.addAgent(far);
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
