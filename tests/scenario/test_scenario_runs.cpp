// Whole scenarios: everyone arrives, nobody collides, nobody walks through walls.
#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>

#include "reference/reference_sim.hpp"

namespace crowd {
namespace {

namespace ref = crowd_reference;

struct Outcome {
  RunMetrics metrics;
  std::int64_t stepsUntilAllWithin = -1;  // RVO2's Circle criterion: all within radius at once.
};

Outcome run(const Scenario& scenario, bool exactRvo2 = false) {
  Simulator sim = makeSimulator(scenario, 0);
  SimulatorConfig config = sim.config();
  config.exactRvo2 = exactRvo2;
  sim.setConfig(config);
  MetricsCollector metrics;
  metrics.observe(sim);
  Outcome out;
  for (std::int64_t s = 0; s < scenario.steps; ++s) {
    sim.step();
    metrics.observe(sim);
    if (out.stepsUntilAllWithin < 0) {
      bool all = true;
      for (std::size_t i = 0; i < sim.agentCount() && all; ++i) {
        const AgentId id = sim.ids()[i];
        const auto goal = sim.goal(id);
        const float r = sim.params(id).radius;
        all = !goal || absSq(sim.position(id) - *goal) <= r * r;
      }
      if (all) out.stepsUntilAllWithin = sim.stepCount();
    }
    if (metrics.result().arrived == metrics.result().agentsWithGoal && out.stepsUntilAllWithin >= 0) break;
  }
  out.metrics = metrics.result();
  return out;
}

void print(const char* name, const Outcome& out) {
  std::printf(
      "[ run ] %s: %lld steps, %zu arrived, %lld collisions, %lld penetrations, min separation %.3f\n", name,
      static_cast<long long>(out.metrics.steps), out.metrics.arrived,
      static_cast<long long>(out.metrics.collisions), static_cast<long long>(out.metrics.penetrations),
      out.metrics.minSeparationRatio);
}

// ORCA guarantees no contact only while every agent's linear program is feasible. In RVO2's
// Circle all 250 agents meet at the centre, the programs become infeasible, and the fallback
// (lp3) keeps the largest violation small rather than zero: RVO2 itself lets neighbours overlap
// there. The independent reference (double precision, brute force) shows how much; the backend
// must do about as well. The runs are chaotic (float and double part ways within a few hundred
// steps), so the smallest separation of a run varies between implementations: measured 0.73 to
// 0.81 for double and float variants; allow 0.1 below the reference.
TEST(ScenarioRun, Rvo2CircleOf250) {
  const Scenario scenario = builtinScenario("circle", 250);
  const Outcome out = run(scenario, true);  // RVO2's rules, to compare with RVO2's figure.
  print("circle 250", out);
  EXPECT_EQ(out.metrics.arrived, 250u);
  // RVO2 takes 3,547 steps here. Ties in neighbour distance (the circle is symmetric) are broken
  // by agent id rather than by RVO2's kd-tree order, which changes rounding, so expect the same
  // figure only to within 10%.
  EXPECT_NEAR(static_cast<double>(out.stepsUntilAllWithin), 3547.0, 0.10 * 3547.0);

  ref::RefWorld world;
  world.timeStep = scenario.timeStep;
  for (const AgentDef& a : scenario.agents) {
    ref::RefAgent agent;
    agent.position = {a.position.x, a.position.y};
    agent.hasGoal = true;
    agent.goal = {a.goal->x, a.goal->y};
    agent.radius = a.params.radius;
    world.agents.push_back(agent);
  }
  double referenceMin = INFINITY;
  for (std::int64_t s = 0; s < out.metrics.steps; ++s) {
    ref::step(world);
    for (std::size_t i = 0; i < world.agents.size(); ++i) {
      for (std::size_t j = i + 1; j < world.agents.size(); ++j) {
        const double d = ref::length(world.agents[i].position - world.agents[j].position);
        referenceMin = std::min(referenceMin, d / (world.agents[i].radius + world.agents[j].radius));
      }
    }
  }
  std::printf("[ run ] reference circle 250: min separation %.3f\n", referenceMin);
  EXPECT_LT(referenceMin, 0.99);  // The overlap is ORCA's, not the backend's...
  EXPECT_GE(out.metrics.minSeparationRatio, referenceMin - 0.1);  // ...and about as small here.
}

// The circle of 2,000 (everyone arrives, the closest pair at 0.60 of the radii, a far denser
// crush than the 250's) is cli.circle_2000_closest_pair: the same run, checked on its summary.

TEST(ScenarioRun, CrossingStreamsWithoutContact) {
  const Outcome out = run(builtinScenario("crossing", 400));
  print("crossing 400", out);
  EXPECT_EQ(out.metrics.arrived, 400u);
  EXPECT_EQ(out.metrics.collisions, 0);
}

TEST(ScenarioRun, CorridorBothWaysWithoutContact) {
  const Outcome out = run(builtinScenario("corridor", 300));
  print("corridor 300", out);
  EXPECT_EQ(out.metrics.arrived, 300u);
  EXPECT_EQ(out.metrics.collisions, 0);
  EXPECT_EQ(out.metrics.penetrations, 0);
}

TEST(ScenarioRun, BottleneckEvacuatesWithoutPenetration) {
  const Scenario scenario = builtinScenario("bottleneck", 200);
  ASSERT_TRUE(scenario.removeArrived);
  ASSERT_FALSE(scenario.obstacles.empty());
  const Outcome out = run(scenario);
  print("bottleneck 200", out);
  EXPECT_EQ(out.metrics.arrived, 200u);
  EXPECT_EQ(out.metrics.penetrations, 0);  // Obstacle lines are hard constraints.
  // The crush at the door makes the agent programs infeasible now and then: slight contact only.
  EXPECT_GE(out.metrics.minSeparationRatio, 0.95);
}

}  // namespace
}  // namespace crowd
