// Unit tests for crowd/kernels/vec2.hpp: the sign conventions every ORCA kernel relies on, and
// the rounding rules (division as multiplication by a reciprocal) that RVO2 agreement needs.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "crowd/kernels/vec2.hpp"

namespace {

using crowd::Vec2;

TEST(KernelVec2, DetIsPositiveWhenSecondIsCounterClockwiseOfFirst) {
  EXPECT_EQ(crowd::det(Vec2(1.0f, 0.0f), Vec2(0.0f, 1.0f)), 1.0f);
  EXPECT_EQ(crowd::det(Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f)), -1.0f);
  // A small counter-clockwise turn is still positive, a clockwise one negative.
  EXPECT_GT(crowd::det(Vec2(1.0f, 0.0f), Vec2(1.0f, 0.01f)), 0.0f);
  EXPECT_LT(crowd::det(Vec2(1.0f, 0.0f), Vec2(1.0f, -0.01f)), 0.0f);
  // Parallel and anti-parallel vectors span no area.
  EXPECT_EQ(crowd::det(Vec2(2.0f, 3.0f), Vec2(4.0f, 6.0f)), 0.0f);
  EXPECT_EQ(crowd::det(Vec2(2.0f, 3.0f), Vec2(-2.0f, -3.0f)), 0.0f);
  // Antisymmetry, and the signed parallelogram area: |a||b| sin(angle).
  const Vec2 a(3.0f, 1.0f);
  const Vec2 b(-1.0f, 2.0f);
  EXPECT_EQ(crowd::det(a, b), -crowd::det(b, a));
  EXPECT_EQ(crowd::det(a, b), 7.0f);
}

TEST(KernelVec2, DotAbsSqLengthSqr) {
  EXPECT_EQ(crowd::dot(Vec2(1.0f, 2.0f), Vec2(3.0f, -4.0f)), -5.0f);
  EXPECT_EQ(crowd::absSq(Vec2(3.0f, -4.0f)), 25.0f);
  EXPECT_EQ(crowd::length(Vec2(-3.0f, 4.0f)), 5.0f);
  EXPECT_EQ(crowd::sqr(-1.5f), 2.25f);
}

TEST(KernelVec2, PerpLeftRotatesCounterClockwise) {
  const Vec2 r = crowd::perpLeft(Vec2(1.0f, 0.0f));
  EXPECT_EQ(r.x, 0.0f);
  EXPECT_EQ(r.y, 1.0f);
  // A +90 degree rotation keeps the length, is orthogonal and lies counter-clockwise.
  const Vec2 v(2.0f, -3.0f);
  const Vec2 p = crowd::perpLeft(v);
  EXPECT_EQ(crowd::dot(v, p), 0.0f);
  EXPECT_EQ(crowd::absSq(p), crowd::absSq(v));
  EXPECT_GT(crowd::det(v, p), 0.0f);
}

TEST(KernelVec2, LeftOfSignFollowsTheDirectedLine) {
  const Vec2 a(1.0f, 1.0f);
  const Vec2 b(4.0f, 1.0f);  // Heading +x: "left" is +y.
  EXPECT_GT(crowd::leftOf(a, b, Vec2(2.0f, 3.0f)), 0.0f);
  EXPECT_LT(crowd::leftOf(a, b, Vec2(2.0f, -3.0f)), 0.0f);
  EXPECT_EQ(crowd::leftOf(a, b, Vec2(10.0f, 1.0f)), 0.0f);  // Collinear, even past b.
  // Reversing the line flips the side.
  EXPECT_LT(crowd::leftOf(b, a, Vec2(2.0f, 3.0f)), 0.0f);
  // The magnitude is twice the triangle's area: here base 3, height 2.
  EXPECT_EQ(crowd::leftOf(a, b, Vec2(2.0f, 3.0f)), 6.0f);
  // A counter-clockwise triangle turns left at every vertex.
  const Vec2 c(2.0f, 5.0f);
  EXPECT_GT(crowd::leftOf(a, b, c), 0.0f);
  EXPECT_GT(crowd::leftOf(b, c, a), 0.0f);
  EXPECT_GT(crowd::leftOf(c, a, b), 0.0f);
}

TEST(KernelVec2, NormalizeGivesUnitVectorInTheSameDirection) {
  const Vec2 n = crowd::normalize(Vec2(3.0f, 4.0f));
  EXPECT_FLOAT_EQ(n.x, 0.6f);
  EXPECT_FLOAT_EQ(n.y, 0.8f);
  for (const Vec2 v : {Vec2(1e-3f, -7.0f), Vec2(-123.5f, 0.25f), Vec2(1e4f, 1e4f)}) {
    const Vec2 u = crowd::normalize(v);
    EXPECT_NEAR(crowd::length(u), 1.0f, 1e-6f);
    EXPECT_NEAR(crowd::det(u, v), 0.0f, 1e-5f * crowd::length(v));
    EXPECT_GT(crowd::dot(u, v), 0.0f);
  }
}

TEST(KernelVec2, NormalizeMultipliesByTheReciprocalOfTheLength) {
  // RVO2 computes v / |v| as v * (1 / sqrt(v.v)); bit agreement needs the same two roundings.
  for (const Vec2 v : {Vec2(3.0f, 4.0f), Vec2(0.1f, 0.7f), Vec2(-5.3f, 2.9f), Vec2(1e-3f, 9.0f)}) {
    const float inv = 1.0f / std::sqrt(v.x * v.x + v.y * v.y);
    const Vec2 n = crowd::normalize(v);
    EXPECT_EQ(n.x, v.x * inv);
    EXPECT_EQ(n.y, v.y * inv);
  }
}

TEST(KernelVec2, DivideRoundsLikeMultiplyingByTheReciprocal) {
  // Over many (value, divisor) pairs, divide() must equal v * (1/s) bit for bit. The same loop
  // checks that true division differs somewhere, so the comparison can tell the two apart.
  bool trueDivisionEverDiffers = false;
  for (int i = 1; i <= 200; ++i) {
    for (int j = 1; j <= 50; ++j) {
      const float value = static_cast<float>(i) * 0.37f;
      const float divisor = static_cast<float>(j) * 0.11f;
      const float inv = 1.0f / divisor;
      const Vec2 q = crowd::divide(Vec2(value, -value), divisor);
      ASSERT_EQ(q.x, value * inv);
      ASSERT_EQ(q.y, -value * inv);
      if (value / divisor != value * inv) trueDivisionEverDiffers = true;
    }
  }
  EXPECT_TRUE(trueDivisionEverDiffers);
}

TEST(KernelVec2, DistSqPointSegmentCases) {
  const Vec2 a(0.0f, 0.0f);
  const Vec2 b(4.0f, 0.0f);
  // Projection inside the segment: the perpendicular distance.
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(a, b, Vec2(1.0f, 3.0f)), 9.0f);
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(a, b, Vec2(3.0f, -2.0f)), 4.0f);
  // Before a and beyond b: the distance to that end point.
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(a, b, Vec2(-3.0f, 4.0f)), 25.0f);
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(a, b, Vec2(7.0f, -4.0f)), 25.0f);
  // On the segment, and at its end points.
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(a, b, Vec2(2.5f, 0.0f)), 0.0f);
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(a, b, a), 0.0f);
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(a, b, b), 0.0f);
  // On the line through the segment but outside it.
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(a, b, Vec2(6.0f, 0.0f)), 4.0f);
  // A slanted segment: (1,1)-(3,3) and the point (3,1) projects on its middle, distance^2 = 2.
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(Vec2(1.0f, 1.0f), Vec2(3.0f, 3.0f), Vec2(3.0f, 1.0f)), 2.0f);
  // The direction of the segment does not matter.
  EXPECT_FLOAT_EQ(crowd::distSqPointSegment(b, a, Vec2(-3.0f, 4.0f)), 25.0f);
}

TEST(KernelVec2, ClipToLength) {
  // Shorter than the limit: returned unchanged, bit for bit.
  const Vec2 shortV(0.3f, -0.4f);
  const Vec2 s = crowd::clipToLength(shortV, 1.0f);
  EXPECT_EQ(s.x, shortV.x);
  EXPECT_EQ(s.y, shortV.y);
  // Exactly at the limit: unchanged (the test is strictly "longer than").
  const Vec2 e = crowd::clipToLength(Vec2(3.0f, 4.0f), 5.0f);
  EXPECT_EQ(e.x, 3.0f);
  EXPECT_EQ(e.y, 4.0f);
  // The same at every exact tie the search below finds, including ones where scaling by the
  // reciprocal length would have moved the vector by rounding (so the test can tell).
  int ties = 0;
  int tiesThatRescalingChanges = 0;
  for (int i = 1; i < 60; ++i) {
    for (int j = 1; j < 60; ++j) {
      const Vec2 v(static_cast<float>(i) * 0.1f, static_cast<float>(j) * 0.07f);
      const float limit = std::sqrt(crowd::absSq(v));
      if (!(crowd::absSq(v) == limit * limit)) continue;
      ++ties;
      const Vec2 rescaled = crowd::normalize(v) * limit;
      if (rescaled.x != v.x || rescaled.y != v.y) ++tiesThatRescalingChanges;
      const Vec2 clipped = crowd::clipToLength(v, limit);
      ASSERT_EQ(clipped.x, v.x);
      ASSERT_EQ(clipped.y, v.y);
    }
  }
  EXPECT_GT(ties, 0);
  EXPECT_GT(tiesThatRescalingChanges, 0);
  // Longer: scaled down to the limit, same direction.
  const Vec2 longV(30.0f, -40.0f);
  const Vec2 c = crowd::clipToLength(longV, 2.0f);
  EXPECT_NEAR(crowd::length(c), 2.0f, 1e-6f);
  EXPECT_FLOAT_EQ(c.x, 1.2f);
  EXPECT_FLOAT_EQ(c.y, -1.6f);
  // A zero limit clips everything non-zero to the origin.
  const Vec2 z = crowd::clipToLength(longV, 0.0f);
  EXPECT_EQ(z.x, 0.0f);
  EXPECT_EQ(z.y, 0.0f);
}

}  // namespace
