// Parity: the CPU backend (float, grid neighbours) against the independent reference
// (double, brute force) on the same states, one step at a time.
#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

#include "parity_agreement.hpp"
#include "reference/reference_sim.hpp"

namespace crowd {
namespace {

namespace ref = crowd_reference;

ref::V2 toRef(Vec2 v) { return {v.x, v.y}; }

// The simulator's current state as a reference world.
ref::RefWorld toReference(const Simulator& sim) {
  ref::RefWorld world;
  world.timeStep = sim.config().timeStep;
  for (AgentId id : sim.ids()) {
    const AgentParams& p = sim.params(id);
    ref::RefAgent a;
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
    a.timeHorizonObst = p.timeHorizonObst;
    world.agents.push_back(a);
  }
  for (std::size_t o = 0; o < sim.obstacles().polygonCount(); ++o) {
    std::vector<ref::V2> polygon;
    for (Vec2 v : sim.obstacles().polygon(o)) polygon.push_back(toRef(v));
    world.obstacles.push_back(polygon);
  }
  return world;
}


// When the ORCA program is infeasible, lp3 minimises the largest violation of the agent lines.
// Its optimum can be flat (many velocities tie to within rounding), so float and double
// solvers may land far apart with the same objective. Such a pair counts as agreeing when our
// velocity respects the obstacle lines as well and its largest violation is within 2%.
// lp3 is incremental, not a global optimiser: when float and double first fail on different
// lines, it starts from a different point and can settle on a worse one. Those rare cases are
// counted as disagreements, and their rate is bounded by the tests.
bool equallyGoodOptimum(const std::vector<ref::RefLine>& lines, std::size_t obstacleLines, ref::V2 ours,
                        ref::V2 theirs) {
  double ourWorst = 0, theirWorst = 0, ourObstacle = 0, theirObstacle = 0;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    double& o = l < obstacleLines ? ourObstacle : ourWorst;
    double& t = l < obstacleLines ? theirObstacle : theirWorst;
    o = std::max(o, ref::violation(lines[l], ours));
    t = std::max(t, ref::violation(lines[l], theirs));
  }
  // Safer on the hard obstacle lines: when the obstacle lines alone conflict, lp3's fallback
  // may leave one violated; a velocity that keeps them all is at least as good.
  if (ourObstacle + 1e-3 < theirObstacle) return true;
  // Within rounding of the same objective (a feasible program solved on its boundary counts:
  // float rounding there leaves violations of the order of 1e-4).
  return ourObstacle <= theirObstacle + 1e-3 && ourWorst <= theirWorst + std::max(1e-3, 0.02 * theirWorst);
}

// Steps `sim` once and compares every new velocity with the reference's from the same state.
Agreement stepAndCompare(Simulator& sim) {
  const ref::RefWorld world = toReference(sim);
  const std::vector<ref::V2> expected = ref::computeNewVelocities(world);
  const std::vector<AgentId> ids(sim.ids().begin(), sim.ids().end());
  sim.step();
  Agreement a;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!sim.contains(ids[i])) continue;  // Removed on arrival.
    const Vec2 v = sim.velocity(ids[i]);
    const double error = std::hypot(v.x - expected[i].x, v.y - expected[i].y);
    ++a.agents;
    a.worst = std::max(a.worst, error);
    if (error <= 1e-4) {
      ++a.within1e4;
      continue;
    }
    const int agent = static_cast<int>(i);
    if (equallyGoodOptimum(ref::orcaLines(world, agent), ref::obstacleLineCount(world, agent), ref::V2{v.x, v.y},
                           expected[i])) {
      ++a.equallyGood;
    } else {
      ++a.disagreements;
      std::printf("[ parity ] disagreement: agent %d, velocity (%.6g, %.6g), reference (%.6g, %.6g)\n", agent, v.x,
                  v.y, expected[i].x, expected[i].y);
    }
  }
  return a;
}


// Random one-step cases: dense and sparse, overlapping, with obstacles, mixed parameters.
TEST(ReferenceParity, RandomStatesOneStep) {
  std::mt19937 rng(20261122);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  Agreement total;
  for (int trial = 0; trial < 200; ++trial) {
    SimulatorConfig config;
    config.timeStep = 0.05f + 0.3f * unit(rng);
    config.exactRvo2 = true;  // Compared with RVO2's rules: no deadlock jitter, no speed clamp.
    Simulator sim(config);
    const float side = 10.0f + 60.0f * unit(rng);  // Dense to sparse.
    if (trial % 2 == 1) {
      const float cx = side * unit(rng), cy = side * unit(rng);
      sim.addObstacle(std::vector<Vec2>{{cx, cy}, {cx + 6, cy}, {cx + 6, cy + 3}, {cx, cy + 3}});
      sim.addObstacle(std::vector<Vec2>{{side * unit(rng), side * unit(rng)}, {side * unit(rng), side * unit(rng)}});
      const float lx = side * unit(rng), ly = side * unit(rng);  // An L with a concave corner.
      sim.addObstacle(std::vector<Vec2>{{lx, ly}, {lx + 4, ly}, {lx + 4, ly + 1}, {lx + 1, ly + 1}, {lx + 1, ly + 4}, {lx, ly + 4}});
    }
    for (int i = 0; i < 120; ++i) {
      AgentDef def;
      def.position = Vec2(side * unit(rng), side * unit(rng));
      def.velocity = Vec2(4 * unit(rng) - 2, 4 * unit(rng) - 2);
      if (unit(rng) < 0.5f) {
        def.goal = Vec2(side * unit(rng), side * unit(rng));
      } else {
        def.prefVelocity = Vec2(4 * unit(rng) - 2, 4 * unit(rng) - 2);
      }
      def.params.radius = 0.2f + 1.3f * unit(rng);
      def.params.maxSpeed = 0.5f + 2.0f * unit(rng);
      def.params.prefSpeed = 0.5f + 1.5f * unit(rng);
      def.params.neighborDist = 2.0f + 15.0f * unit(rng);
      def.params.maxNeighbors = static_cast<int>(unit(rng) * 20.0f);
      def.params.timeHorizon = 0.5f + 10.0f * unit(rng);
      def.params.timeHorizonObst = 0.5f + 10.0f * unit(rng);
      sim.addAgent(def);
    }
    total += stepAndCompare(sim);
  }
  report("parity", "random states", total);
  EXPECT_LE(total.disagreements, total.agents / 5000);
  EXPECT_GE(total.exactFraction(), 0.99);
}

// Every step of a built-in scenario, compared from the backend's own state.
void expectParityAlong(const char* name, std::size_t count, int steps) {
  const Scenario scenario = builtinScenario(name, count, 3);
  Simulator sim = makeSimulator(scenario, 2);
  SimulatorConfig config = sim.config();
  config.exactRvo2 = true;
  sim.setConfig(config);
  Agreement total;
  for (int s = 0; s < steps; ++s) total += stepAndCompare(sim);
  report("parity", name, total);
  EXPECT_LE(total.disagreements, total.agents / 5000) << name;
  EXPECT_GE(total.exactFraction(), 0.995) << name;
}

// Four clusters at the corners of a 4,000-unit square: far more cells than buckets, so the
// agent grid wraps around and distinct cells share buckets.
TEST(ReferenceParity, SparseWorldWithWrappedGrid) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  Simulator sim;
  for (int cluster = 0; cluster < 4; ++cluster) {
    const Vec2 corner(cluster % 2 == 0 ? -2000.0f : 2000.0f, cluster < 2 ? -2000.0f : 2000.0f);
    for (int i = 0; i < 60; ++i) {
      AgentDef def;
      def.position = corner + Vec2(40.0f * unit(rng), 40.0f * unit(rng));
      def.velocity = Vec2(2 * unit(rng) - 1, 2 * unit(rng) - 1);
      def.goal = corner + Vec2(40.0f * unit(rng), 40.0f * unit(rng));
      def.params.radius = 0.5f;
      sim.addAgent(def);
    }
  }
  Agreement total;
  for (int s = 0; s < 20; ++s) total += stepAndCompare(sim);
  report("parity", "sparse world", total);
  EXPECT_LE(total.disagreements, total.agents / 5000);
  EXPECT_GE(total.exactFraction(), 0.99);
}

TEST(ReferenceParity, CrossingEveryStep) { expectParityAlong("crossing", 200, 150); }
TEST(ReferenceParity, BottleneckEveryStep) { expectParityAlong("bottleneck", 150, 150); }
TEST(ReferenceParity, CorridorEveryStep) { expectParityAlong("corridor", 150, 150); }

}  // namespace
}  // namespace crowd
