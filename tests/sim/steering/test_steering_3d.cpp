// Steering in a 3D world (kernels/steering_3d.hpp): the planar behaviours that need no state but
// a target and no planar geometry (goal, seek, flee, arrive, separation, pursue, evade), and
// wander, steer spheres, with the planar code's forces; the others are refused by name, in the
// library and in scenario files.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/common.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario3.hpp>
#include <crowd/simulator3.hpp>

#include "sim/steering/steered_swarm_3d.hpp"
#include "sim/worlds.hpp"

namespace crowd {
namespace {

using test::only;

TEST(Steering3d, ArriveStopsOnTheGoalWithoutOvershooting) {
  SimulatorConfig config;
  config.timeStep = 0.1f;
  Simulator3 sim(config);
  AgentDef3 def;
  def.goal = Vec3(10.0f, -6.0f, 8.0f);
  def.params.maxSpeed = 2.0f;
  def.params.prefSpeed = 1.5f;
  def.params.goalRadius = 0.01f;
  def.behavior = only(BehaviorKind::Arrive);
  const AgentId id = sim.addAgent(def);
  float furthest = 0.0f;  // Along the line to the goal.
  const Vec3 along = normalize(*def.goal);
  for (int s = 0; s < 400; ++s) {
    sim.step();
    furthest = std::max(furthest, dot(sim.position(id), along));
  }
  EXPECT_NEAR(length(sim.position(id) - *def.goal), 0.0f, 0.02f);
  EXPECT_LT(length(sim.velocity(id)), 0.02f);
  EXPECT_LE(furthest, length(*def.goal) + 0.02f);  // Never past the goal.
}

TEST(Steering3d, SeekAndFleeHeadToAndFromTheGoalAtPreferredSpeed) {
  for (const BehaviorKind kind : {BehaviorKind::Seek, BehaviorKind::Flee}) {
    Simulator3 sim;
    AgentDef3 def;
    def.goal = Vec3(0.0f, 0.0f, 100.0f);
    def.params.prefSpeed = 1.0f;
    def.behavior = only(kind);
    const AgentId id = sim.addAgent(def);
    for (int s = 0; s < 40; ++s) sim.step();
    const Vec3 v = sim.velocity(id);
    EXPECT_NEAR(length(v), 1.0f, 1e-3f);
    EXPECT_NEAR(v.z, kind == BehaviorKind::Seek ? 1.0f : -1.0f, 1e-3f);
  }
}

TEST(Steering3d, SeparationPushesNeighboursApartWithoutOrca) {
  Simulator3 sim;
  AgentDef3 def;
  def.behavior = only(BehaviorKind::Separation, AvoidanceMode::None);
  def.behavior.separationRadius = 4.0f;
  def.prefVelocity = Vec3(0.0f);
  const AgentId a = sim.addAgent(def);
  def.position = Vec3(0.0f, 0.0f, 1.0f);
  const AgentId b = sim.addAgent(def);
  for (int s = 0; s < 20; ++s) sim.step();
  const Vec3 gap = sim.position(b) - sim.position(a);
  EXPECT_GT(gap.z, 3.0f);  // Pushed apart along z, nearly out of the separation radius.
  EXPECT_NEAR(gap.x, 0.0f, 1e-5f);
  EXPECT_NEAR(gap.y, 0.0f, 1e-5f);
}

TEST(Steering3d, WithoutAvoidanceAgentsPassThroughEachOther) {
  Simulator3 sim;
  AgentDef3 def;
  def.behavior = only(BehaviorKind::Seek, AvoidanceMode::None);
  const auto [a, b] = test::addHeadOnPair(sim, def, Vec3(-5.0f, 0.0f, 0.0f), Vec3(5.0f, 0.0f, 0.0f));
  const float closest = test::closestApproach(sim, a, b, 40, false);
  EXPECT_LT(closest, 0.5f);  // Straight through: no avoidance asked for.
}

TEST(Steering3d, PlanarOnlyBehavioursAreRefused) {
  Simulator3 sim;
  AgentDef3 def;
  for (const BehaviorKind kind : {BehaviorKind::FollowPath, BehaviorKind::AvoidObstacles}) {
    def.behavior = only(kind);
    try {
      sim.addAgent(def);
      FAIL() << kBehaviorNames[static_cast<int>(kind)] << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("planar for now")) << e.what();
    }
  }
  EXPECT_EQ(sim.agentCount(), 0u);
  const AgentId id = sim.addAgent(AgentDef3{});
  EXPECT_THROW(sim.setBehavior(id, only(BehaviorKind::FollowPath)), std::invalid_argument);
  sim.setBehavior(id, only(BehaviorKind::Arrive));
  EXPECT_EQ(sim.behavior(id), only(BehaviorKind::Arrive));
}

TEST(Steering3d, ScenarioFilesSteerAndRefuseWhatIsPlanar) {
  const Scenario3 s = parseScenario3(R"({"dimensions": 3,
    "agentDefaults": {"behavior": "arrive", "slowingRadius": 3},
    "agents": [ {"position": [0, 0, 0], "goal": [5, 5, 5]},
                {"position": [9, 0, 0], "goal": [0, 0, 0], "behavior": ["seek", {"name": "separation", "weight": 2}]} ],
    "groups": [ {"type": "box", "count": 4, "min": [0, 0, 0], "max": [3, 3, 3], "goalOffset": [0, 0, 10],
                 "behavior": "flee", "avoidance": "none"} ] })",
                                     "steer.json");
  ASSERT_EQ(s.agents.size(), 6u);
  EXPECT_EQ(s.agents[0].behavior.behaviors[0].kind, BehaviorKind::Arrive);
  EXPECT_EQ(s.agents[0].behavior.slowingRadius, 3.0f);
  EXPECT_EQ(s.agents[1].behavior.behaviors.size(), 2u);
  EXPECT_EQ(s.agents[5].behavior.behaviors[0].kind, BehaviorKind::Flee);
  EXPECT_EQ(s.agents[5].behavior.avoidance, AvoidanceMode::None);
  Simulator3 sim = makeSimulator3(s);
  for (int step = 0; step < 5; ++step) sim.step();
  EXPECT_LT(sim.position(AgentId{5, 0}).z, 3.0f);  // Fleeing its goal, 10 above.
  auto errorFor = [](const std::string& text) {
    try {
      parseScenario3(text, "bad.json");
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_THAT(errorFor(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "behavior": "avoid"}]})"),
              ::testing::StartsWith("bad.json: /agents/0/behavior: behaviour 'avoid' is planar for now"));
  EXPECT_THAT(errorFor(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "path": 0}]})"),
              ::testing::StartsWith("bad.json: /agents/0/path: 3D agents have no paths or planners"));
  EXPECT_THAT(
      errorFor(
          R"({"dimensions": 3, "agentDefaults": {"behavior": "follow"}, "agents": [{"position": [0, 0, 0]}]})"),
      ::testing::HasSubstr("planar for now"));
  EXPECT_THAT(errorFor(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0], "target": 7}]})"),
              ::testing::HasSubstr("7"));
}

// A pursuer 1.5 times as fast as its target catches it, by every rule; an evader chased by a
// slower pursuer gets away; a seeker heads for its target rather than its goal.
TEST(Steering3d, PursuersCatchTheirTargetsInEveryRule) {
  for (const PursuitKind rule : {PursuitKind::Chase, PursuitKind::Sight, PursuitKind::Intercept}) {
    SimulatorConfig config;
    config.timeStep = 0.1f;
    Simulator3 sim(config);
    AgentDef3 runner;
    runner.position = Vec3(0.0f, 0.0f, 20.0f);
    runner.prefVelocity = Vec3(1.0f, 0.0f, 0.0f);
    runner.velocity = runner.prefVelocity;
    runner.params.maxSpeed = 1.0f;
    const AgentId target = sim.addAgent(runner);
    AgentDef3 chaser;
    chaser.params.maxSpeed = 1.5f;
    chaser.behavior = only(BehaviorKind::Pursue, AvoidanceMode::None);
    chaser.behavior.pursuit = rule;
    chaser.target = target;
    const AgentId pursuer = sim.addAgent(chaser);
    ASSERT_EQ(sim.target(pursuer), target);
    float closest = INFINITY;
    for (int s = 0; s < 1200; ++s) {
      sim.step();
      closest = std::min(closest, length(sim.position(pursuer) - sim.position(target)));
    }
    EXPECT_LT(closest, 1.0f) << kPursuitNames[static_cast<int>(rule)];
  }
}

TEST(Steering3d, EvadersAndSeekersFollowTheirTarget) {
  Simulator3 sim;
  AgentDef3 flier;  // Flies up the z axis, steered by nothing.
  flier.prefVelocity = Vec3(0.0f, 0.0f, 1.0f);
  flier.velocity = flier.prefVelocity;
  flier.behavior.avoidance = AvoidanceMode::None;
  const AgentId threat = sim.addAgent(flier);
  AgentDef3 evader;  // Beside the point the flier will be at when they could meet (5 s on).
  evader.position = Vec3(3.0f, 0.0f, 5.0f);
  evader.behavior = only(BehaviorKind::Evade, AvoidanceMode::None);
  evader.target = threat;
  const AgentId runner = sim.addAgent(evader);
  AgentDef3 seeker;
  seeker.position = Vec3(0.0f, 10.0f, 0.0f);
  seeker.goal = Vec3(0.0f, 100.0f, 0.0f);  // Ignored while the target is alive.
  seeker.behavior = only(BehaviorKind::Seek);
  seeker.target = runner;
  const AgentId follower = sim.addAgent(seeker);
  sim.step();
  // Away from the flier's position predicted after the look-ahead |gap| / (maxSpeed 2 + 1):
  // (0, 0, T), T = sqrt(34) / 3, so along (3, 0, 5 - T) from rest.
  const float lookAhead = std::sqrt(34.0f) / 3.0f;
  EXPECT_GT(sim.velocity(runner).x, 0.3f);
  EXPECT_NEAR(sim.velocity(runner).z / sim.velocity(runner).x, (5.0f - lookAhead) / 3.0f, 1e-4f);
  EXPECT_NEAR(sim.velocity(runner).y, 0.0f, 1e-6f);
  EXPECT_LT(sim.velocity(follower).y, 0.0f);  // Towards the runner, not up to its goal.
  EXPECT_THROW(sim.setTarget(runner, runner), std::invalid_argument);
  sim.removeAgent(runner);
  EXPECT_FALSE(sim.target(follower).has_value());
  for (int s = 0; s < 40; ++s) sim.step();  // Its target gone, the seeker heads for its goal.
  EXPECT_GT(sim.velocity(follower).y, 0.5f);
}

TEST(Steering3d, ScenarioTargetsByNumberAndName) {
  const Scenario3 s = parseScenario3(R"({"dimensions": 3,
    "agents": [ {"position": [0, 0, 0], "behavior": "pursue", "target": "runner", "maxSpeed": 2},
                {"name": "runner", "position": [0, 0, 10], "prefVelocity": [1, 0, 0]} ],
    "groups": [ {"type": "sphere", "count": 6, "radius": 30, "behavior": "pursue", "pursuit": "sight",
                 "target": 1, "avoidance": "none"} ] })",
                                     "chase.json");
  ASSERT_EQ(s.agents.size(), 8u);
  EXPECT_EQ(s.agents[0].target, (AgentId{1, 0}));
  EXPECT_EQ(s.agents[5].target, (AgentId{1, 0}));
  EXPECT_EQ(s.agents[5].behavior.pursuit, PursuitKind::Sight);
  Simulator3 sim = makeSimulator3(s);
  EXPECT_EQ(sim.target(sim.ids()[0]), sim.ids()[1]);
  const float before = length(sim.position(sim.ids()[4]) - sim.position(sim.ids()[1]));
  for (int step = 0; step < 40; ++step) sim.step();
  EXPECT_LT(length(sim.position(sim.ids()[4]) - sim.position(sim.ids()[1])), before - 5.0f);
}

// Wander in 3D meanders in all three dimensions at about its preferred speed, the same walk for
// the same seed, another for another.
TEST(Steering3d, WanderMeandersInThreeDimensions) {
  auto walk = [](std::uint64_t seed) {
    SimulatorConfig config;
    config.seed = seed;
    Simulator3 sim(config);
    AgentDef3 def;
    def.behavior = only(BehaviorKind::Wander, AvoidanceMode::None);
    def.behavior.wanderJitter = 4.0f;
    const AgentId id = sim.addAgent(def);
    std::vector<Vec3> path;
    for (int s = 0; s < 400; ++s) {
      sim.step();
      path.push_back(sim.position(id));
    }
    return path;
  };
  const std::vector<Vec3> a = walk(3);
  Vec3 lo(INFINITY), hi(-INFINITY);
  float turned = 0.0f;  // The largest change of direction over 40 steps.
  for (std::size_t s = 0; s < a.size(); ++s) {
    lo = glm::min(lo, a[s]);
    hi = glm::max(hi, a[s]);
    if (s >= 80) {
      const Vec3 before = normalize(a[s - 40] - a[s - 80]);
      const Vec3 after = normalize(a[s] - a[s - 40]);
      turned = std::max(turned, 1.0f - dot(before, after));
    }
  }
  EXPECT_GT(turned, 0.2f);                                                            // It turns,
  for (int axis = 0; axis < 3; ++axis) EXPECT_GT(hi[axis] - lo[axis], 3.0f) << axis;  // in every dimension,
  EXPECT_NEAR(length(a[200] - a[199]) / 0.25f, 1.0f, 0.15f);                          // at about prefSpeed.
  EXPECT_EQ(walk(3), a);
  EXPECT_NE(walk(4), a);
}

TEST(Steering3d, SteeredSwarmIsTheSameForAnyThreadCount) {
  const Scenario3 s = test::steeredSwarm(2000, 3);
  std::uint64_t first = 0;
  for (const int threads : {1, 2, 3}) {
    Simulator3 sim = makeSimulator3(s, threads);
    for (int step = 0; step < 30; ++step) sim.step();
    if (threads == 1) first = sim.stateHash();
    EXPECT_EQ(sim.stateHash(), first) << threads << " threads";
  }
}

}  // namespace
}  // namespace crowd
