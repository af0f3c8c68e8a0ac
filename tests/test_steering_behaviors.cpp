// Steering behaviours through the Simulator: pursuit rules compared by capture time against the
// closed-form figures of pursuit geometry, path followers going round a loop and stopping at an
// open path's end, detection-box agents crossing a forest of posts, the default goal rule
// unchanged to the bit, determinism across thread counts with wander on, and the API's edges
// (a removed target, a behaviour changed between steps, avoidance off).
#include <gtest/gtest.h>

#include <cmath>
#include <crowd/metrics.hpp>
#include <crowd/simulator.hpp>
#include <cstdio>
#include <numbers>
#include <optional>
#include <vector>

namespace crowd {
namespace {

Behavior behaviorOf(std::initializer_list<BehaviorKind> kinds) {
  Behavior b;
  b.behaviors.clear();
  for (const BehaviorKind kind : kinds) b.behaviors.push_back(WeightedBehavior{kind, 1.0f});
  return b;
}

SimulatorConfig configWith(float timeStep, int threads = 2) {
  SimulatorConfig config;
  config.timeStep = timeStep;
  config.threads = threads;
  return config;
}

// --- pursuit ------------------------------------------------------------------------------------

struct Chase {
  double captureTime = -1;    ///< Seconds until the pair first came within the sum of radii; -1: never.
  double closest = INFINITY;  ///< Smallest distance between them.
};

// A target at `targetStart` moving at constant `targetVelocity` (no avoidance: nothing deflects
// it) and a pursuer at the origin, at rest, with maxSpeed `pursuerSpeed` and pursuit rule `rule`.
// Both have radius 0.5, so a capture is a distance of 1 or less. A pursuer of mass dt takes the
// velocity its rule desires at once (gain dt / mass = 1), which is what pursuit geometry assumes;
// the default mass 1 closes a fraction dt of the gap to it per step.
constexpr float kChaseStep = 0.05f;

Chase runChase(PursuitKind rule, Vec2 targetStart, Vec2 targetVelocity, float pursuerSpeed, double seconds,
               float mass = kChaseStep) {
  const float dt = kChaseStep;
  Simulator sim(configWith(dt, 1));
  AgentDef target;
  target.position = targetStart;
  target.velocity = targetVelocity;
  target.prefVelocity = targetVelocity;
  target.params.radius = 0.5f;
  target.params.maxSpeed = length(targetVelocity);
  target.behavior.avoidance = AvoidanceMode::None;
  const AgentId t = sim.addAgent(target);
  AgentDef pursuer;
  pursuer.params.radius = 0.5f;
  pursuer.params.maxSpeed = pursuerSpeed;
  pursuer.params.prefSpeed = pursuerSpeed;
  pursuer.behavior = behaviorOf({BehaviorKind::Pursue});
  pursuer.behavior.pursuit = rule;
  pursuer.behavior.avoidance = AvoidanceMode::None;
  pursuer.behavior.mass = mass;
  pursuer.behavior.maxForce = 20.0f;  // Above any desired change (2 * maxSpeed): never truncated.
  pursuer.target = t;
  const AgentId p = sim.addAgent(pursuer);
  Chase chase;
  for (int s = 0; s < static_cast<int>(seconds / dt); ++s) {
    sim.step();
    EXPECT_NEAR(length(sim.velocity(t) - targetVelocity), 0.0f, 1e-6f);  // The target never swerves.
    const double d = length(sim.position(p) - sim.position(t));
    chase.closest = std::fmin(chase.closest, d);
    if (d <= 1.0) {
      chase.captureTime = sim.time();
      break;
    }
  }
  return chase;
}

// The earliest time anything starting at the origin with speed vP can be within 1 of a target
// at p0 + vT t (bisection on the first root of |p0 + vT t| - 1 - vP t).
double earliestCapture(Vec2 p0, Vec2 vT, double vP) {
  auto gap = [&](double t) { return std::hypot(p0.x + vT.x * t, p0.y + vT.y * t) - 1.0 - vP * t; };
  double lo = 0;
  double hi = 0;
  while (gap(hi) > 0) hi += 0.01;
  lo = hi - 0.01;
  for (int i = 0; i < 60; ++i) (gap(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
  return hi;
}

TEST(SteeringBehaviors, InterceptCatchesAConstantVelocityTargetSoonerThanLineOfSight) {
  // The target starts 20 east and runs north at vT = 1.5; the pursuer runs at vP = 2.
  // Line of sight is pure pursuit: with range r and angle th between the target's velocity and
  // the line of sight, r (vP + vT cos th) falls at the constant rate vP^2 - vT^2, and th is
  // nearly 0 at the end (a tail chase), so reaching range 1 takes
  // (20 * (2 + 0) - 1 * (2 + 1.5)) / (4 - 2.25) = 20.86 s.
  // The best any pursuer can do at speed 2 is the first t with |(20, 1.5 t)| - 1 = 2 t.
  const Vec2 start(20, 0);
  const Vec2 velocity(0, 1.5f);
  const Chase intercept = runChase(PursuitKind::Intercept, start, velocity, 2.0f, 60);
  const Chase sight = runChase(PursuitKind::Sight, start, velocity, 2.0f, 60);
  const double best = earliestCapture(start, velocity, 2.0);
  const double pure = (20.0 * 2.0 - 1.0 * 3.5) / (4.0 - 2.25);
  std::printf(
      "[ pursuit ] capture: intercept %.2f s, line of sight %.2f s (pure pursuit %.2f s, best %.2f s)\n",
      intercept.captureTime, sight.captureTime, pure, best);
  ASSERT_GT(intercept.captureTime, 0);
  ASSERT_GT(sight.captureTime, 0);
  EXPECT_GE(intercept.captureTime, best - kChaseStep);  // Nobody beats geometry.
  EXPECT_LE(intercept.captureTime, best + 1.0);         // Intercept stays close to the best course.
  EXPECT_NEAR(sight.captureTime, pure, 0.25);
  EXPECT_LT(intercept.captureTime, 0.8 * sight.captureTime);

  // With the default mass (1) both lag behind their rule's velocity; intercept still wins clearly.
  const Chase heavyIntercept = runChase(PursuitKind::Intercept, start, velocity, 2.0f, 60, 1.0f);
  const Chase heavySight = runChase(PursuitKind::Sight, start, velocity, 2.0f, 60, 1.0f);
  std::printf("[ pursuit ] mass 1: intercept %.2f s, line of sight %.2f s\n", heavyIntercept.captureTime,
              heavySight.captureTime);
  ASSERT_GT(heavyIntercept.captureTime, 0);
  ASSERT_GT(heavySight.captureTime, 0);
  EXPECT_LT(heavyIntercept.captureTime, 0.8 * heavySight.captureTime);
}

TEST(SteeringBehaviors, SlowerInterceptorCatchesWhatASlowerLineOfSightChaserNeverDoes) {
  // The target runs east at 2 along y = 10 from x = -20; the pursuers run at only 1.5. A collision
  // course exists: the first t with |(-20 + 2 t, 10)| = 1.5 t is 7.5 s (meeting near (-5, 10)).
  // Pure pursuit is always aimed behind a crossing target, and once it is behind a faster
  // target it falls back for good.
  const Vec2 start(-20, 10);
  const Vec2 velocity(2, 0);
  for (const float mass : {kChaseStep, 1.0f}) {
    const Chase intercept = runChase(PursuitKind::Intercept, start, velocity, 1.5f, 60, mass);
    const Chase sight = runChase(PursuitKind::Sight, start, velocity, 1.5f, 60, mass);
    std::printf(
        "[ pursuit ] slower pursuer, mass %g: intercept caught at %.2f s (best %.2f s); line of sight "
        "never, closest %.2f\n",
        mass, intercept.captureTime, earliestCapture(start, velocity, 1.5), sight.closest);
    EXPECT_GT(intercept.captureTime, 0) << "mass " << mass;
    EXPECT_LT(intercept.captureTime, 12.0) << "mass " << mass;
    EXPECT_LT(sight.captureTime, 0) << "mass " << mass;
    EXPECT_GT(sight.closest, 2.0) << "mass "
                                  << mass;  // Not a near miss: never within twice the capture distance.
  }
}

TEST(SteeringBehaviors, RemovedTargetLeavesNoPursuitForce) {
  Simulator sim(configWith(0.25f));
  AgentDef runner;
  runner.position = Vec2(10, 0);
  runner.prefVelocity = Vec2(0, 1);
  const AgentId target = sim.addAgent(runner);
  AgentDef hunter;
  hunter.behavior = behaviorOf({BehaviorKind::Pursue});
  hunter.behavior.avoidance = AvoidanceMode::None;
  hunter.target = target;
  const AgentId pursuer = sim.addAgent(hunter);
  for (int s = 0; s < 4; ++s) sim.step();
  ASSERT_GT(sim.velocity(pursuer).x, 0.5f);  // It was pursuing.
  ASSERT_EQ(sim.target(pursuer), std::optional<AgentId>(target));

  ASSERT_TRUE(sim.removeAgent(target));
  EXPECT_FALSE(sim.target(pursuer).has_value());
  // Pursuit is its only behaviour: without a target there is no force and it coasts (to the
  // rounding of re-clipping a velocity at maxSpeed).
  const Vec2 coasting = sim.velocity(pursuer);
  sim.step();
  EXPECT_LT(length(sim.velocity(pursuer) - coasting), 1e-6f);
  // A new agent that reuses the target's slot (a new generation) is not the old target.
  AgentDef newcomer;
  newcomer.position = Vec2(0, -10);
  const AgentId other = sim.addAgent(newcomer);
  ASSERT_EQ(other.index, target.index);
  sim.step();
  EXPECT_LT(length(sim.velocity(pursuer) - coasting), 1e-6f);
  EXPECT_FALSE(sim.target(pursuer).has_value());
}

// --- paths --------------------------------------------------------------------------------------

double distanceToPath(std::span<const Vec2> points, bool loop, Vec2 p) {
  double best = INFINITY;
  const std::size_t n = points.size();
  for (std::size_t i = 0; i + (loop ? 0 : 1) < n; ++i) {
    best = std::fmin(best, std::sqrt(distSqPointSegment(points[i], points[(i + 1) % n], p)));
  }
  return best;
}

TEST(SteeringBehaviors, PathFollowersSettleWithinThePathRadiusAndKeepGoingRound) {
  // A 30 x 30 square loop, counter-clockwise round the origin; six followers start up to 5 off
  // it, at rest, spread along it. prefSpeed 1.5: a lap (120) takes 80 s.
  Simulator sim(configWith(0.25f));
  const std::vector<Vec2> square{{-15, -15}, {15, -15}, {15, 15}, {-15, 15}};
  const int path = sim.addPath(square, true);
  Behavior follow = behaviorOf({BehaviorKind::FollowPath});
  follow.path = path;
  std::vector<AgentId> ids;
  const std::vector<Vec2> starts{{0, -20}, {20, 0}, {0, 12}, {-18, 3}, {12, -15}, {-15, -10}};
  for (const Vec2 start : starts) {
    AgentDef def;
    def.position = start;
    def.params.radius = 0.5f;
    def.params.prefSpeed = 1.5f;
    def.behavior = follow;
    ids.push_back(sim.addAgent(def));
  }
  std::vector<double> winding(ids.size(), 0.0);
  double worstAfterSettling = 0;
  const int settleSteps = 80;      // 20 s.
  for (int s = 0; s < 480; ++s) {  // 120 s: one and a half laps at full speed.
    std::vector<Vec2> before;
    for (const AgentId id : ids) before.push_back(sim.position(id));
    sim.step();
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const Vec2 p = sim.position(ids[i]);
      const double turn = std::atan2(det(before[i], p), dot(before[i], p));  // Round the centre.
      winding[i] += turn;
      if (s >= settleSteps) {
        worstAfterSettling = std::fmax(worstAfterSettling, distanceToPath(square, true, p));
        EXPECT_GT(turn, 0.0) << "follower " << i << " went backwards at step " << s + 1;
      }
    }
  }
  double fewestLaps = INFINITY;
  for (const double w : winding) fewestLaps = std::fmin(fewestLaps, w / (2.0 * std::numbers::pi));
  std::printf("[ path ] farthest from the loop after 20 s: %.3f (radius 2); fewest laps in 120 s: %.2f\n",
              worstAfterSettling, fewestLaps);
  EXPECT_LE(worstAfterSettling, 2.0);
  EXPECT_GT(fewestLaps, 1.2);
}

TEST(SteeringBehaviors, OpenPathFollowerArrivesAtTheLastPointWithoutPassingIt) {
  Simulator sim(configWith(0.25f));
  const std::vector<Vec2> points{{0, 0}, {20, 0}, {20, 15}};
  Behavior follow = behaviorOf({BehaviorKind::FollowPath});
  follow.path = sim.addPath(points, false);
  AgentDef def;
  def.position = Vec2(-2, -1);
  def.params.radius = 0.5f;
  def.behavior = follow;
  const AgentId id = sim.addAgent(def);
  float highest = -INFINITY;
  for (int s = 0; s < 400; ++s) {  // 100 s for a 35 long path at speed 1.
    sim.step();
    highest = std::fmax(highest, sim.position(id).y);
  }
  EXPECT_LT(length(sim.position(id) - Vec2(20, 15)), 0.01f);
  EXPECT_LT(length(sim.velocity(id)), 0.01f);
  EXPECT_LE(highest, 15.0f);  // Arrive: it never ran past the end.
}

// --- obstacles ----------------------------------------------------------------------------------

TEST(SteeringBehaviors, DetectionBoxAgentsCrossTheForestWithoutTouchingAPost) {
  // Posts of radius 1 every 6 in a 30 x 30 square, rows offset by half a spacing; eight agents
  // cross it west to east, steered only by seek and the detection box (no ORCA). The box's
  // lateral push fades to nothing at the edge of its strip, so seek's pull towards a goal lane
  // that runs past a post holds an agent inside it by about pull / avoid weight: avoidance is
  // weighed 10 to seek's 1 (at weight 1 agents graze posts by 8% of their radius). A short box
  // (4 at rest) keeps agents from swerving for posts well ahead.
  Simulator sim(configWith(0.25f));
  std::vector<Vec2> posts;
  for (int row = 0; row < 6; ++row) {
    for (int column = 0; column < 6; ++column) {
      posts.emplace_back(-15.0f + 6.0f * static_cast<float>(column) + (row % 2 != 0 ? 3.0f : 0.0f),
                         -15.0f + 6.0f * static_cast<float>(row));
    }
  }
  for (const Vec2 post : posts) sim.addCircle(post, 1.0f);
  Behavior crosser = behaviorOf({BehaviorKind::Seek, BehaviorKind::AvoidObstacles});
  crosser.behaviors[1].weight = 10.0f;
  crosser.boxLength = 4.0f;
  crosser.avoidance = AvoidanceMode::None;
  std::vector<AgentId> ids;
  for (int i = 0; i < 8; ++i) {
    AgentDef def;
    const float y = -14.0f + 4.0f * static_cast<float>(i);
    def.position = Vec2(-25, y);
    def.goal = Vec2(25, y);
    def.params.radius = 0.4f;
    def.params.prefSpeed = 1.0f;
    def.params.goalRadius = 1.0f;
    def.behavior = crosser;
    ids.push_back(sim.addAgent(def));
  }
  std::int64_t touches = 0;        // Agent-steps inside a post's disc (the detection box sees discs).
  std::int64_t penetrations = 0;   // measureContacts: of the 16-gon around each post, which ORCA uses.
  double closestRatio = INFINITY;  // Distance to a post's edge over the agent's radius.
  for (int s = 0; s < 400 && sim.arrivedCount() < ids.size(); ++s) {
    sim.step();
    for (const AgentId id : ids) {
      for (const Vec2 post : posts) {
        const double gap = length(sim.position(id) - post) - 1.0;
        closestRatio = std::fmin(closestRatio, gap / 0.4);
        touches += gap < 0.99 * 0.4 ? 1 : 0;  // measureContacts' rule: within 99% of the radius.
      }
    }
    const std::vector<float> radii = sim.radii();
    penetrations += measureContacts(sim.positions(), radii, sim.obstacles(), 1).penetrations;
  }
  std::printf(
      "[ forest ] %zu of %zu crossed in %.1f s; closest pass %.2f radii from a post; "
      "%lld penetrations\n",
      sim.arrivedCount(), ids.size(), sim.time(), closestRatio, static_cast<long long>(penetrations));
  EXPECT_EQ(sim.arrivedCount(), ids.size());
  EXPECT_EQ(touches, 0);
  EXPECT_EQ(penetrations, 0);
}

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

}  // namespace
}  // namespace crowd

namespace crowd {
namespace {

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
