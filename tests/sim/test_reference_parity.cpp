// Parity: the CPU backend (float, grid neighbours) against the independent reference
// (double, brute force) on the same states, one step at a time (the 3D world's: Simulator3Parity
// in test_simulator3.cpp).
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

// When the ORCA program is infeasible, lp3 minimises the largest violation of the agent lines.
// Its optimum can be flat (many velocities tie to within rounding), so float and double
// solvers may land far apart with the same objective. Such a pair counts as agreeing when our
// velocity respects the obstacle lines as well and its largest violation is within 2%.
// lp3 is incremental, not a global optimiser: when float and double first fail on different
// lines, it starts from a different point and can settle on a worse one. Those rare cases are
// counted as disagreements, and their rate is bounded by the tests. (Agent `agent` of `world`,
// our velocity against the reference's.)
bool equallyGoodOptimum(const ref::RefWorld& world, int agent, ref::V2 ours, ref::V2 theirs) {
  const std::vector<ref::RefLine> lines = ref::orcaLines(world, agent);
  const std::size_t obstacleLines = ref::obstacleLineCount(world, agent);
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
      sim.addObstacle(
          std::vector<Vec2>{{side * unit(rng), side * unit(rng)}, {side * unit(rng), side * unit(rng)}});
      const float lx = side * unit(rng), ly = side * unit(rng);  // An L with a concave corner.
      sim.addObstacle(std::vector<Vec2>{
          {lx, ly}, {lx + 4, ly}, {lx + 4, ly + 1}, {lx + 1, ly + 1}, {lx + 1, ly + 4}, {lx, ly + 4}});
    }
    for (int i = 0; i < 120; ++i) sim.addAgent(test::randomAgent<Vec2>(rng, unit, side));
    total += test::stepAndCompare(sim, "parity", equallyGoodOptimum);
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
  const Agreement total = test::compareSteps(sim, steps, "parity", name, equallyGoodOptimum);
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
  const Agreement total = test::compareSteps(sim, 20, "parity", "sparse world", equallyGoodOptimum);
  EXPECT_LE(total.disagreements, total.agents / 5000);
  EXPECT_GE(total.exactFraction(), 0.99);
}

TEST(ReferenceParity, CrossingEveryStep) {
  expectParityAlong("crossing", 200, 150);
}
TEST(ReferenceParity, BottleneckEveryStep) {
  expectParityAlong("bottleneck", 150, 150);
}
TEST(ReferenceParity, CorridorEveryStep) {
  expectParityAlong("corridor", 150, 150);
}

}  // namespace
}  // namespace crowd
