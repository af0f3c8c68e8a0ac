// Metrics of agents with the Frenet planner: their deviation from their reference lines, worked
// out by hand for agents placed where the figures are known, checked against a search of the
// whole line along a bend (the metrics search a window round the last nearest segment), and
// measured on a vehicle driven past a parked obstacle; arrivals, removed agents, the JSON and
// the summary line.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>

#include "frenet_test_helpers.hpp"

namespace crowd {
namespace {

using test::planner;
using test::planningConfig;
using test::vehicle;

// An agent of the planner that stays where it is put: no goal, no avoidance, and a prefSpeed too
// small to move it measurably in the few steps these tests run.
AgentDef parkedPlanner(Vec2 position, int path) {
  AgentDef def;
  def.position = position;
  def.params = vehicle();
  def.params.prefSpeed = 1e-4f;
  def.params.maxSpeed = 1e-4f;
  def.behavior = planner(path);
  def.behavior.avoidance = AvoidanceMode::None;
  return def;
}

// Distance from p to the polyline through every sample of `line` (what the metrics must match).
double distanceToWholeLine(std::span<const ReferencePoint> line, Vec2 p) {
  double best = INFINITY;
  const double px = p.x, py = p.y;
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    const double ax = line[i].x, ay = line[i].y;
    const double bx = line[i + 1].x - ax, by = line[i + 1].y - ay;
    const double t = std::clamp(((px - ax) * bx + (py - ay) * by) / (bx * bx + by * by), 0.0, 1.0);
    best = std::min(best, std::hypot(px - (ax + t * bx), py - (ay + t * by)));
  }
  return best;
}

// Agents 1.5 and 0.5 off two lines (the second its own route), one follower and one on the goal
// rule: only the planners are counted, and their deviations are the offsets.
TEST(PlannerMetrics, KnownOffsetsOfStandingPlanners) {
  Simulator sim(planningConfig());
  const int lane = sim.addPath(std::vector<Vec2>{{0, 0}, {40, 0}}, false);
  const int other = sim.addPath(std::vector<Vec2>{{0, 20}, {40, 20}}, false);
  const AgentId above = sim.addAgent(parkedPlanner(Vec2(10, 1.5f), lane));
  const AgentId below = sim.addAgent(parkedPlanner(Vec2(25, 19.5f), kOwnRoute));
  sim.setRoute(below, other);
  AgentDef follower;
  follower.position = Vec2(5, 3);
  follower.params.maxSpeed = 0.0f;
  follower.behavior.behaviors = {{BehaviorKind::FollowPath, 1.0f}};
  follower.behavior.path = lane;
  follower.behavior.avoidance = AvoidanceMode::None;
  sim.addAgent(follower);
  AgentDef walker;
  walker.position = Vec2(30, 40);
  walker.goal = Vec2(35, 40);
  sim.addAgent(walker);

  MetricsCollector metrics(false);
  metrics.observe(sim);  // The initial state is not measured.
  for (int s = 0; s < 5; ++s) {
    sim.step();
    metrics.observe(sim);
  }
  const PlannerStats& p = metrics.result().planners;
  EXPECT_EQ(p.count, 2u);
  EXPECT_EQ(p.agentSteps, 10);
  ASSERT_EQ(p.agents.size(), 2u);
  EXPECT_EQ(p.agents[0].id, above);
  EXPECT_EQ(p.agents[0].steps, 5);
  EXPECT_NEAR(p.agents[0].meanDeviation, 1.5, 1e-3);
  EXPECT_NEAR(p.agents[0].maxDeviation, 1.5, 1e-3);
  EXPECT_EQ(p.agents[1].id, below);
  EXPECT_NEAR(p.agents[1].maxDeviation, 0.5, 1e-3) << "measured from its own route's line";
  EXPECT_NEAR(p.meanDeviation, 1.0, 1e-3);
  EXPECT_NEAR(p.maxDeviation, 1.5, 1e-3);
  EXPECT_EQ(p.arrived, 0u);
  EXPECT_FALSE(p.agents[0].arrived);
  EXPECT_EQ(p.agents[0].arrivalTime, -1.0);
  EXPECT_EQ(metrics.result().paths.followers, 1u) << "the follower is measured as a follower";
}

// An agent held on a straight line (put back on it after every step, at places the window
// search must follow, jumps across the line included) deviates by nothing; then by known
// offsets at places far from the last.
TEST(PlannerMetrics, HeldOnAStraightLineAndMovedAlongIt) {
  Simulator sim(planningConfig());
  const int lane = sim.addPath(std::vector<Vec2>{{0, 0}, {100, 0}}, false);
  const AgentId id = sim.addAgent(parkedPlanner(Vec2(1, 0), lane));
  MetricsCollector metrics(false);
  metrics.observe(sim);
  const auto stepTo = [&](Vec2 p) {
    sim.step();
    sim.setPosition(id, p);
    metrics.observe(sim);
  };
  for (int s = 0; s < 40; ++s) stepTo(Vec2(1.0f + 0.37f * static_cast<float>(s), 0.0f));
  stepTo(Vec2(90, 0));  // Far beyond the window round the last nearest segment.
  stepTo(Vec2(3, 0));
  // 10 along per step: just beyond the window, whose edge is then 2 away.
  for (int k = 1; k <= 9; ++k) stepTo(Vec2(3.0f + 10.0f * static_cast<float>(k), 0.0f));
  const PlannerStats& held = metrics.result().planners;
  EXPECT_EQ(held.agentSteps, 51);
  EXPECT_LT(held.maxDeviation, 1e-6);
  EXPECT_LT(held.meanDeviation, 1e-6);
  stepTo(Vec2(60, 2));   // 2 off, 57 further along.
  stepTo(Vec2(10, -1));  // 1 off, 50 back.
  stepTo(Vec2(10.5f, -0.5f));
  const PlannerStats& p = metrics.result().planners;
  EXPECT_EQ(p.agentSteps, 54);
  EXPECT_NEAR(p.maxDeviation, 2.0, 1e-6);
  EXPECT_NEAR(p.meanDeviation, 3.5 / 54.0, 1e-6);
  EXPECT_NEAR(p.agents[0].meanDeviation, 3.5 / 54.0, 1e-6);
}

// Round a bend (a half circle of radius 15 joined to straights), an agent put at places near
// the line and now and then far along it: the windowed search finds what the whole line gives.
TEST(PlannerMetrics, WindowedSearchMatchesTheWholeLineRoundABend) {
  Simulator sim(planningConfig());
  std::vector<Vec2> points{{-30, 0}, {0, 0}};
  for (int i = 1; i < 12; ++i) {
    const double a = -std::numbers::pi / 2 + std::numbers::pi * i / 12;
    points.push_back(Vec2(static_cast<float>(15 * std::cos(a)), static_cast<float>(15 + 15 * std::sin(a))));
  }
  points.push_back(Vec2(0, 30));
  points.push_back(Vec2(-30, 30));
  const int path = sim.addPath(points, false);
  const AgentId id = sim.addAgent(parkedPlanner(Vec2(-29, 0), path));  // Its planner makes the line.
  const std::span<const ReferencePoint> line = sim.referenceLine(path);
  ASSERT_GT(line.size(), 300u) << "long enough that a window is a small part of it";
  MetricsCollector metrics(false);
  metrics.observe(sim);
  double sum = 0, worst = 0;
  int steps = 0;
  for (std::size_t k = 0; k < line.size(); k += 3) {
    // Up to 2 either side of the line; every 40th place jumps a third of the line ahead.
    const std::size_t at = k % 120 == 0 ? (k + line.size() / 3) % line.size() : k;
    const double offset = 2.0 * std::sin(0.1 * static_cast<double>(k));
    const ReferencePoint& r = line[at];
    const Vec2 p(static_cast<float>(r.x - std::sin(r.theta) * offset),
                 static_cast<float>(r.y + std::cos(r.theta) * offset));
    sim.step();
    sim.setPosition(id, p);
    metrics.observe(sim);
    const double expected = distanceToWholeLine(line, p);
    sum += expected;
    worst = std::max(worst, expected);
    ++steps;
  }
  const PlannerStats& stats = metrics.result().planners;
  EXPECT_EQ(stats.agentSteps, steps);
  EXPECT_NEAR(stats.maxDeviation, worst, 1e-9);
  EXPECT_NEAR(stats.meanDeviation, sum / steps, 1e-9);
  EXPECT_GT(worst, 1.9) << "the places were off the line";
}

// A hairpin (legs 3 apart): an agent that drifts 2 off the first leg, towards the second, is 2
// from the part of the line it has been tracked along, though the other leg is 1 away; as its
// planner's Frenet offset would be.
TEST(PlannerMetrics, TracksThePartOfAHairpinItIsOn) {
  Simulator sim(planningConfig());
  const std::vector<Vec2> points = test::hairpin();
  const int path = sim.addPath(points, false);
  const AgentId id = sim.addAgent(parkedPlanner(Vec2(1, 0), path));
  MetricsCollector metrics(false);
  metrics.observe(sim);
  for (int s = 0; s <= 60; ++s) {
    sim.step();
    sim.setPosition(id,
                    Vec2(1.0f + 0.3f * static_cast<float>(s), std::min(2.0f, 0.1f * static_cast<float>(s))));
    metrics.observe(sim);
  }
  const Vec2 end = sim.position(id);
  // 1 from the far leg (y = 3), 2 from its own; the centripetal spline leaves the U-turn's short
  // chords heading a little across the long legs, which bow up to 0.1 outwards there.
  ASSERT_NEAR(distanceToWholeLine(sim.referenceLine(path), end), 1.0, 0.15) << "the other leg is nearer";
  EXPECT_NEAR(metrics.result().planners.maxDeviation, 2.0, 0.15) << "from its own leg, bowed the same way";
}

// The vehicle of test_frenet_steering's lane, past a parked disc at x = 40 to a goal at the
// lane's end: it strays more than 1 to pass, little on average, and arrives.
TEST(PlannerMetrics, VehiclePassingAParkedObstacleThenArriving) {
  Simulator sim(planningConfig());
  const AgentId id = test::addLaneVehicle(sim, true);
  MetricsCollector metrics;
  metrics.observe(sim);
  double worst = 0;
  for (int s = 0; s < 400; ++s) {
    sim.step();
    metrics.observe(sim);
    worst = std::max(worst, std::fabs(static_cast<double>(sim.position(id).y)));
  }
  const RunMetrics& m = metrics.result();
  const PlannerStats& p = m.planners;
  ASSERT_EQ(p.count, 1u);
  EXPECT_EQ(p.agentSteps, 400);
  EXPECT_GT(p.maxDeviation, 1.0) << "it left the centre line to pass";
  EXPECT_NEAR(p.maxDeviation, worst, 1e-3) << "the lane is straight: the deviation is |y|";
  EXPECT_LT(p.meanDeviation, 0.35) << "and kept to it elsewhere";
  ASSERT_EQ(m.arrived, 1u);
  EXPECT_EQ(p.arrived, 1u);
  EXPECT_TRUE(p.agents[0].arrived);
  EXPECT_DOUBLE_EQ(p.agents[0].arrivalTime, m.firstArrivalTime);
  EXPECT_GT(p.agents[0].arrivalTime, 77.0 / 4.0) << "no faster than maxSpeed";
}

// With removeArrived, planners leave on arrival and are still reported; a planner that does not
// arrive and an agent without a planner are told apart from them.
TEST(PlannerMetrics, RemovedOnArrivalStillReported) {
  SimulatorConfig config = planningConfig();
  config.removeArrived = true;
  Simulator sim(config);
  const int near = sim.addPath(std::vector<Vec2>{{0, 0}, {12, 0}}, false);
  const int far = sim.addPath(std::vector<Vec2>{{0, 20}, {200, 20}}, false);
  AgentDef def;
  def.params = vehicle();
  def.position = Vec2(1, 0);
  def.goal = Vec2(11, 0);
  def.behavior = planner(near);
  const AgentId quick = sim.addAgent(def);
  def.position = Vec2(1, 20);
  def.goal = Vec2(199, 20);
  def.behavior = planner(far);
  const AgentId slow = sim.addAgent(def);
  AgentDef walker;  // Arrives too, without a planner.
  walker.position = Vec2(0, -10);
  walker.goal = Vec2(1, -10);
  sim.addAgent(walker);
  MetricsCollector metrics(false);
  metrics.observe(sim);
  for (int s = 0; s < 100; ++s) {
    sim.step();
    metrics.observe(sim);
  }
  ASSERT_FALSE(sim.contains(quick)) << "removed on arrival";
  const RunMetrics& m = metrics.result();
  EXPECT_EQ(m.arrived, 2u);
  const PlannerStats& p = m.planners;
  ASSERT_EQ(p.count, 2u);
  EXPECT_EQ(p.arrived, 1u);
  ASSERT_EQ(p.agents.size(), 2u);
  EXPECT_EQ(p.agents[0].id, quick);
  EXPECT_TRUE(p.agents[0].arrived);
  EXPECT_GT(p.agents[0].arrivalTime, 0.0);
  EXPECT_EQ(static_cast<double>(p.agents[0].steps + 1) * 0.1f, p.agents[0].arrivalTime)
      << "measured after every step until the one it arrived and was removed in";
  EXPECT_EQ(p.agents[1].id, slow);
  EXPECT_FALSE(p.agents[1].arrived);
  EXPECT_EQ(p.agents[1].steps, 100);
  EXPECT_EQ(p.agentSteps, p.agents[0].steps + 100);

  const nlohmann::json doc = nlohmann::json::parse(m.toJson());
  ASSERT_TRUE(doc.contains("planners")) << m.toJson();
  const nlohmann::json& j = doc["planners"];
  EXPECT_EQ(j["count"], 2);
  EXPECT_EQ(j["agentSteps"], p.agentSteps);
  EXPECT_DOUBLE_EQ(j["meanDeviation"].get<double>(), p.meanDeviation);
  EXPECT_DOUBLE_EQ(j["maxDeviation"].get<double>(), p.maxDeviation);
  EXPECT_EQ(j["arrived"], 1);
  ASSERT_EQ(j["agents"].size(), 2u);
  const nlohmann::json& first = j["agents"][0];
  EXPECT_EQ(first["id"], quick.index);
  EXPECT_EQ(first["steps"], p.agents[0].steps);
  EXPECT_DOUBLE_EQ(first["meanDeviation"].get<double>(), p.agents[0].meanDeviation);
  EXPECT_DOUBLE_EQ(first["maxDeviation"].get<double>(), p.agents[0].maxDeviation);
  EXPECT_EQ(first["arrived"], true);
  EXPECT_DOUBLE_EQ(first["arrivalTime"].get<double>(), p.agents[0].arrivalTime);
  EXPECT_EQ(j["agents"][1]["arrived"], false);
  EXPECT_TRUE(j["agents"][1]["arrivalTime"].is_null());

  char expected[160];
  std::snprintf(expected, sizeof expected,
                "2: deviation mean %.2f, max %.2f (from their reference lines); 1 arrived", p.meanDeviation,
                p.maxDeviation);
  EXPECT_EQ(p.summary(), expected);
}

// The built-in 'lanes' (every vehicle plans along its lane, past parked cars) as `crowdsim run`
// runs it: every agent is counted once, every arrival is a planner's, and they pass the cars.
TEST(PlannerMetrics, BuiltinLanesReportsEveryVehicle) {
  const Scenario scenario = builtinScenario("lanes", 24, 7);
  Simulator sim = makeSimulator(scenario, 2);
  MetricsCollector metrics(false);
  metrics.observe(sim);
  for (std::int64_t s = 0; s < scenario.steps && metrics.result().arrived < metrics.result().agentsWithGoal;
       ++s) {
    sim.step();
    metrics.observe(sim);
  }
  const RunMetrics& m = metrics.result();
  const PlannerStats& p = m.planners;
  EXPECT_EQ(p.count, m.initialAgents);
  EXPECT_EQ(p.agents.size(), p.count);
  EXPECT_EQ(p.arrived, m.arrived);
  EXPECT_EQ(p.arrived, m.agentsWithGoal);
  EXPECT_GT(p.maxDeviation, 1.0) << "they swerve round the parked cars";
  EXPECT_LT(p.meanDeviation, 0.5) << "and keep to their lanes elsewhere";
  std::int64_t steps = 0;
  for (const PlannerAgentStats& a : p.agents) {
    steps += a.steps;
    EXPECT_TRUE(a.arrived);
    EXPECT_LE(a.meanDeviation, a.maxDeviation);
  }
  EXPECT_EQ(steps, p.agentSteps);
  EXPECT_EQ(nlohmann::json::parse(m.toJson())["planners"]["agents"].size(), p.count);
}

TEST(PlannerMetrics, NoPlannersNoPlannerFigures) {
  Simulator sim;
  AgentDef def;
  def.goal = Vec2(3, 0);
  sim.addAgent(def);
  MetricsCollector metrics;
  metrics.observe(sim);
  for (int s = 0; s < 20; ++s) {
    sim.step();
    metrics.observe(sim);
  }
  const RunMetrics& m = metrics.result();
  EXPECT_EQ(m.arrived, 1u);
  EXPECT_EQ(m.planners.count, 0u);
  EXPECT_EQ(m.planners.arrived, 0u) << "an arrival without a planner";
  EXPECT_TRUE(m.planners.agents.empty());
  EXPECT_FALSE(nlohmann::json::parse(m.toJson()).contains("planners"));
}

TEST(PlannerMetrics, SummaryBeforeAnyStep) {
  PlannerStats stats;
  stats.count = 3;
  EXPECT_EQ(stats.summary(), "3: no deviation measured; 0 arrived");
  stats.agentSteps = 10;
  stats.meanDeviation = 0.314;
  stats.maxDeviation = 2.449;
  stats.arrived = 3;
  EXPECT_EQ(stats.summary(), "3: deviation mean 0.31, max 2.45 (from their reference lines); 3 arrived");
}

}  // namespace
}  // namespace crowd
