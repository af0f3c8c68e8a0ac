// Steering through the Simulator's API: the default goal rule unchanged to the bit, the same
// state for any thread count with wander on, behaviours, targets and routes changed between
// steps, avoidance off, a light arriver.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/simulator.hpp>

#include "steering_test_helpers.hpp"

namespace crowd {
namespace {

using test::behaviorOf;
using test::configWith;

// --- the default rule ---------------------------------------------------------------------------

// A circle of goal-only agents swapping sides round a square post, as RVO2's examples do.
void addCircleCrowd(Simulator& sim, int agents, std::vector<AgentId>& ids) {
  const std::vector<Vec2> post{{-3, -3}, {3, -3}, {3, 3}, {-3, 3}};
  sim.addObstacle(post);
  for (int i = 0; i < agents; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / agents;
    AgentDef def;
    def.position =
        Vec2(static_cast<float>(30.0 * std::cos(angle)), static_cast<float>(30.0 * std::sin(angle)));
    def.goal = -def.position;
    ids.push_back(sim.addAgent(def));
  }
}

TEST(SteeringBehaviors, ExplicitGoalBehaviourGivesTheDefaultsResultsBitForBit) {
  for (const bool exact : {true, false}) {
    SimulatorConfig config = configWith(0.25f);
    config.exactRvo2 = exact;
    Simulator plain(config);
    std::vector<AgentId> plainIds;
    addCircleCrowd(plain, 60, plainIds);

    // The same crowd, each agent given a steering behaviour and then `goal` again: the profile
    // table now holds a steering profile and the steering state exists, yet goal agents must
    // take exactly RVO2's path.
    Simulator explicitGoal(config);
    std::vector<AgentId> explicitIds;
    addCircleCrowd(explicitGoal, 60, explicitIds);
    for (const AgentId id : explicitIds) {
      explicitGoal.setBehavior(id, behaviorOf({BehaviorKind::Wander, BehaviorKind::Seek}));
      explicitGoal.setBehavior(id, Behavior{});
      ASSERT_TRUE(explicitGoal.behavior(id).goalOnly());
    }
    for (int s = 0; s < 150; ++s) {
      plain.step();
      explicitGoal.step();
      ASSERT_EQ(explicitGoal.stateHash(), plain.stateHash()) << "step " << s + 1 << (exact ? " (exact)" : "");
    }
  }
}

TEST(SteeringBehaviors, FarAwaySteeringAgentsDoNotChangeGoalAgents) {
  // Goal agents out of range of a wandering, a pursuing and a path-following agent 2,000 away
  // (neighborDist 15) move exactly as they do alone, to the bit.
  Simulator alone(configWith(0.25f));
  std::vector<AgentId> aloneIds;
  addCircleCrowd(alone, 40, aloneIds);
  Simulator mixed(configWith(0.25f));
  std::vector<AgentId> mixedIds;
  addCircleCrowd(mixed, 40, mixedIds);
  AgentDef wanderer;
  wanderer.position = Vec2(2000, 0);
  wanderer.behavior = behaviorOf({BehaviorKind::Wander});
  const AgentId w = mixed.addAgent(wanderer);
  AgentDef hunter;
  hunter.position = Vec2(2000, 10);
  hunter.behavior = behaviorOf({BehaviorKind::Pursue});
  hunter.target = w;
  mixed.addAgent(hunter);
  AgentDef follower;
  follower.position = Vec2(2000, -10);
  follower.behavior = behaviorOf({BehaviorKind::FollowPath});
  const std::vector<Vec2> loop{{1990, -20}, {2010, -20}, {2010, -30}};
  follower.behavior.path = mixed.addPath(loop, true);
  mixed.addAgent(follower);
  for (int s = 0; s < 150; ++s) {
    alone.step();
    mixed.step();
  }
  for (std::size_t i = 0; i < aloneIds.size(); ++i) {
    ASSERT_EQ(mixedIds[i], aloneIds[i]);
    EXPECT_EQ(mixed.position(mixedIds[i]), alone.position(aloneIds[i])) << "agent " << i;
    EXPECT_EQ(mixed.velocity(mixedIds[i]), alone.velocity(aloneIds[i])) << "agent " << i;
  }
  EXPECT_GT(length(mixed.position(w) - Vec2(2000, 0)), 1.0f);  // The far ones did move.
}

// --- determinism --------------------------------------------------------------------------------

// 400 agents in a 60 x 60 box: goal-only, goal with wander and separation, pursuers of those,
// and path followers, among a few posts.
std::uint64_t mixedCrowdHash(int threads, std::uint64_t seed, int steps, bool exact = false) {
  SimulatorConfig config = configWith(0.25f, threads);
  config.seed = seed;
  config.exactRvo2 = exact;
  Simulator sim(config);
  sim.addCircle(Vec2(10, 10), 2.0f);
  sim.addCircle(Vec2(-12, 5), 1.5f);
  const std::vector<Vec2> loop{{-20, -20}, {20, -20}, {20, 20}, {-20, 20}};
  const int path = sim.addPath(loop, true);
  Behavior wander;
  wander.behaviors = {
      {BehaviorKind::Goal, 1.0f}, {BehaviorKind::Wander, 0.5f}, {BehaviorKind::Separation, 0.3f}};
  Behavior pursue = behaviorOf({BehaviorKind::Pursue, BehaviorKind::AvoidObstacles});
  Behavior follow = behaviorOf({BehaviorKind::FollowPath, BehaviorKind::Wander});
  follow.path = path;
  std::vector<AgentId> ids;
  for (int i = 0; i < 400; ++i) {
    // A fixed even scatter (the R2 low-discrepancy sequence), goals mirrored through the centre.
    const double u = std::fmod(0.5 + 0.7548776662 * i, 1.0);
    const double v = std::fmod(0.5 + 0.5698402910 * i, 1.0);
    AgentDef def;
    def.position = Vec2(static_cast<float>(60.0 * u - 30.0), static_cast<float>(60.0 * v - 30.0));
    def.goal = -def.position;
    def.params.radius = 0.4f;
    def.params.neighborDist = 6.0f;
    switch (i % 4) {
      case 0:
        break;
      case 1:
        def.behavior = wander;
        break;
      case 2:
        def.behavior = pursue;
        def.target = ids[static_cast<std::size_t>(i - 1)];
        break;
      default:
        def.behavior = follow;
        break;
    }
    ids.push_back(sim.addAgent(def));
  }
  for (int s = 0; s < steps; ++s) sim.step();
  return sim.stateHash();
}

TEST(SteeringBehaviors, SameStateForOneTwoAndFourThreadsWithWanderOn) {
  const std::uint64_t one = mixedCrowdHash(1, 3, 60);
  EXPECT_EQ(mixedCrowdHash(2, 3, 60), one);
  EXPECT_EQ(mixedCrowdHash(4, 3, 60), one);
  EXPECT_EQ(mixedCrowdHash(4, 3, 60), one) << "second run";
  // Wander draws from the seed: another seed, another state, even with no deadlock jitter.
  EXPECT_NE(mixedCrowdHash(2, 4, 60, true), mixedCrowdHash(2, 3, 60, true));
}

// --- the API between steps ----------------------------------------------------------------------

TEST(SteeringBehaviors, SetBehaviorBetweenStepsTakesEffectAtTheNextStep) {
  SimulatorConfig config = configWith(0.25f);
  config.exactRvo2 = true;  // No deadlock jitter: a lone agent's ORCA velocity is its preference.
  Simulator sim(config);
  AgentDef def;
  def.goal = Vec2(10, 0);
  const AgentId id = sim.addAgent(def);
  sim.step();
  ASSERT_EQ(sim.velocity(id), Vec2(1, 0));  // RVO2's rule: prefSpeed 1 towards the goal.

  // Flee the goal, no ORCA: desired (-1, 0), force (-2, 0), gain 0.25: (1, 0) - (0.5, 0).
  Behavior flee = behaviorOf({BehaviorKind::Flee});
  flee.avoidance = AvoidanceMode::None;
  sim.setBehavior(id, flee);
  EXPECT_EQ(sim.behavior(id), flee);
  sim.step();
  EXPECT_EQ(sim.velocity(id), Vec2(0.5f, 0));
  sim.step();
  EXPECT_EQ(sim.velocity(id), Vec2(0.125f, 0));  // (0.5, 0) + ((-1, 0) - (0.5, 0)) * 0.25.

  // Back to the default: the goal rule at once, no integration.
  sim.setBehavior(id, Behavior{});
  sim.step();
  EXPECT_NEAR(sim.velocity(id).x, 1.0f, 1e-6f);
  EXPECT_EQ(sim.velocity(id).y, 0.0f);
}

TEST(SteeringBehaviors, WithoutAvoidanceTheVelocityIsTheSteeredVelocity) {
  // Two agents 3 apart, each seeking a goal behind the other: head on. With ORCA they swerve;
  // without it each takes exactly seek's velocity: from rest, 1 - 0.75^n of prefSpeed after n
  // steps (each step closes a quarter of the gap to the desired velocity).
  for (const AvoidanceMode mode : {AvoidanceMode::None, AvoidanceMode::Orca}) {
    Simulator sim(configWith(0.25f));
    Behavior seek = behaviorOf({BehaviorKind::Seek});
    seek.avoidance = mode;
    AgentDef west;
    west.position = Vec2(-1.5f, 0);
    west.params.radius = 0.5f;
    west.goal = Vec2(20, 0.1f);
    west.behavior = seek;
    AgentDef east = west;
    east.position = Vec2(1.5f, 0);
    east.goal = Vec2(-20, -0.1f);
    const AgentId a = sim.addAgent(west);
    const AgentId b = sim.addAgent(east);
    float swerve = 0.0f;  // Largest |velocity - steered velocity|.
    for (int s = 0; s < 4; ++s) {
      sim.step();
      swerve = std::fmax(swerve, length(sim.velocity(a) - sim.prefVelocity(a)));
      swerve = std::fmax(swerve, length(sim.velocity(b) - sim.prefVelocity(b)));
    }
    if (mode == AvoidanceMode::None) {
      EXPECT_EQ(swerve, 0.0f);
      const Vec2 dir = normalize(Vec2(21.5f, 0.1f));
      EXPECT_LT(length(sim.velocity(a) - dir * (1.0f - 0.75f * 0.75f * 0.75f * 0.75f)), 1e-5f);
    } else {
      EXPECT_GT(swerve, 1e-2f);
    }
  }
}

TEST(SteeringBehaviors, LightArriverStopsOnItsGoalWithoutPassingIt) {
  // Mass 0.01 and a slowing radius of 0.01 at dt 0.25: each step's gain is capped at 1, so the
  // step's own critical radius 4 * 0.25 * 1 applies; without it the agent would swing round its
  // goal for ever.
  Simulator sim(configWith(0.25f));
  AgentDef def;
  def.position = Vec2(0, 0);
  def.goal = Vec2(10.3f, 0);
  def.behavior = behaviorOf({BehaviorKind::Arrive});
  def.behavior.mass = 0.01f;
  def.behavior.slowingRadius = 0.01f;
  const AgentId id = sim.addAgent(def);
  float farthest = -INFINITY;
  for (int s = 0; s < 200; ++s) {
    sim.step();
    farthest = std::fmax(farthest, sim.position(id).x);
  }
  EXPECT_LE(farthest, 10.3f);
  EXPECT_LT(length(sim.position(id) - Vec2(10.3f, 0)), 1e-3f);
  EXPECT_LT(length(sim.velocity(id)), 1e-3f);
}

// Agents of one profile (Behavior::path = kOwnRoute) follow each their own route: two agents
// with mirrored routes end at mirrored points; one without a route gets no path force.
TEST(SteeringRoutes, AgentsOfOneProfileFollowTheirOwnRoutes) {
  SimulatorConfig config;
  config.timeStep = 0.1f;
  Simulator sim(config);
  Behavior follow;
  follow.behaviors = {WeightedBehavior{BehaviorKind::FollowPath, 1.0f}};
  follow.path = kOwnRoute;
  AgentDef def;
  def.params.radius = 0.5f;
  def.behavior = follow;
  def.position = Vec2(0.0f, 10.0f);
  const AgentId north = sim.addAgent(def);
  def.position = Vec2(0.0f, -10.0f);
  const AgentId south = sim.addAgent(def);
  def.position = Vec2(-30.0f, 0.0f);
  const AgentId idle = sim.addAgent(def);
  const std::vector<Vec2> up{{0, 10}, {10, 10}, {10, 20}};
  const std::vector<Vec2> down{{0, -10}, {10, -10}, {10, -20}};
  sim.setRoute(north, sim.addPath(up, false));
  sim.setRoute(south, sim.addPath(down, false));
  EXPECT_EQ(sim.route(idle), -1);
  EXPECT_THROW(sim.setRoute(idle, 7), std::invalid_argument);
  EXPECT_EQ(sim.profileCount(), 1u);
  for (int s = 0; s < 600; ++s) sim.step();
  // Each arrives at the end of its own route (open paths end with arrive).
  EXPECT_LT(length(sim.position(north) - Vec2(10, 20)), 0.2f);
  EXPECT_LT(length(sim.position(south) - Vec2(10, -20)), 0.2f);
  EXPECT_EQ(sim.position(idle), Vec2(-30.0f, 0.0f));
  // A new route takes over between steps.
  sim.setRoute(north, 1);
  for (int s = 0; s < 900; ++s) sim.step();
  EXPECT_LT(length(sim.position(north) - Vec2(10, -20)), 1.2f);  // Beside the south agent there.
}

}  // namespace
}  // namespace crowd
