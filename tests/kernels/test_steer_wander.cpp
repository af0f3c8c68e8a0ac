// Unit tests for crowd/kernels/steer_wander.hpp: the rational rotation, the agent frame, and the
// wander direction, which must stay a unit vector, turn by no more than jitter * dt per step and
// depend only on (seed, agent, step), so that any thread count and either backend agree.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "crowd/kernels/steer_wander.hpp"

namespace {

using crowd::Vec2;

TEST(KernelSteerWander, HalfTangentRotationTurnsByTwiceTheArctangent) {
  // t = 1: a quarter turn counter-clockwise (cos = 0, sin = 1), exactly.
  EXPECT_EQ(crowd::rotateByHalfTangent(Vec2(1.0f, 0.0f), 1.0f), Vec2(0.0f, 1.0f));
  EXPECT_EQ(crowd::rotateByHalfTangent(Vec2(0.0f, 2.0f), 1.0f), Vec2(-2.0f, 0.0f));
  // t = -1: a quarter turn clockwise; t = 0: no turn.
  EXPECT_EQ(crowd::rotateByHalfTangent(Vec2(1.0f, 0.0f), -1.0f), Vec2(0.0f, -1.0f));
  EXPECT_EQ(crowd::rotateByHalfTangent(Vec2(0.6f, 0.8f), 0.0f), Vec2(0.6f, 0.8f));
  // t = tan(pi / 8): 45 degrees.
  const Vec2 r =
      crowd::rotateByHalfTangent(Vec2(1.0f, 0.0f), static_cast<float>(std::tan(std::numbers::pi / 8.0)));
  EXPECT_NEAR(r.x, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(r.y, std::sqrt(0.5f), 1e-6f);
}

TEST(KernelSteerWander, AgentFrameHasXAheadAndYToTheLeft) {
  // Heading north: ahead is north, left is west.
  EXPECT_EQ(crowd::toWorld(Vec2(1.0f, 0.0f), Vec2(0.0f, 1.0f)), Vec2(0.0f, 1.0f));
  EXPECT_EQ(crowd::toWorld(Vec2(0.0f, 1.0f), Vec2(0.0f, 1.0f)), Vec2(-1.0f, 0.0f));
  // Heading east is the world frame itself.
  EXPECT_EQ(crowd::toWorld(Vec2(2.0f, -3.0f), Vec2(1.0f, 0.0f)), Vec2(2.0f, -3.0f));
}

TEST(KernelSteerWander, HeadingIsTheDirectionOfMotionOrAUnitVectorFromTheId) {
  EXPECT_EQ(crowd::headingOf(Vec2(3.0f, 4.0f), 1, 7), Vec2(0.6f, 0.8f));
  // At rest: a unit vector that depends on the seed and the agent only.
  for (std::uint32_t id = 0; id < 50; ++id) {
    const Vec2 h = crowd::headingOf(Vec2(0.0f, 0.0f), 99, id);
    EXPECT_NEAR(crowd::length(h), 1.0f, 1e-6f) << id;
    EXPECT_EQ(crowd::headingOf(Vec2(0.0f, 0.0f), 99, id), h) << id;
  }
  EXPECT_NE(crowd::headingOf(Vec2(0.0f, 0.0f), 99, 1), crowd::headingOf(Vec2(0.0f, 0.0f), 99, 2));
}

TEST(KernelSteerWander, DirectionStaysOnTheUnitCircleAndTurnsAtMostJitterTimesDt) {
  const float jitter = 2.0f;
  const float dt = 0.25f;
  for (std::uint32_t id = 0; id < 8; ++id) {
    Vec2 w(0.0f, 0.0f);  // Before the first step: straight ahead.
    float travelled = 0.0f;
    for (std::int64_t step = 1; step <= 5000; ++step) {
      const Vec2 next = crowd::jitterWander(w, jitter, dt, 42, id, step);
      ASSERT_NEAR(crowd::length(next), 1.0f, 2e-7f) << "agent " << id << " step " << step;
      const Vec2 from = crowd::absSq(w) > 0.0f ? w : Vec2(1.0f, 0.0f);
      // The turn is 2 atan(turn / 2) <= |turn| <= jitter * dt radians (a hair for rounding).
      const float angle = std::atan2(crowd::det(from, next), crowd::dot(from, next));
      ASSERT_LE(std::fabs(angle), jitter * dt + 1e-5f) << "agent " << id << " step " << step;
      travelled += std::fabs(angle);
      w = next;
    }
    // It does turn: over 5,000 steps a mean |turn| near jitter * dt / 2 adds up to > 1000 rad.
    EXPECT_GT(travelled, 1000.0f) << id;
  }
}

TEST(KernelSteerWander, DirectionDependsOnlyOnSeedAgentAndStep) {
  const Vec2 start(0.6f, 0.8f);
  const Vec2 a = crowd::jitterWander(start, 2.0f, 0.25f, 5, 3, 17);
  EXPECT_EQ(crowd::jitterWander(start, 2.0f, 0.25f, 5, 3, 17), a);
  EXPECT_NE(crowd::jitterWander(start, 2.0f, 0.25f, 5, 3, 18), a);  // Another step,
  EXPECT_NE(crowd::jitterWander(start, 2.0f, 0.25f, 5, 4, 17), a);  // another agent,
  EXPECT_NE(crowd::jitterWander(start, 2.0f, 0.25f, 6, 3, 17), a);  // another seed.
  // No jitter, no turn.
  const Vec2 still = crowd::jitterWander(start, 0.0f, 0.25f, 5, 3, 17);
  EXPECT_FLOAT_EQ(still.x, 0.6f);
  EXPECT_FLOAT_EQ(still.y, 0.8f);
}

TEST(KernelSteerWander, ForceSeeksThePointOnTheCircleAhead) {
  // Heading east at rest at (1, 1); the circle of radius 1 sits 3 ahead; the direction points
  // left (north): the wander target is (4, 2), an offset of (3, 1).
  const Vec2 f = crowd::wanderForce(Vec2(1.0f, 1.0f), Vec2(0.0f, 0.0f), Vec2(1.0f, 0.0f), Vec2(0.0f, 1.0f),
                                    1.0f, 3.0f, std::sqrt(10.0f));
  EXPECT_FLOAT_EQ(f.x, 3.0f);
  EXPECT_FLOAT_EQ(f.y, 1.0f);
  // Heading north, direction straight ahead: the target is 3 + 1 = 4 north, and moving north at
  // speed 2 already, the force is zero.
  const Vec2 g = crowd::wanderForce(Vec2(0.0f, 0.0f), Vec2(0.0f, 2.0f), Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f),
                                    1.0f, 3.0f, 2.0f);
  EXPECT_EQ(g, Vec2(0.0f, 0.0f));
}

}  // namespace
