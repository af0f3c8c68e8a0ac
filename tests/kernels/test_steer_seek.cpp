// Unit tests for crowd/kernels/steer_seek.hpp: seek, flee, arrive and the goal rule as forces
// (desired velocity minus current velocity), checked against hand-worked 3-4-5 geometry, and
// arrive integrated step by step: it must stop on its point without ever passing it.
#include <cmath>

#include <gtest/gtest.h>

#include "crowd/kernels/steer_seek.hpp"
#include "crowd/kernels/steering.hpp"
#include "vec_near.hpp"

namespace {

using crowd::Vec2;

using crowd::test::near;

TEST(KernelSteerSeek, TowardsScalesTheOffsetToTheSpeed) {
  EXPECT_EQ(crowd::towards(Vec2(3.0f, 4.0f), 10.0f), Vec2(6.0f, 8.0f));
  EXPECT_EQ(crowd::towards(Vec2(0.0f, -2.0f), 1.0f), Vec2(0.0f, -1.0f));
  // No offset, no direction: zero rather than a division by zero.
  EXPECT_EQ(crowd::towards(Vec2(0.0f, 0.0f), 5.0f), Vec2(0.0f, 0.0f));
}

TEST(KernelSteerSeek, SeekDesiresFullSpeedAtTheTarget) {
  // At rest: the force is the desired velocity, 5 units/s along (3, 4) / 5.
  EXPECT_EQ(crowd::seekForce(Vec2(1.0f, 1.0f), Vec2(0.0f, 0.0f), Vec2(4.0f, 5.0f), 5.0f), Vec2(3.0f, 4.0f));
  // Moving sideways at (1, 0) towards a target straight above at speed 2: desired (0, 2).
  EXPECT_EQ(crowd::seekForce(Vec2(0.0f, 0.0f), Vec2(1.0f, 0.0f), Vec2(0.0f, 10.0f), 2.0f), Vec2(-1.0f, 2.0f));
  // Full speed however close the target: seek does not slow down (that is arrive).
  EXPECT_EQ(crowd::seekForce(Vec2(0.0f, 0.0f), Vec2(0.0f, 0.0f), Vec2(0.01f, 0.0f), 2.0f), Vec2(2.0f, 0.0f));
  // Already at the desired velocity: no force.
  EXPECT_EQ(crowd::seekForce(Vec2(0.0f, 0.0f), Vec2(0.0f, 2.0f), Vec2(0.0f, 10.0f), 2.0f), Vec2(0.0f, 0.0f));
}

TEST(KernelSteerSeek, FleeDesiresFullSpeedAwayFromTheThreat) {
  EXPECT_EQ(crowd::fleeForce(Vec2(0.0f, 0.0f), Vec2(0.0f, 0.0f), Vec2(3.0f, 4.0f), 5.0f), Vec2(-3.0f, -4.0f));
  // Flee is seek's mirror: the same point, the opposite desired velocity.
  const Vec2 p(2.0f, -1.0f);
  const Vec2 threat(-4.0f, 7.0f);
  EXPECT_EQ(crowd::fleeForce(p, Vec2(0.0f, 0.0f), threat, 3.0f),
            -crowd::seekForce(p, Vec2(0.0f, 0.0f), threat, 3.0f));
  // Moving at (1, 0) with the threat straight below at speed 2: desired (0, 2).
  EXPECT_EQ(crowd::fleeForce(Vec2(0.0f, 0.0f), Vec2(1.0f, 0.0f), Vec2(0.0f, -3.0f), 2.0f), Vec2(-1.0f, 2.0f));
}

TEST(KernelSteerSeek, ArriveSlowsLinearlyInsideTheSlowingRadius) {
  // Outside the radius arrive is seek.
  EXPECT_EQ(crowd::arriveForce(Vec2(0.0f, 0.0f), Vec2(0.0f, 0.0f), Vec2(30.0f, 40.0f), 2.0f, 10.0f),
            crowd::seekForce(Vec2(0.0f, 0.0f), Vec2(0.0f, 0.0f), Vec2(30.0f, 40.0f), 2.0f));
  // A quarter of the radius away: a quarter of the speed, 0.5 along (3, 4) / 5.
  EXPECT_TRUE(near(crowd::arriveForce(Vec2(0.0f, 0.0f), Vec2(0.0f, 0.0f), Vec2(1.5f, 2.0f), 2.0f, 10.0f),
                   Vec2(0.3f, 0.4f)));
  // Moving at (1, 0), half the radius short of the target: desired 1 (half of 2), force 0.
  EXPECT_TRUE(near(crowd::arriveForce(Vec2(0.0f, 0.0f), Vec2(1.0f, 0.0f), Vec2(5.0f, 0.0f), 2.0f, 10.0f),
                   Vec2(0.0f, 0.0f)));
  // On the target: stop, whatever the velocity.
  EXPECT_EQ(crowd::arriveForce(Vec2(3.0f, 3.0f), Vec2(0.5f, -1.0f), Vec2(3.0f, 3.0f), 2.0f, 10.0f),
            Vec2(-0.5f, 1.0f));
}

TEST(KernelSteerSeek, ArriveSlowingRadiusIsRaisedToCriticalDamping) {
  // 4 * mass * speed: 4 * 1 * 2 = 8 > 5.
  EXPECT_EQ(crowd::arriveSlowingRadius(5.0f, 1.0f, 2.0f), 8.0f);
  // A larger radius is kept.
  EXPECT_EQ(crowd::arriveSlowingRadius(10.0f, 1.0f, 2.0f), 10.0f);
  EXPECT_EQ(crowd::arriveSlowingRadius(0.0f, 0.5f, 1.5f), 3.0f);
  // A step of timeStep with gain min(dt / mass, 1) behaves like a mass of max(mass, dt): in a
  // step of 0.25 s at speed 2 the radius is at least 4 * 0.25 * 2 = 2.
  EXPECT_EQ(crowd::arriveStepRadius(0.04f, 0.25f, 2.0f), 2.0f);
  EXPECT_EQ(crowd::arriveStepRadius(5.0f, 0.25f, 2.0f), 5.0f);
}

TEST(KernelSteerSeek, GoalRuleIsRvo2sPreferredVelocityAsAForce) {
  // Far: prefSpeed towards the goal (3-4-5).
  EXPECT_TRUE(
      near(crowd::goalForce(Vec2(0.0f, 0.0f), Vec2(0.0f, 0.0f), Vec2(30.0f, 40.0f), 1.0f), Vec2(0.6f, 0.8f)));
  // Within one second of travel: the offset itself (RVO2 slows onto the goal).
  EXPECT_TRUE(
      near(crowd::goalForce(Vec2(0.0f, 0.0f), Vec2(1.0f, 0.0f), Vec2(0.3f, 0.4f), 1.0f), Vec2(-0.7f, 0.4f)));
}

// Arrive, integrated as the steering phase does (integrateSteering, gain min(dt / mass, 1)) with
// the slowing radius the profile and the step give it, from rest 30.37 units away. Returns the
// largest distance the agent ever got past the point along its approach (0: never passed it),
// and leaves the final distance in `finalDistance`.
float arriveOvershoot(float mass, float timeStep, float speed, float slowingRadius, float maxForce,
                      float& finalDistance) {
  const Vec2 target(30.37f, 0.0f);  // Not a whole number of steps away.
  const float radius =
      crowd::arriveStepRadius(crowd::arriveSlowingRadius(slowingRadius, mass, speed), timeStep, speed);
  Vec2 p(0.0f, 0.0f);
  Vec2 v(0.0f, 0.0f);
  float overshoot = 0.0f;
  for (int s = 0; s < static_cast<int>(400.0f / timeStep); ++s) {
    const Vec2 force = crowd::arriveForce(p, v, target, speed, radius);
    v = crowd::integrateSteering(v, force, maxForce, 1.0f / mass, timeStep, 2.0f * speed);
    p += v * timeStep;
    overshoot = std::fmax(overshoot, p.x - target.x);
  }
  finalDistance = crowd::length(target - p);
  return overshoot;
}

TEST(KernelSteerSeek, ArriveStopsOnThePointWithoutOvershoot) {
  // The default behaviour (mass 1, slowing radius 5, maxForce 4) at prefSpeed 1 and 2, and
  // masses from light (a gain of 1 each step) to heavy, over the usual time steps. maxForce
  // stays above the largest force of a straight approach (the speed), so it never truncates.
  for (const float timeStep : {0.05f, 0.1f, 0.25f, 0.5f, 1.0f}) {
    for (const float mass : {1e-3f, 0.05f, 0.25f, 1.0f, 4.0f}) {
      for (const float speed : {1.0f, 2.0f}) {
        for (const float slowing : {0.0f, 5.0f}) {
          float finalDistance = 0.0f;
          const float overshoot = arriveOvershoot(mass, timeStep, speed, slowing, 4.0f, finalDistance);
          EXPECT_EQ(overshoot, 0.0f) << "dt " << timeStep << " mass " << mass << " speed " << speed
                                     << " slowingRadius " << slowing;
          EXPECT_LT(finalDistance, 1e-3f)
              << "dt " << timeStep << " mass " << mass << " speed " << speed << " slowingRadius " << slowing;
        }
      }
    }
  }
}

}  // namespace
