// Unit tests for crowd/kernels/steer_path.hpp: the normal point on a segment (inside it, and
// outside it, where Reynolds' rule takes the segment's end), which segment a follower is on and
// where it aims (the closed loop's wrap both ways, the open path's end, the search window), and
// the force: cruise inside the path radius, seek outside it, arrive at an open path's end.
// Every expectation is worked out by hand on axis-aligned paths.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "crowd/kernels/steer_path.hpp"
#include "vec_near.hpp"

namespace {

using crowd::Vec2;

using crowd::test::near;

// One path in a PathView (the view points into this object).
struct OnePath {
  std::vector<Vec2> points;
  std::vector<int> start;
  std::vector<std::uint8_t> loop;

  OnePath(std::vector<Vec2> p, bool closed)
      : points(std::move(p)),
        start{0, static_cast<int>(points.size())},
        loop{static_cast<std::uint8_t>(closed)} {}
  crowd::PathView view() const { return crowd::PathView{points.data(), start.data(), loop.data(), 1}; }
};

// The square loop (0,0) -> (10,0) -> (10,10) -> (0,10) -> back to (0,0): segment 3 closes it.
OnePath square() {
  return OnePath({{0, 0}, {10, 0}, {10, 10}, {0, 10}}, true);
}

TEST(KernelSteerPath, NormalPointInsideTheSegmentIsTheFootOfThePerpendicular) {
  EXPECT_TRUE(near(crowd::normalPoint(Vec2(0, 0), Vec2(10, 0), Vec2(3, 2)), Vec2(3, 0)));
  EXPECT_TRUE(near(crowd::normalPoint(Vec2(0, 0), Vec2(10, 0), Vec2(3, -2)), Vec2(3, 0)));
  // A diagonal segment: (0, 4) projects half way along (0,0)-(4,4).
  EXPECT_EQ(crowd::normalPoint(Vec2(0, 0), Vec2(4, 4), Vec2(0, 4)), Vec2(2, 2));
  // The ends themselves are inside (t = 0 and t = 1).
  EXPECT_EQ(crowd::normalPoint(Vec2(0, 0), Vec2(10, 0), Vec2(0, 5)), Vec2(0, 0));
  EXPECT_EQ(crowd::normalPoint(Vec2(0, 0), Vec2(10, 0), Vec2(10, 5)), Vec2(10, 0));
}

TEST(KernelSteerPath, NormalPointOutsideTheSegmentIsItsEnd) {
  // Before the start (t = -0.2) and past the end (t = 1.2): both give b, as Reynolds' rule says.
  EXPECT_EQ(crowd::normalPoint(Vec2(0, 0), Vec2(10, 0), Vec2(-2, 1)), Vec2(10, 0));
  EXPECT_EQ(crowd::normalPoint(Vec2(0, 0), Vec2(10, 0), Vec2(12, 1)), Vec2(10, 0));
  // A segment of zero length has only its end.
  EXPECT_EQ(crowd::normalPoint(Vec2(3, 3), Vec2(3, 3), Vec2(0, 0)), Vec2(3, 3));
}

TEST(KernelSteerPath, PathViewCountsTheLoopsClosingSegment) {
  const OnePath loop = square();
  const OnePath open({{0, 0}, {10, 0}, {10, 10}}, false);
  EXPECT_EQ(loop.view().segments(0), 4);
  EXPECT_EQ(open.view().segments(0), 2);
  // Points wrap both ways.
  EXPECT_EQ(loop.view().point(0, 4), Vec2(0, 0));
  EXPECT_EQ(loop.view().point(0, -1), Vec2(0, 10));
}

TEST(KernelSteerPath, AimsAlongTheNearestSegment) {
  const OnePath path({{0, 0}, {10, 0}, {10, 10}}, false);
  // (4, 1.5) is 1.5 above segment 0 at (4, 0); the aim is 1.5 further along it.
  const crowd::PathAim a = crowd::aimAlongPath(path.view(), 0, -1, Vec2(4, 1.5f), 1.5f);
  EXPECT_EQ(a.segment, 0);
  EXPECT_TRUE(near(a.normal, Vec2(4, 0)));
  EXPECT_FLOAT_EQ(a.distSq, 2.25f);
  EXPECT_TRUE(near(a.target, Vec2(5.5f, 0)));
  EXPECT_FALSE(a.atEnd);
  // (9, 3): segment 0 at (9, 0) is 3 away, segment 1 at (10, 3) only 1: aim up segment 1.
  const crowd::PathAim b = crowd::aimAlongPath(path.view(), 0, 0, Vec2(9, 3), 1.5f);
  EXPECT_EQ(b.segment, 1);
  EXPECT_TRUE(near(b.normal, Vec2(10, 3)));
  EXPECT_FLOAT_EQ(b.distSq, 1.0f);
  EXPECT_TRUE(near(b.target, Vec2(10, 4.5f)));
}

TEST(KernelSteerPath, ClosedLoopWrapsFromItsLastSegmentToItsFirstAndBack) {
  const OnePath loop = square();
  // On the closing segment 3, predicted just below the start: the window 2..5 wraps to segments
  // 2, 3, 0, 1, and segment 0 at (2, 0) is nearest (1 away).
  const crowd::PathAim forward = crowd::aimAlongPath(loop.view(), 0, 3, Vec2(2, -1), 1.5f);
  EXPECT_EQ(forward.segment, 0);
  EXPECT_TRUE(near(forward.normal, Vec2(2, 0)));
  EXPECT_TRUE(near(forward.target, Vec2(3.5f, 0)));
  EXPECT_FALSE(forward.atEnd);
  // On segment 0, predicted beside the closing segment: the window -1..2 wraps to 3, 0, 1, 2;
  // segment 3 runs down x = 0, so the normal point is (0, 4) and the aim 1.5 further down.
  const crowd::PathAim back = crowd::aimAlongPath(loop.view(), 0, 0, Vec2(-1, 4), 1.5f);
  EXPECT_EQ(back.segment, 3);
  EXPECT_TRUE(near(back.normal, Vec2(0, 4)));
  EXPECT_TRUE(near(back.target, Vec2(0, 2.5f)));
  // Near the loop's first point on the closing segment the aim runs on past it: a loop has no end.
  const crowd::PathAim corner = crowd::aimAlongPath(loop.view(), 0, 3, Vec2(-0.5f, 0.5f), 1.5f);
  EXPECT_EQ(corner.segment, 3);
  EXPECT_TRUE(near(corner.target, Vec2(0, -1)));
  EXPECT_FALSE(corner.atEnd);
}

TEST(KernelSteerPath, OpenPathsAimStopsAtItsLastPoint) {
  const OnePath path({{0, 0}, {10, 0}}, false);
  // Mid-way the aim is 1.5 ahead of the normal point.
  const crowd::PathAim mid = crowd::aimAlongPath(path.view(), 0, 0, Vec2(5, 0.3f), 1.5f);
  EXPECT_TRUE(near(mid.target, Vec2(6.5f, 0)));
  EXPECT_FALSE(mid.atEnd);
  // Within 1.5 of the end, the aim would pass (11, 0): it is the end point instead.
  const crowd::PathAim end = crowd::aimAlongPath(path.view(), 0, 0, Vec2(9.5f, 0.3f), 1.5f);
  EXPECT_EQ(end.target, Vec2(10, 0));
  EXPECT_TRUE(end.atEnd);
  // Predicted past the end: the normal point is the end itself.
  const crowd::PathAim past = crowd::aimAlongPath(path.view(), 0, 0, Vec2(12, 0), 1.5f);
  EXPECT_EQ(past.normal, Vec2(10, 0));
  EXPECT_EQ(past.target, Vec2(10, 0));
  EXPECT_TRUE(past.atEnd);
}

TEST(KernelSteerPath, OnlyTheWindowAroundTheCurrentSegmentIsSearched) {
  // Segment 5 comes back down x = 5 to (5, 1), close above segment 0.
  const OnePath path({{0, 0}, {20, 0}, {20, 10}, {40, 10}, {40, 20}, {5, 20}, {5, 1}}, false);
  const Vec2 predicted(5.3f, 3);  // 3 above segment 0, 0.3 beside segment 5.
  // With no current segment every segment is searched: segment 5 wins.
  const crowd::PathAim all = crowd::aimAlongPath(path.view(), 0, -1, predicted, 1.0f);
  EXPECT_EQ(all.segment, 5);
  EXPECT_TRUE(near(all.normal, Vec2(5, 3)));
  // On segment 0 only segments 0..2 are searched (an open path's window is clipped at 0).
  const crowd::PathAim window = crowd::aimAlongPath(path.view(), 0, 0, predicted, 1.0f);
  EXPECT_EQ(window.segment, 0);
  EXPECT_TRUE(near(window.normal, Vec2(5.3f, 0)));
  // On segment 4 the window 3..6 is clipped to 3..5, and segment 5 is found.
  EXPECT_EQ(crowd::aimAlongPath(path.view(), 0, 4, predicted, 1.0f).segment, 5);
}

TEST(KernelSteerPath, OnADenselySampledPathTheWindowReachesThePrediction) {
  // 0.05 apart along y = 0: the prediction 3 ahead lies 60 segments past the current one.
  std::vector<Vec2> points;
  for (int i = 0; i <= 1000; ++i) points.emplace_back(0.05f * static_cast<float>(i), 0.0f);
  const OnePath path(points, false);
  const crowd::PathAim aim = crowd::aimAlongPath(path.view(), 0, 100, Vec2(8.02f, 0.5f), 1.5f, false, 3.0f);
  EXPECT_EQ(aim.segment, 160);  // (8.02, 0) lies on segment 160, from 8.00 to 8.05.
  EXPECT_TRUE(near(aim.normal, Vec2(8.02f, 0), 1e-4f));
  EXPECT_TRUE(near(aim.target, Vec2(9.52f, 0), 1e-4f));
  // The window ends once the segments past the current one cover the reach (2.99 needs 60 of
  // 0.05), within kPathWindowAhead.
  EXPECT_EQ(crowd::windowEnd(path.view(), 0, 100, 2.99f), 160);
  EXPECT_EQ(crowd::windowEnd(path.view(), 0, 100, 1e9f), 100 + crowd::kPathWindowAhead);
  EXPECT_EQ(crowd::windowEnd(path.view(), 0, 990, 3.0f), 999);  // The open path's last segment.
  // Long segments: two ahead, as always.
  const OnePath coarse({{0, 0}, {10, 0}, {20, 0}, {30, 0}, {40, 0}, {50, 0}}, false);
  EXPECT_EQ(crowd::windowEnd(coarse.view(), 0, 1, 3.0f), 3);
}

TEST(KernelSteerPath, PastACornerTheAimTurnsOntoTheNextSegment) {
  // (0,0) -> (10,0) -> (10,10): predicted at (12, -1), past the corner. Segment 0's normal point
  // is its end (10, 0), and segment 1's is its end (10, 10) too (t < 0): the corner is nearer.
  // The aim runs 1.5 up segment 1 from the corner, not on along segment 0 to (11.5, 0).
  const OnePath path({{0, 0}, {10, 0}, {10, 10}}, false);
  const crowd::PathAim aim = crowd::aimAlongPath(path.view(), 0, 0, Vec2(12, -1), 1.5f);
  EXPECT_EQ(aim.segment, 0);
  EXPECT_EQ(aim.normal, Vec2(10, 0));
  EXPECT_TRUE(near(aim.target, Vec2(10, 1.5f)));
  EXPECT_TRUE(near(aim.direction, Vec2(0, 1)));
  // A loop turns at its closing point as well: the square's segment 3 ends at (0, 0).
  const crowd::PathAim loop = crowd::aimAlongPath(square().view(), 0, 3, Vec2(-1, -2), 1.5f);
  EXPECT_EQ(loop.normal, Vec2(0, 0));
  EXPECT_TRUE(near(loop.target, Vec2(1.5f, 0)));
}

TEST(KernelSteerPath, AFollowerHeadingBackAimsAheadOfItselfAndTurnsRound) {
  // On (0,0) -> (100,0), at (50, 0) moving (-1.5, 0): the prediction (47, 0) and the point 1.5
  // on from it, (48.5, 0), lie behind the agent; it aims from 3 ahead along the path instead.
  const OnePath path({{0, 0}, {100, 0}}, false);
  const crowd::PathAim aim =
      crowd::aimOfFollower(path.view(), 0, 0, Vec2(50, 0), Vec2(-1.5f, 0), 3.0f, false);
  EXPECT_TRUE(near(aim.normal, Vec2(53, 0), 1e-4f));
  EXPECT_TRUE(near(aim.target, Vec2(54.5f, 0), 1e-4f));
  // Inside the path radius, yet heading back: it seeks the target, a force along +x.
  const crowd::Vec2 force = crowd::followForce(aim, Vec2(50, 0), Vec2(-1.5f, 0), 2.0f, 1.5f, 5.0f);
  EXPECT_GT(force.x, 1.5f);
  // Heading forward the aim is the prediction's, as before.
  const crowd::PathAim forward =
      crowd::aimOfFollower(path.view(), 0, 0, Vec2(50, 0), Vec2(1.5f, 0), 3.0f, false);
  EXPECT_TRUE(near(forward.target, Vec2(54.5f, 0), 1e-4f));
  EXPECT_FALSE(crowd::headingBack(forward, Vec2(1.5f, 0)));
}

TEST(KernelSteerPath, FollowerCruisesInsideTheRadiusAndSeeksOutsideIt) {
  crowd::PathAim aim{};
  aim.normal = Vec2(4, 0);
  aim.target = Vec2(5.5f, 0);
  aim.direction = Vec2(1, 0);
  aim.segment = 0;
  aim.atEnd = false;
  // 1 from the path, radius 2: keep the heading, at speed 2.
  aim.distSq = 1.0f;
  EXPECT_TRUE(near(crowd::followForce(aim, Vec2(4, 1), Vec2(0.5f, 0), 2.0f, 2.0f, 5.0f), Vec2(1.5f, 0)));
  // At rest there is no heading to keep: seek the aim, (1.5, -1) at speed 2 from rest.
  const float n = std::sqrt(1.5f * 1.5f + 1.0f);
  EXPECT_TRUE(
      near(crowd::followForce(aim, Vec2(4, 1), Vec2(0, 0), 2.0f, 2.0f, 5.0f), Vec2(3.0f / n, -2.0f / n)));
  // 3 from the path: seek the aim, (1.5, -3) from (4, 3).
  aim.distSq = 9.0f;
  const float m = std::sqrt(1.5f * 1.5f + 9.0f);
  EXPECT_TRUE(near(crowd::followForce(aim, Vec2(4, 3), Vec2(0.5f, 0), 2.0f, 2.0f, 5.0f),
                   Vec2(3.0f / m - 0.5f, -6.0f / m)));
  // At an open path's end: arrive, so 1 from the end with slowing radius 4 the desired speed is
  // a quarter of 2, wherever the path radius.
  aim.atEnd = true;
  aim.target = Vec2(10, 0);
  EXPECT_TRUE(near(crowd::followForce(aim, Vec2(9, 0), Vec2(1, 0), 2.0f, 2.0f, 4.0f), Vec2(-0.5f, 0)));
}

TEST(KernelSteerPath, PredictionIsLookAheadAlongTheVelocity) {
  EXPECT_EQ(crowd::predictedPosition(Vec2(1, 1), Vec2(3, 4), 5.0f), Vec2(4, 5));
  EXPECT_TRUE(
      near(crowd::predictedPosition(Vec2(1, 1), Vec2(0.03f, 0.04f), 5.0f), Vec2(4, 5), 1e-5f));  // Any speed.
  EXPECT_EQ(crowd::predictedPosition(Vec2(1, 1), Vec2(0, 0), 5.0f), Vec2(1, 1));
}

}  // namespace
