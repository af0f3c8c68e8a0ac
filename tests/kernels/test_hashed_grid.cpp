// The hashed grid's cell maths: flooring, bucket mapping (dense inside the box, consistent
// wrap-around outside it), and the cell distance bound used to prune queries.
#include <cmath>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include <crowd/kernels/hashed_grid.hpp>

namespace {

using crowd::CellCoord;
using crowd::HashedGrid;
using crowd::Vec2;
using crowd::sqr;

HashedGrid makeGrid(float cellSize, CellCoord origin, unsigned columns, unsigned rows, unsigned buckets) {
  return HashedGrid{cellSize, 1.0f / cellSize, origin, columns, rows, buckets - 1,
                    static_cast<unsigned long long>(columns) * rows > buckets};
}

TEST(KernelHashedGrid, CellCoordinatesFloorTowardsMinusInfinity) {
  EXPECT_EQ(crowd::hashedCellCoordinate(0.0f), 0);
  EXPECT_EQ(crowd::hashedCellCoordinate(2.99f), 2);
  EXPECT_EQ(crowd::hashedCellCoordinate(3.0f), 3);
  EXPECT_EQ(crowd::hashedCellCoordinate(-0.01f), -1);
  EXPECT_EQ(crowd::hashedCellCoordinate(-3.0f), -3);
  EXPECT_EQ(crowd::hashedCellCoordinate(-3.5f), -4);
  // Out of range and non-finite values clamp instead of overflowing.
  EXPECT_EQ(crowd::hashedCellCoordinate(1e20f), 1 << 30);
  EXPECT_EQ(crowd::hashedCellCoordinate(-INFINITY), -(1 << 30));
  EXPECT_EQ(crowd::hashedCellCoordinate(NAN), -(1 << 30));
}

TEST(KernelHashedGrid, BoxThatFitsIsADenseRowMajorGrid) {
  const HashedGrid grid = makeGrid(2.0f, CellCoord{-3, 5}, 10, 6, 64);
  ASSERT_FALSE(grid.wraps);
  std::set<unsigned> seen;
  for (int y = 5; y < 11; ++y) {
    for (int x = -3; x < 7; ++x) {
      const unsigned b = crowd::bucketOf(grid, CellCoord{x, y});
      EXPECT_EQ(b, static_cast<unsigned>((y - 5) * 10 + (x + 3)));
      EXPECT_TRUE(crowd::insideBox(grid, CellCoord{x, y}));
      seen.insert(b);
    }
  }
  EXPECT_EQ(seen.size(), 60u);  // No two cells of the box share a bucket.
  EXPECT_FALSE(crowd::insideBox(grid, CellCoord{-4, 5}));
  EXPECT_FALSE(crowd::insideBox(grid, CellCoord{7, 5}));
  EXPECT_FALSE(crowd::insideBox(grid, CellCoord{0, 11}));
  EXPECT_FALSE(crowd::insideBox(grid, CellCoord{0, 4}));
}

TEST(KernelHashedGrid, WrappingIsModuloTheBucketCount) {
  const HashedGrid grid = makeGrid(1.0f, CellCoord{0, 0}, 100, 100, 256);
  ASSERT_TRUE(grid.wraps);
  for (int y = -50; y < 150; y += 7) {
    for (int x = -50; x < 150; x += 11) {
      const long long index = static_cast<long long>(y) * 100 + x;
      const unsigned expected = static_cast<unsigned>(((index % 256) + 256) % 256);
      EXPECT_EQ(crowd::bucketOf(grid, CellCoord{x, y}), expected) << x << "," << y;
      EXPECT_LT(crowd::bucketOf(grid, CellCoord{x, y}), 256u);
    }
  }
}

TEST(KernelHashedGrid, CellDistanceNeverExceedsTheTrueDistance) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> coord(-5000.0f, 5000.0f);
  const HashedGrid grid = makeGrid(7.5f, CellCoord{0, 0}, 1, 1, 1);
  for (int i = 0; i < 20000; ++i) {
    const Vec2 binned(coord(rng), coord(rng));
    const CellCoord cell = crowd::hashedCellOf(grid, binned);
    const Vec2 query(binned.x + coord(rng) * 0.01f, binned.y + coord(rng) * 0.01f);
    const float bound = crowd::hashedCellDistSq(grid, cell, query);
    EXPECT_LE(bound, crowd::absSq(binned - query)) << "cell " << cell.x << "," << cell.y;
  }
  // Inside its own cell the bound is zero; further away it is the gap less the 1e-4 margin.
  EXPECT_EQ(crowd::hashedCellDistSq(grid, CellCoord{0, 0}, Vec2(3.0f, 3.0f)), 0.0f);
  EXPECT_NEAR(crowd::hashedCellDistSq(grid, CellCoord{2, 0}, Vec2(3.0f, 3.0f)), sqr(12.0f - 7.5e-4f), 1e-3f);
}

}  // namespace
