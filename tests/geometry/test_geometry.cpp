// The host geometry module (host/src/geometry/): binning into CSR lists and sparse grids,
// each lookup checked against a brute-force search, the proximity grid of points in both worlds,
// plus the point tests it provides.
#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "geometry/geometry.hpp"
#include "geometry/point_grid.hpp"

namespace crowd {
namespace {

TEST(Geometry, BinItemsListsEachItemInItsBinsInItemOrder) {
  // Item i belongs to bins i % 3 and, for even items, also bin 3.
  std::vector<int> start;
  std::vector<int> items;
  binItems(
      7, 4,
      [](std::size_t i, auto&& emit) {
        emit(i % 3);
        if (i % 2 == 0) emit(3);
      },
      start, items);
  ASSERT_EQ(start, (std::vector<int>{0, 3, 5, 7, 11}));
  EXPECT_EQ(items, (std::vector<int>{0, 3, 6, 1, 4, 2, 5, 0, 2, 4, 6}));
}

TEST(Geometry, DistanceToSegmentAndInsidePolygon) {
  EXPECT_DOUBLE_EQ(distSqToSegment({0, 3}, {-1, 0}, {1, 0}), 9.0);   // Above the middle.
  EXPECT_DOUBLE_EQ(distSqToSegment({4, 4}, {-1, 0}, {1, 0}), 25.0);  // Nearest an end.
  EXPECT_DOUBLE_EQ(distSqToSegment({4, 4}, {1, 0}, {1, 0}), 25.0);   // A point segment.
  const std::vector<Vec2> l{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  EXPECT_TRUE(insidePolygon({0.5, 1.5}, l));
  EXPECT_TRUE(insidePolygon({1.5, 0.5}, l));
  EXPECT_FALSE(insidePolygon({1.5, 1.5}, l));  // The notch of the L.
  std::vector<Vec2> clockwise(l.rbegin(), l.rend());
  EXPECT_TRUE(insidePolygon({0.5, 1.5}, clockwise));
  EXPECT_FALSE(insidePolygon({-0.5, 0.5}, clockwise));
}

// Every point within a cell of another is visited around it, once, in both worlds, however the
// buckets are shared: two clusters a million cells apart, checked against every pair.
template <class Vector>
void expectEveryNearPairFound(const std::vector<Vector>& points, double cell) {
  const PointGrid<Vector> grid(points, cell);
  EXPECT_EQ(grid.order().size(), points.size());
  for (std::size_t i = 0; i < points.size(); i += 7) {
    std::multiset<std::uint32_t> found;
    grid.forEachAround(points[i], [&](std::uint32_t j) { found.insert(j); });
    for (std::size_t j = 0; j < points.size(); ++j) {
      double distSq = 0.0;
      for (int d = 0; d < Vector::length(); ++d) distSq += std::pow(double{points[i][d]} - points[j][d], 2);
      if (distSq < cell * cell) {
        EXPECT_EQ(found.count(static_cast<std::uint32_t>(j)), 1u) << i << " and " << j;
      }
    }
    for (const std::uint32_t j : found) ASSERT_EQ(found.count(j), 1u);
  }
}

TEST(Geometry, PointGridFindsEveryPairWithinACellInBothWorlds) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> spread(0.0f, 30.0f);
  std::vector<Vec2> plane;
  std::vector<Vec3> space;
  for (int i = 0; i < 3000; ++i) {
    const float offset = i % 2 == 0 ? 0.0f : 1.0e6f;
    plane.push_back(Vec2(offset + spread(random), -offset + spread(random)));
    space.push_back(Vec3(offset + spread(random), -offset + spread(random), 0.5f * offset + spread(random)));
  }
  expectEveryNearPairFound(plane, 1.0);
  expectEveryNearPairFound(space, 2.0);
}

TEST(Geometry, SegmentGridListsEverySegmentWithinReach) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> coordinate(-100.0, 100.0);
  std::vector<Segment> segments;
  for (int s = 0; s < 300; ++s) {
    const Point a{coordinate(random), coordinate(random)};
    // Mostly short, some spanning the whole area.
    const double scale = s % 10 == 0 ? 1.0 : 0.05;
    segments.push_back(Segment{a, Point{a.x + scale * coordinate(random), a.y + scale * coordinate(random)}});
  }
  const double reach = 1.5;
  const SparseGrid grid = binSegments(segments, reach, 2.0 * reach);
  for (int k = 0; k < 3000; ++k) {
    const Point p{coordinate(random), coordinate(random)};
    const auto candidates = grid.candidatesAt(p);
    for (std::size_t s = 0; s < segments.size(); ++s) {
      if (distSqToSegment(p, segments[s].a, segments[s].b) < reach * reach) {
        EXPECT_NE(std::find(candidates.begin(), candidates.end(), s), candidates.end()) << "segment " << s;
      }
    }
  }
}

TEST(Geometry, BoxGridListsEveryBoxHoldingAPointAndOverlapsShareACell) {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> coordinate(-100.0, 100.0);
  std::uniform_real_distribution<double> size(0.0, 12.0);
  std::vector<Box> boxes;
  for (int b = 0; b < 400; ++b) {
    const Point lo{coordinate(random), coordinate(random)};
    const double grow = b % 50 == 0 ? 10.0 : 1.0;  // A few large ones.
    boxes.push_back(Box{lo, Point{lo.x + grow * size(random), lo.y + grow * size(random)}});
  }
  const SparseGrid grid = binBoxes(boxes, 0.0, 2000.0);
  for (int k = 0; k < 3000; ++k) {
    const Point p{coordinate(random), coordinate(random)};
    const auto candidates = grid.candidatesAt(p);
    for (std::size_t b = 0; b < boxes.size(); ++b) {
      if (boxes[b].contains(p)) {
        EXPECT_NE(std::find(candidates.begin(), candidates.end(), b), candidates.end()) << "box " << b;
      }
    }
  }
  for (std::size_t a = 0; a < boxes.size(); ++a) {
    for (std::size_t b = a + 1; b < boxes.size(); ++b) {
      if (!boxes[a].overlaps(boxes[b])) continue;
      const CellRange ra = cellRange(grid, boxes[a]);
      const CellRange rb = cellRange(grid, boxes[b]);
      EXPECT_TRUE(std::max(ra.lo.x, rb.lo.x) <= std::min(ra.hi.x, rb.hi.x) &&
                  std::max(ra.lo.y, rb.lo.y) <= std::min(ra.hi.y, rb.hi.y))
          << "boxes " << a << " and " << b;
    }
  }
}

TEST(Geometry, HugeAndNonFiniteCoordinatesStillHaveACell) {
  const SparseGrid grid(1.0, Box{{0, 0}, {10, 10}}, 16);
  const CellCoord far = grid.cellOf(Point{1e300, -1e300});
  EXPECT_EQ(far.x, 1 << 30);
  EXPECT_EQ(far.y, -(1 << 30));
  const CellCoord nan = grid.cellOf(Point{std::nan(""), 0.5});
  EXPECT_EQ(nan.x, -(1 << 30));
  EXPECT_EQ(nan.y, 0);
  EXPECT_TRUE(grid.candidatesAt(Point{std::nan(""), 3.0}).empty());
}

}  // namespace
}  // namespace crowd
