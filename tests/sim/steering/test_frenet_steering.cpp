// The Frenet planner through the Simulator: a vehicle keeps to its lane's centre, passes a parked
// obstacle in its lane without contact and comes back to the centre; a hairpin bend slows it
// without a jump or a non-finite value; runs repeat to the bit for any thread count.
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>
#include <crowd/simulator.hpp>

#include "frenet_test_helpers.hpp"

namespace crowd {
namespace {

using test::planner;
using test::planningConfig;
using test::vehicle;

// Distance from p to the polyline.
float distanceToPolyline(const std::vector<Vec2>& line, Vec2 p) {
  float best = INFINITY;
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    const Vec2 a = line[i], b = line[i + 1];
    const float t = std::clamp(dot(p - a, b - a) / absSq(b - a), 0.0f, 1.0f);
    best = std::min(best, length(p - (a + (b - a) * t)));
  }
  return best;
}

struct LaneRun {
  float maxOffsetNearObstacle = 0.0f;  // How far it swerved.
  float closestToObstacle = INFINITY;  // Centre distance, minus the two radii.
  float offsetAtEnd = 0.0f;
  float largestJump = 0.0f;  // Largest move in one step.
  float endX = 0.0f;
  std::int64_t candidates = 0;
};

// One vehicle along a straight 80 m lane (y = 0), a parked disc of radius 1 at x = 40 on the
// centre line when `parked`.
LaneRun driveLane(bool parked, int threads = 2) {
  Simulator sim(planningConfig(threads));
  const Vec2 obstacle(40, 0);
  const AgentId id = test::addLaneVehicle(sim, parked);
  LaneRun run;
  Vec2 last = sim.position(id);
  for (int s = 0; s < 400; ++s) {
    sim.step();
    const Vec2 p = sim.position(id);
    EXPECT_TRUE(std::isfinite(p.x) && std::isfinite(p.y)) << "step " << s;
    run.largestJump = std::max(run.largestJump, length(p - last));
    last = p;
    if (std::fabs(p.x - obstacle.x) < 6.0f)
      run.maxOffsetNearObstacle = std::max(run.maxOffsetNearObstacle, std::fabs(p.y));
    run.closestToObstacle = std::min(run.closestToObstacle, length(p - obstacle) - 1.0f - vehicle().radius);
    run.candidates += sim.lastPlanCandidates();
  }
  run.offsetAtEnd = std::fabs(sim.position(id).y);
  run.endX = sim.position(id).x;
  return run;
}

TEST(FrenetSteering, KeepsToTheCentreOfAClearLane) {
  const LaneRun run = driveLane(false);
  EXPECT_LT(run.maxOffsetNearObstacle, 0.05f) << "nothing in the way: no swerve";
  EXPECT_GT(run.endX, 70.0f) << "it drove the lane";
  EXPECT_LE(run.largestJump, vehicle().maxSpeed * 0.1f + 1e-4f);
  EXPECT_GT(run.candidates, 0) << "the planner ran";
}

TEST(FrenetSteering, PassesAParkedObstacleAndComesBackToTheCentre) {
  const LaneRun run = driveLane(true);
  EXPECT_GT(run.closestToObstacle, 0.0f) << "no contact with the parked disc";
  EXPECT_GT(run.maxOffsetNearObstacle, 1.0f) << "it left the centre line to pass";
  EXPECT_LT(run.offsetAtEnd, 0.2f) << "and came back to it";
  EXPECT_GT(run.endX, 70.0f) << "it got past";
  EXPECT_LE(run.largestJump, vehicle().maxSpeed * 0.1f + 1e-4f);
}

// Starting at rest beside its line (where a path's corner and its smoothed line part): from rest
// every sideways candidate has an unbounded curvature, which must not hold the vehicle for good.
TEST(FrenetSteering, StartsFromRestBesideItsLine) {
  for (const float offset : {0.3f, -1.0f}) {
    Simulator sim(planningConfig());
    const int path = sim.addPath(std::vector<Vec2>{{0, 0}, {60, 0}}, false);
    AgentDef def;
    def.position = Vec2(2, offset);
    def.goal = Vec2(60, 0);
    def.params = vehicle();
    def.behavior = planner(path);
    const AgentId id = sim.addAgent(def);
    for (int s = 0; s < 150; ++s) sim.step();
    EXPECT_GT(sim.position(id).x, 20.0f) << "offset " << offset << ": it got going";
    EXPECT_LT(std::fabs(sim.position(id).y), 0.2f) << "offset " << offset << ": onto its line";
  }
}

// ORCA can leave a vehicle nearer an obstacle than the planner's margin (braked behind a parked
// car): it must still find a plan that takes it on, not stop there for good.
TEST(FrenetSteering, StartsWithinTheMarginOfAnObstacle) {
  Simulator sim(planningConfig());
  const int path = sim.addPath(std::vector<Vec2>{{0, 0}, {60, 0}}, false);
  sim.addCircle(Vec2(2.0f, 2.0f), 1.0f);  // Its edge 1.0 from the vehicle's centre: inside radius + margin.
  AgentDef def;
  def.position = Vec2(2, 0);
  def.goal = Vec2(60, 0);
  def.params = vehicle();
  def.behavior = planner(path);
  const AgentId id = sim.addAgent(def);
  for (int s = 0; s < 100; ++s) sim.step();
  EXPECT_GT(sim.position(id).x, 12.0f);
}

// The whole lanes built-in, 24 vehicles passing and meeting, gives the same state for any thread
// count: planning is per agent, its candidates counted per step in integers.
TEST(FrenetSteering, SameStateForAnyThreadCount) {
  const Scenario scenario = builtinScenario("lanes", 24, 1);
  std::uint64_t hashes[3];
  std::int64_t candidates[3] = {0, 0, 0};
  const int threads[3] = {1, 2, 4};
  for (int i = 0; i < 3; ++i) {
    Simulator sim = makeSimulator(scenario, threads[i]);
    for (int s = 0; s < 400; ++s) {
      sim.step();
      candidates[i] += sim.lastPlanCandidates();
    }
    hashes[i] = sim.stateHash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(hashes[0], hashes[2]);
  EXPECT_EQ(candidates[0], candidates[1]);
  EXPECT_EQ(candidates[0], candidates[2]);
  EXPECT_GT(candidates[0], 0);
}

// A hairpin: 30 m out, a tight U-turn of radius 1.5, 30 m back. The line is far sharper than the
// planner's curvature limit allows at speed: it must slow down, never jump or go non-finite.
TEST(FrenetSteering, HairpinBendSlowsItDownWithoutAJump) {
  Simulator sim(planningConfig());
  const std::vector<Vec2> line = test::hairpin();
  const int path = sim.addPath(line, false);
  AgentDef def;
  def.position = Vec2(1, 0);
  def.goal = Vec2(1, 3);
  def.params = vehicle();
  def.behavior = planner(path);
  const AgentId id = sim.addAgent(def);
  Vec2 last = def.position;
  float slowest = INFINITY;
  float jump = 0.0f;
  for (int s = 0; s < 600; ++s) {
    sim.step();
    const Vec2 p = sim.position(id);
    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y)) << "step " << s;
    jump = std::max(jump, length(p - last));
    last = p;
    if (p.x > 28.0f) slowest = std::min(slowest, length(sim.velocity(id)));
  }
  EXPECT_LE(jump, vehicle().maxSpeed * 0.1f + 1e-4f) << "no teleport";
  EXPECT_LT(slowest, 0.75f * vehicle().prefSpeed) << "it slowed for the bend";
  EXPECT_LT(distanceToPolyline(line, last), 3.0f) << "it stayed near its line";
}

TEST(FrenetSteering, APlannerNeedsAPathLongEnoughForALine) {
  Simulator sim(planningConfig());
  const std::vector<Vec2> tiny{{0, 0}, {0.1f, 0}};
  const int path = sim.addPath(tiny, false);
  AgentDef def;
  def.behavior = planner(path);
  EXPECT_THROW(sim.addAgent(def), std::invalid_argument);
  def.behavior.path = -1;
  EXPECT_THROW(sim.addAgent(def), std::invalid_argument) << "no path at all";
  def.behavior.path = sim.addPath(std::vector<Vec2>{{0, 0}, {10, 0}}, false);
  def.behavior.frenet.offsets = 0;
  EXPECT_THROW(sim.addAgent(def), std::invalid_argument) << "no lateral candidates";
}

// The built-in: vehicles on both lanes of a bending road pass the cars parked in their lanes
// without touching them or each other, and every one reaches the end of its lane.
TEST(FrenetSteering, LanesBuiltinPassesEveryParkedCarWithoutContact) {
  for (const std::size_t vehicles : {1, 7, 24}) {
    const Scenario scenario = builtinScenario("lanes", vehicles, 5);
    Simulator sim = makeSimulator(scenario, 2);
    MetricsCollector metrics(true);
    metrics.observe(sim);
    for (std::int64_t s = 0; s < scenario.steps && metrics.result().arrived < vehicles; ++s) {
      sim.step();
      metrics.observe(sim);
    }
    const RunMetrics& m = metrics.result();
    EXPECT_EQ(m.arrived, vehicles) << vehicles << " vehicles";
    EXPECT_EQ(m.collisions, 0) << vehicles << " vehicles";
    EXPECT_EQ(m.penetrations, 0) << vehicles << " vehicles";
  }
}

}  // namespace
}  // namespace crowd
