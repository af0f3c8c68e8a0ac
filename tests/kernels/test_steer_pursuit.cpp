// Unit tests for crowd/kernels/steer_pursuit.hpp against the classic game-AI rules: chase moves
// each coordinate towards the target's (diagonally, then along one axis), line of sight heads
// straight at the target, intercept heads for the target's position after the closing time
// tc = |pT - pP| / |vT - vP|, and evasion flees that same point. Expectations are hand-worked.
#include <cmath>

#include <gtest/gtest.h>

#include "crowd/kernels/steer_pursuit.hpp"
#include "vec_near.hpp"

namespace {

using crowd::Vec2;

using crowd::test::near;

TEST(KernelSteerPursuit, SightHeadsStraightAtTheTargetAtFullSpeed) {
  EXPECT_EQ(crowd::sightVelocity(Vec2(1, 1), Vec2(4, 5), 2.5f), Vec2(1.5f, 2.0f));
  // Whatever the target's motion: sight only sees where it is.
  EXPECT_EQ(crowd::pursuitVelocity(crowd::PursuitKind::Sight, Vec2(1, 1), Vec2(0, 0), Vec2(4, 5), Vec2(9, -9),
                                   2.5f, 4.0f),
            Vec2(1.5f, 2.0f));
}

TEST(KernelSteerPursuit, ChaseMovesDiagonallyAndLandsOnACoordinateWithinAStep) {
  // Both coordinates far: each axis at maxSpeed, the whole clipped to maxSpeed: 45 degrees.
  const Vec2 diagonal = crowd::chaseVelocity(Vec2(0, 0), Vec2(10, 4), 1.0f, 4.0f);
  EXPECT_EQ(diagonal.x, diagonal.y);
  EXPECT_NEAR(crowd::length(diagonal), 1.0f, 1e-6f);
  // Towards negative coordinates too.
  const Vec2 back = crowd::chaseVelocity(Vec2(0, 0), Vec2(-10, -4), 1.0f, 4.0f);
  EXPECT_EQ(back, -diagonal);
  // One coordinate matched: straight along the other axis at maxSpeed.
  EXPECT_EQ(crowd::chaseVelocity(Vec2(0, 4), Vec2(10, 4), 1.0f, 4.0f), Vec2(1, 0));
  // Within a step (0.1 away at dt 0.25, maxSpeed 1): 0.4 per second lands on it in one step.
  EXPECT_TRUE(near(crowd::chaseVelocity(Vec2(10, 3.9f), Vec2(10, 4), 1.0f, 4.0f), Vec2(0, 0.4f), 1e-5f));
}

TEST(KernelSteerPursuit, ChaseRunsDiagonallyThenAlongOneAxis) {
  // From (0, 0) towards a target fixed at (10, 4), moving as the velocities say (dt 0.25,
  // maxSpeed 1): diagonal while y is more than a step short, then along x until x arrives.
  const float dt = 0.25f;
  Vec2 p(0, 0);
  int diagonalSteps = 0;
  int axisSteps = 0;
  for (int s = 0; s < 80; ++s) {
    const Vec2 v = crowd::chaseVelocity(p, Vec2(10, 4), 1.0f, 1.0f / dt);
    if (4.0f - p.y > dt) {
      ASSERT_EQ(v.x, v.y) << "step " << s;  // Diagonal.
      ++diagonalSteps;
    } else if (4.0f - p.y < 1e-4f && 10.0f - p.x > dt) {
      ASSERT_NEAR(v.y, 0.0f, 1e-4f) << "step " << s;  // Along x, at full speed.
      ASSERT_NEAR(v.x, 1.0f, 1e-6f) << "step " << s;
      ++axisSteps;
    }
    p += v * dt;
  }
  // y is a step short after 22 diagonal steps (22 * 0.25 / sqrt(2) = 3.89 > 4 - 0.25); x is
  // then about 4 too, so about (10 - 4) / 0.25 = 24 steps remain along x.
  EXPECT_EQ(diagonalSteps, 22);
  EXPECT_GE(axisSteps, 20);
  EXPECT_TRUE(near(p, Vec2(10, 4), 1e-4f));
}

TEST(KernelSteerPursuit, ClosingTimeIsClosingDistanceOverClosingSpeed) {
  // Closing velocity vT - vP = (0, 1) - (1, 0) = (-1, 1), |Vr| = sqrt(2); |Sr| = 10.
  const float tc = crowd::closingTime(Vec2(0, 0), Vec2(1, 0), Vec2(10, 0), Vec2(0, 1), 2.0f);
  EXPECT_NEAR(tc, 10.0f / std::sqrt(2.0f), 1e-5f);
  // Same velocities: the closing speed is floored at maxSpeed / 10 = 0.2, so tc = 10 / 0.2.
  EXPECT_NEAR(crowd::closingTime(Vec2(0, 0), Vec2(1, 0), Vec2(10, 0), Vec2(1, 0), 2.0f), 50.0f, 1e-4f);
  // Nothing moves and nothing can: no prediction at all.
  EXPECT_EQ(crowd::closingTime(Vec2(0, 0), Vec2(0, 0), Vec2(10, 0), Vec2(0, 0), 0.0f), 0.0f);
}

TEST(KernelSteerPursuit, InterceptAimsWhereAFullSpeedPursuerMeetsTheTarget) {
  // The target at (10, 0) moving (0, 1), the pursuer at speed 2: they meet when
  // 100 + t^2 = 4 t^2, t = 10 / sqrt(3), at (10, 5.77), whatever the pursuer's velocity now.
  const Vec2 aim = crowd::interceptPoint(Vec2(0, 0), Vec2(1, 0), Vec2(10, 0), Vec2(0, 1), 2.0f);
  EXPECT_TRUE(near(aim, Vec2(10, 10.0f / std::sqrt(3.0f)), 1e-5f));
  EXPECT_NEAR(crowd::meetingTime(Vec2(0, 0), Vec2(10, 0), Vec2(0, 1), 2.0f), 10.0f / std::sqrt(3.0f), 1e-5f);
  // A pursuer that has passed its target (it is 1 ahead, twice as fast) aims back at the meeting
  // point just behind it, t = 1 / 3 (gap -1 + 1 t = -2 t), not ahead of it.
  const Vec2 back = crowd::interceptPoint(Vec2(1, 0), Vec2(2, 0), Vec2(0, 0), Vec2(1, 0), 2.0f);
  EXPECT_TRUE(near(back, Vec2(1.0f / 3.0f, 0), 1e-5f));
  // A slower pursuer behind a target running straight away can never meet it: then the
  // classic closing time, 10 / |(2, 0) - (0, 0)| = 5, ahead of the target.
  EXPECT_EQ(crowd::meetingTime(Vec2(0, 0), Vec2(10, 0), Vec2(2, 0), 1.0f), -1.0f);
  EXPECT_TRUE(
      near(crowd::interceptPoint(Vec2(0, 0), Vec2(0, 0), Vec2(10, 0), Vec2(2, 0), 1.0f), Vec2(20, 0), 1e-5f));
  // A target at rest is aimed at where it is: intercept is then line of sight.
  EXPECT_EQ(crowd::interceptPoint(Vec2(0, 0), Vec2(1, 0), Vec2(10, 3), Vec2(0, 0), 2.0f), Vec2(10, 3));
}

TEST(KernelSteerPursuit, OnACollisionCourseInterceptAimsAtTheMeetingPoint) {
  // The pursuer at (0, 0) moving (0, 1) and the target at (10, 10) moving (-1, 0) meet at (0, 10)
  // at t = 10: Sr = (10, 10) and Vr = (-1, -1) are opposite, so |Sr| / |Vr| is exactly the time
  // to meet, and the aim is the meeting point. The pursuer keeps its course.
  const Vec2 aim = crowd::interceptPoint(Vec2(0, 0), Vec2(0, 1), Vec2(10, 10), Vec2(-1, 0), 1.0f);
  EXPECT_TRUE(near(aim, Vec2(0, 10), 1e-5f));
  EXPECT_TRUE(
      near(crowd::interceptVelocity(Vec2(0, 0), Vec2(0, 1), Vec2(10, 10), Vec2(-1, 0), 1.0f), Vec2(0, 1)));
  // Line of sight would head at (10, 10) instead, off the collision course.
  EXPECT_TRUE(
      near(crowd::sightVelocity(Vec2(0, 0), Vec2(10, 10), 1.0f), Vec2(std::sqrt(0.5f), std::sqrt(0.5f))));
  // pursuitVelocity's default rule is intercept.
  EXPECT_TRUE(near(crowd::pursuitVelocity(crowd::PursuitKind::Intercept, Vec2(0, 0), Vec2(0, 1), Vec2(10, 10),
                                          Vec2(-1, 0), 1.0f, 4.0f),
                   Vec2(0, 1)));
}

TEST(KernelSteerPursuit, EvasionFleesThePursuersPredictedPosition) {
  // The evader at (0, 0), maxSpeed 3; the pursuer at (0, -10) moving (1, 1): the look-ahead is
  // 10 / (3 + sqrt(2)), the pursuer predicted at (T, -10 + T); flee straight away from it.
  const float lookAhead = 10.0f / (3.0f + std::sqrt(2.0f));
  const Vec2 threat(lookAhead, -10.0f + lookAhead);
  const Vec2 away = -threat * (3.0f / crowd::length(threat));
  EXPECT_TRUE(near(crowd::evadeVelocity(Vec2(0, 0), Vec2(0, -10), Vec2(1, 1), 3.0f), away, 1e-5f));
  // A pursuer at rest is fled directly.
  EXPECT_TRUE(near(crowd::evadeVelocity(Vec2(0, 0), Vec2(3, 4), Vec2(0, 0), 5.0f), Vec2(-3, -4)));
}

TEST(KernelSteerPursuit, AnEvaderKeepsFleeingAFasterPursuerFromBehind) {
  // The pursuer at (0, 0) at 2.2 closes on the evader at (10, 0), maxSpeed 2, at 0.2: after the
  // closing time (50 s) it would be predicted at x = 110, ahead of the evader, which would turn
  // round into it. The look-ahead, 10 / 4.2 s, puts it at x = 5.2, behind: run on along +x.
  EXPECT_TRUE(near(crowd::evadeVelocity(Vec2(10, 0), Vec2(0, 0), Vec2(2.2f, 0), 2.0f), Vec2(2, 0)));
  // Head-on, the prediction stops short of the evader whatever the speeds: flee straight back.
  EXPECT_TRUE(near(crowd::evadeVelocity(Vec2(0, 0), Vec2(10, 0), Vec2(-50, 0), 1.0f), Vec2(-1, 0)));
}

TEST(KernelSteerPursuit, MeetingTimeStaysExactWhenTheSpeedsAreNearlyEqual) {
  // The target at (20, 5) moving (-2, 0), the pursuer at speed 2: a = 0 and t = c / -b = 425 / 80.
  // One ulp either side of the target's speed the quadratic's textbook root lost every digit (8 and
  // 4); the meeting time must move by about nothing.
  const float exact = 425.0f / 80.0f;
  EXPECT_NEAR(crowd::meetingTime(Vec2(0, 0), Vec2(20, 5), Vec2(-2, 0), 2.0f), exact, 1e-5f);
  for (const float speed : {std::nextafter(2.0f, 0.0f), std::nextafter(2.0f, 4.0f)}) {
    EXPECT_NEAR(crowd::meetingTime(Vec2(0, 0), Vec2(20, 5), Vec2(-speed, 0), 2.0f), exact, 1e-3f) << speed;
  }
}

}  // namespace
