// Route followers choose their segment by line of sight (steer_route.hpp): worked cases with a
// wall segment between waypoints.
#include <vector>

#include <gtest/gtest.h>

#include <crowd/kernels/steer_route.hpp>
#include <crowd/obstacles.hpp>

#include "geometry/obstacle_index.hpp"

namespace {

using crowd::Vec2;

TEST(KernelSteerRoute, SegmentDistanceIsZeroWhenTheyCross) {
  EXPECT_EQ(crowd::segmentDistSq(Vec2(0, 0), Vec2(10, 0), Vec2(5, -1), Vec2(5, 1)), 0.0f);
  EXPECT_FLOAT_EQ(crowd::segmentDistSq(Vec2(0, 0), Vec2(10, 0), Vec2(0, 1), Vec2(10, 1)), 1.0f);
  // Apart and not parallel: the nearest pair is the ends (10, 0) and (12, 3), 2^2 + 3^2.
  EXPECT_FLOAT_EQ(crowd::segmentDistSq(Vec2(0, 0), Vec2(10, 0), Vec2(12, 3), Vec2(14, 3)), 13.0f);
}

// A route A(0, 0) -> B(10, 0) -> C(10, 10) and one wall segment.
struct Route {
  crowd::ObstacleSet walls;
  crowd::ObstacleIndex index;
  std::vector<Vec2> points{{0, 0}, {10, 0}, {10, 10}};
  std::vector<int> start{0, 3};
  std::vector<std::uint8_t> loop{0};

  explicit Route(Vec2 a, Vec2 b) {
    const std::vector<Vec2> wall{a, b};
    walls.addPolygon(wall);
    index.update(walls);
    index.prepareGrid(5.0f);
  }
  crowd::ObstacleView obstacles() const {
    return crowd::ObstacleView{index.edges().data(), static_cast<int>(index.edges().size()), index.grid(),
                               index.cellStart().data(), index.cellEdges().data()};
  }
  int segment(int current, Vec2 position, float radius) const {
    const crowd::PathView paths{points.data(), start.data(), loop.data(), 1};
    return crowd::routeSegment(paths, obstacles(), 0, current, position, radius);
  }
};

TEST(KernelSteerRoute, ClearPassageNeedsRoomForTheDisc) {
  const Route r(Vec2(5, -5), Vec2(5, 5));
  EXPECT_FALSE(crowd::clearPassage(r.obstacles(), Vec2(0, 0), Vec2(10, 0), 0.1f));  // Through it.
  EXPECT_TRUE(crowd::clearPassage(r.obstacles(), Vec2(0, 6), Vec2(10, 6), 0.5f));   // 1 past its end.
  EXPECT_FALSE(crowd::clearPassage(r.obstacles(), Vec2(0, 6), Vec2(10, 6), 1.5f));  // Too wide to pass.
}

TEST(KernelSteerRoute, MovesOnOnlyWhenTheWaypointAfterIsInView) {
  // A wall from (1, 5) to (9, 5): from A the line to C crosses it, so A's follower keeps to the
  // first leg; near B it sees C past the wall's end (0.76 away) and moves on.
  const Route r(Vec2(1, 5), Vec2(9, 5));
  EXPECT_EQ(r.segment(-1, Vec2(0, 0), 0.5f), 0);
  EXPECT_EQ(r.segment(0, Vec2(9.5f, 0.5f), 0.5f), 1);
  // The last leg: nothing further to move on to.
  EXPECT_EQ(r.segment(1, Vec2(10, 5), 0.5f), 1);
}

TEST(KernelSteerRoute, FallsBackWhenPushedOutOfSightOfItsWaypoint) {
  // A wall from (5, 6) to (5, 12): an agent on the last leg pushed to (2, 8) cannot see C but
  // sees B (the line to it passes 0.71 from the wall's end): it takes the first leg again.
  const Route r(Vec2(5, 6), Vec2(5, 12));
  EXPECT_EQ(r.segment(1, Vec2(2, 8), 0.5f), 0);
  // Where it sees C, it keeps its leg.
  EXPECT_EQ(r.segment(1, Vec2(8, 8), 0.5f), 1);
}

}  // namespace
