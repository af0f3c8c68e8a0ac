// Unit tests for crowd/kernels/uniform_grid.hpp: which cell a point falls in (clamped into the
// border cells when outside, without undefined behaviour for NaN or huge values), which cells a
// query square touches, and the lower bound on distances that makes cell pruning valid.
#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "crowd/kernels/uniform_grid.hpp"

namespace {

using crowd::CellCoord;
using crowd::GridGeometry;
using crowd::Vec2;

GridGeometry makeGrid(Vec2 origin, float cellSize, int columns, int rows) {
  return GridGeometry{origin, cellSize, 1.0f / cellSize, columns, rows};
}

// 5 x 3 cells of side 2 from (-4, 2): x in [-4, 6), y in [2, 8). Powers of two keep the cell
// arithmetic exact, so borders can be tested exactly.
const GridGeometry kGrid = makeGrid(Vec2(-4.0f, 2.0f), 2.0f, 5, 3);

/// The cell coordinate the definition gives: floor of the offset in cells, clamped.
int expectedCell(double p, double origin, double cellSize, int count) {
  const double f = std::floor((p - origin) / cellSize);
  return static_cast<int>(std::fmin(std::fmax(f, 0.0), count - 1.0));
}

void expectCell(const GridGeometry& grid, Vec2 p, int x, int y) {
  const CellCoord c = crowd::cellOf(grid, p);
  EXPECT_EQ(c.x, x) << "p = (" << p.x << ", " << p.y << ")";
  EXPECT_EQ(c.y, y) << "p = (" << p.x << ", " << p.y << ")";
}

TEST(KernelGrid, CellOfInside) {
  expectCell(kGrid, Vec2(-3.0f, 3.0f), 0, 0);
  expectCell(kGrid, Vec2(1.0f, 5.0f), 2, 1);
  expectCell(kGrid, Vec2(5.9f, 7.9f), 4, 2);
  expectCell(kGrid, Vec2(-0.1f, 4.5f), 1, 1);
}

TEST(KernelGrid, CellOfOnBordersBelongsToTheUpperCell) {
  // Cells are closed below and open above.
  expectCell(kGrid, Vec2(-4.0f, 2.0f), 0, 0);  // The grid's own corner.
  expectCell(kGrid, Vec2(-2.0f, 4.0f), 1, 1);
  expectCell(kGrid, Vec2(0.0f, 6.0f), 2, 2);
  expectCell(kGrid, Vec2(4.0f, 3.0f), 4, 0);
  // Just below a border stays in the lower cell.
  expectCell(kGrid, Vec2(std::nextafter(-2.0f, -3.0f), std::nextafter(4.0f, 3.0f)), 0, 0);
  // The far edges of the grid are outside it, and clamp into the last cells.
  expectCell(kGrid, Vec2(6.0f, 8.0f), 4, 2);
}

TEST(KernelGrid, CellOfOutsideIsClampedIntoTheBorderCells) {
  expectCell(kGrid, Vec2(-100.0f, 3.0f), 0, 0);
  expectCell(kGrid, Vec2(100.0f, 3.0f), 4, 0);
  expectCell(kGrid, Vec2(1.0f, -50.0f), 2, 0);
  expectCell(kGrid, Vec2(1.0f, 50.0f), 2, 2);
  expectCell(kGrid, Vec2(-7.0f, 9.0f), 0, 2);
  expectCell(kGrid, Vec2(6.5f, 1.5f), 4, 0);
}

TEST(KernelGrid, CellOfNaNAndHugeValuesLandInBorderCells) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float big = std::numeric_limits<float>::max();
  // NaN has no nearest cell; it must still get a valid border cell, without undefined
  // behaviour (converting NaN or out-of-range floats to int is UB).
  const CellCoord n = crowd::cellOf(kGrid, Vec2(nan, nan));
  EXPECT_TRUE(n.x == 0 || n.x == kGrid.columns - 1);
  EXPECT_TRUE(n.y == 0 || n.y == kGrid.rows - 1);
  const CellCoord nx = crowd::cellOf(kGrid, Vec2(nan, 5.0f));
  EXPECT_TRUE(nx.x == 0 || nx.x == kGrid.columns - 1);
  EXPECT_EQ(nx.y, 1);
  expectCell(kGrid, Vec2(inf, -inf), 4, 0);
  expectCell(kGrid, Vec2(-inf, inf), 0, 2);
  expectCell(kGrid, Vec2(big, -big), 4, 0);
  expectCell(kGrid, Vec2(-big, big), 0, 2);
  expectCell(kGrid, Vec2(3e9f, -3e9f), 4, 0);
  // The offset itself overflows to infinity here.
  const GridGeometry farGrid = makeGrid(Vec2(-big, -big), 1.0f, 4, 4);
  expectCell(farGrid, Vec2(big, big), 3, 3);
  // A grid with a huge column count: values beyond INT_MAX cells must not be converted.
  const GridGeometry wide = makeGrid(Vec2(0.0f, 0.0f), 1.0f, 1 << 30, 1);
  expectCell(wide, Vec2(5e9f, 0.5f), (1 << 30) - 1, 0);
  expectCell(wide, Vec2(12345.5f, 0.5f), 12345, 0);
}

TEST(KernelGrid, CellOfMatchesFloorAwayFromBorders) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> coord(-20.0f, 20.0f);
  const GridGeometry grid = makeGrid(Vec2(-7.5f, 3.25f), 0.75f, 13, 9);
  for (int i = 0; i < 5000; ++i) {
    const Vec2 p(coord(rng), coord(rng));
    // Skip points within rounding of a cell border, where float and exact floor may differ.
    const double fx = (p.x - grid.origin.x) / grid.cellSize;
    const double fy = (p.y - grid.origin.y) / grid.cellSize;
    if (std::fabs(fx - std::round(fx)) < 1e-4 || std::fabs(fy - std::round(fy)) < 1e-4) continue;
    expectCell(grid, p, expectedCell(p.x, grid.origin.x, grid.cellSize, grid.columns),
               expectedCell(p.y, grid.origin.y, grid.cellSize, grid.rows));
  }
}

TEST(KernelGrid, CellIndexIsRowMajor) {
  EXPECT_EQ(crowd::cellIndex(kGrid, CellCoord{0, 0}), 0);
  EXPECT_EQ(crowd::cellIndex(kGrid, CellCoord{4, 0}), 4);
  EXPECT_EQ(crowd::cellIndex(kGrid, CellCoord{0, 1}), 5);
  EXPECT_EQ(crowd::cellIndex(kGrid, CellCoord{3, 2}), 13);
  EXPECT_EQ(crowd::cellIndexOf(kGrid, Vec2(1.0f, 5.0f)), 7);
}

TEST(KernelGrid, CellsTouchingCoversTheQuerySquare) {
  // Square [-0.5, 2.5] x [3.5, 6.5] around (1, 5).
  crowd::CellRange range = crowd::cellsTouching(kGrid, Vec2(1.0f, 5.0f), 1.5f);
  EXPECT_EQ(range.lo.x, 1);
  EXPECT_EQ(range.lo.y, 0);
  EXPECT_EQ(range.hi.x, 3);
  EXPECT_EQ(range.hi.y, 2);
  // Radius zero: just the point's own cell.
  range = crowd::cellsTouching(kGrid, Vec2(1.0f, 5.0f), 0.0f);
  EXPECT_EQ(range.lo.x, 2);
  EXPECT_EQ(range.hi.x, 2);
  EXPECT_EQ(range.lo.y, 1);
  EXPECT_EQ(range.hi.y, 1);
  // A huge radius clamps to the whole grid.
  range = crowd::cellsTouching(kGrid, Vec2(1.0f, 5.0f), 1e30f);
  EXPECT_EQ(range.lo.x, 0);
  EXPECT_EQ(range.lo.y, 0);
  EXPECT_EQ(range.hi.x, 4);
  EXPECT_EQ(range.hi.y, 2);
  // A query centred outside the grid still gets the border cells it reaches.
  range = crowd::cellsTouching(kGrid, Vec2(-10.0f, 5.0f), 7.0f);
  EXPECT_EQ(range.lo.x, 0);
  EXPECT_EQ(range.hi.x, 0);  // Up to x = -3.
  EXPECT_EQ(range.lo.y, 0);
  EXPECT_EQ(range.hi.y, 2);
}

TEST(KernelGrid, CellsTouchingMatchesTheDefinition) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coord(-12.0f, 14.0f);
  std::uniform_real_distribution<float> radius(0.0f, 5.0f);
  for (int i = 0; i < 3000; ++i) {
    const Vec2 p(coord(rng), coord(rng));
    const float r = radius(rng);
    const crowd::CellRange range = crowd::cellsTouching(kGrid, p, r);
    // Cell size 2 and these inputs keep p +- r exact enough: compare with exact floors, away
    // from the borders.
    const double xs[2] = {static_cast<double>(p.x - r), static_cast<double>(p.x + r)};
    const double ys[2] = {static_cast<double>(p.y - r), static_cast<double>(p.y + r)};
    bool nearBorder = false;
    for (const double v : {xs[0], xs[1], ys[0], ys[1]}) {
      if (std::fabs(v / 2.0 - std::round(v / 2.0)) < 1e-5) nearBorder = true;
    }
    if (nearBorder) continue;
    EXPECT_EQ(range.lo.x, expectedCell(xs[0], -4.0, 2.0, 5));
    EXPECT_EQ(range.hi.x, expectedCell(xs[1], -4.0, 2.0, 5));
    EXPECT_EQ(range.lo.y, expectedCell(ys[0], 2.0, 2.0, 3));
    EXPECT_EQ(range.hi.y, expectedCell(ys[1], 2.0, 2.0, 3));
  }
}

TEST(KernelGrid, CellDistSqIsZeroInsideTheCell) {
  EXPECT_EQ(crowd::cellDistSq(kGrid, CellCoord{2, 1}, Vec2(1.0f, 5.0f)), 0.0f);
  EXPECT_EQ(crowd::cellDistSq(kGrid, CellCoord{2, 1}, Vec2(0.0f, 4.0f)), 0.0f);  // Corner.
  EXPECT_EQ(crowd::cellDistSq(kGrid, CellCoord{2, 1}, Vec2(2.0f, 6.0f)), 0.0f);  // Far corner.
}

TEST(KernelGrid, CellDistSqToAnInteriorCell) {
  // Cell (2, 1) spans x in [0, 2], y in [4, 6] and has neighbours on every side.
  const CellCoord c{2, 1};
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, c, Vec2(3.0f, 5.0f)), 1.0f);    // Right.
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, c, Vec2(-1.5f, 5.0f)), 2.25f);  // Left.
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, c, Vec2(1.0f, 7.0f)), 1.0f);    // Above.
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, c, Vec2(1.0f, 3.5f)), 0.25f);   // Below.
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, c, Vec2(3.0f, 7.0f)), 2.0f);    // Corner.
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, c, Vec2(-3.0f, 1.0f)), 18.0f);  // Corner, outside.
}

TEST(KernelGrid, BorderCellsAreUnboundedOutwards) {
  // Cell (0, 0) is x in [-4, -2], y in [2, 4]; outside the grid it reaches to -infinity in x
  // and y, because points there are clamped into it.
  const CellCoord corner{0, 0};
  EXPECT_EQ(crowd::cellDistSq(kGrid, corner, Vec2(-10.0f, 0.0f)), 0.0f);
  EXPECT_EQ(crowd::cellDistSq(kGrid, corner, Vec2(-10.0f, 3.0f)), 0.0f);
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, corner, Vec2(-10.0f, 5.0f)), 1.0f);   // Inwards in y.
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, corner, Vec2(-1.0f, -10.0f)), 1.0f);  // Inwards in x.
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, corner, Vec2(0.0f, 6.0f)), 8.0f);
  // Top-right cell (4, 2): x in [4, 6], y in [6, 8], unbounded to +x and +y.
  const CellCoord far{4, 2};
  EXPECT_EQ(crowd::cellDistSq(kGrid, far, Vec2(100.0f, 100.0f)), 0.0f);
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, far, Vec2(100.0f, 5.0f)), 1.0f);
  // A cell on the bottom edge is unbounded downwards only.
  const CellCoord bottom{2, 0};
  EXPECT_EQ(crowd::cellDistSq(kGrid, bottom, Vec2(1.0f, -100.0f)), 0.0f);
  EXPECT_FLOAT_EQ(crowd::cellDistSq(kGrid, bottom, Vec2(5.0f, -100.0f)), 9.0f);
  // A single-cell grid contains every point.
  const GridGeometry one = makeGrid(Vec2(0.0f, 0.0f), 1.0f, 1, 1);
  EXPECT_EQ(crowd::cellDistSq(one, CellCoord{0, 0}, Vec2(-50.0f, 70.0f)), 0.0f);
}

TEST(KernelGrid, CellDistSqIsALowerBoundForEveryPointBinnedThere) {
  // The property neighbour pruning relies on: a point q binned into cell c is never closer to
  // p than cellDistSq(c, p). Points are drawn inside and well outside the grid.
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> coord(-15.0f, 18.0f);
  for (int i = 0; i < 20000; ++i) {
    const Vec2 p(coord(rng), coord(rng));
    const Vec2 q(coord(rng), coord(rng));
    const CellCoord c = crowd::cellOf(kGrid, q);
    const float bound = crowd::cellDistSq(kGrid, c, p);
    ASSERT_LE(bound, crowd::absSq(p - q) * (1.0f + 1e-6f) + 1e-6f)
        << "p = (" << p.x << ", " << p.y << "), q = (" << q.x << ", " << q.y << ")";
  }
}

TEST(KernelGrid, CellDistSqIsTightForInteriorCells) {
  // For a cell with neighbours on all sides the bound is the exact distance to its square.
  const GridGeometry grid = makeGrid(Vec2(0.0f, 0.0f), 1.0f, 6, 6);
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> coord(-3.0f, 9.0f);
  for (int i = 0; i < 2000; ++i) {
    const Vec2 p(coord(rng), coord(rng));
    for (int cx = 1; cx < 5; ++cx) {
      for (int cy = 1; cy < 5; ++cy) {
        const double dx =
            std::fmax(std::fmax(cx - static_cast<double>(p.x), 0.0), static_cast<double>(p.x) - (cx + 1));
        const double dy =
            std::fmax(std::fmax(cy - static_cast<double>(p.y), 0.0), static_cast<double>(p.y) - (cy + 1));
        ASSERT_NEAR(crowd::cellDistSq(grid, CellCoord{cx, cy}, p), dx * dx + dy * dy, 1e-4);
      }
    }
  }
}

}  // namespace
