// Steering behaviours through the Simulator: pursuit rules compared by capture time against the
// closed-form figures of pursuit geometry, path followers going round a loop and stopping at an
// open path's end, detection-box agents crossing a forest of posts. (The default rule, thread
// counts and the API between steps: test_steering_api.cpp.)
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

}  // namespace
}  // namespace crowd
