// Uniform-grid cell maths for the obstacle grid (ObstacleView, ObstacleSet): edges are binned
// into square cells over a bounding box; a query scans the cells that touch its disc, nearest-
// first pruning being left to the caller. The grid only limits which edges are looked at: results
// never depend on the cell size. (Agents have their own hashed grid: agent_grid.hpp.)
#pragma once

#include <cmath>

#include "config.hpp"
#include "vec2.hpp"

namespace crowd {

/// A grid of `columns` x `rows` square cells of side `cellSize` starting at `origin`.
/// Positions outside the box are clamped into the border cells, so every point has a cell.
struct GridGeometry {
  Vec2 origin;     ///< Lower-left corner of cell (0, 0).
  float cellSize;  ///< Side of a cell. [Limit: > 0]
  float invCellSize;
  int columns;  ///< [Limit: >= 1]
  int rows;     ///< [Limit: >= 1]
};

struct CellCoord {
  int x;
  int y;
};

/// The cell holding `p`. Points outside the grid, NaN included, land in the nearest border cell.
CROWD_HD inline CellCoord cellOf(const GridGeometry& grid, Vec2 p) {
  const float fx = (p.x - grid.origin.x) * grid.invCellSize;
  const float fy = (p.y - grid.origin.y) * grid.invCellSize;
  // Compare in float first: converting an out-of-range float to int is undefined behaviour.
  const int x =
      fx >= 0.0f ? (fx < static_cast<float>(grid.columns) ? static_cast<int>(fx) : grid.columns - 1) : 0;
  const int y = fy >= 0.0f ? (fy < static_cast<float>(grid.rows) ? static_cast<int>(fy) : grid.rows - 1) : 0;
  return CellCoord{x, y};
}

CROWD_HD inline int cellIndex(const GridGeometry& grid, CellCoord c) {
  return c.y * grid.columns + c.x;
}

CROWD_HD inline int cellIndexOf(const GridGeometry& grid, Vec2 p) {
  return cellIndex(grid, cellOf(grid, p));
}

/// The inclusive range of cells that the square [p - r, p + r] touches.
struct CellRange {
  CellCoord lo;
  CellCoord hi;
};

CROWD_HD inline CellRange cellsTouching(const GridGeometry& grid, Vec2 p, float r) {
  return CellRange{cellOf(grid, Vec2(p.x - r, p.y - r)), cellOf(grid, Vec2(p.x + r, p.y + r))};
}

/// Squared distance from `p` to the nearest point of cell `c` (0 inside it). Border cells are
/// unbounded outwards, because out-of-grid points are clamped into them.
CROWD_HD inline float cellDistSq(const GridGeometry& grid, CellCoord c, Vec2 p) {
  const float x0 = grid.origin.x + static_cast<float>(c.x) * grid.cellSize;
  const float y0 = grid.origin.y + static_cast<float>(c.y) * grid.cellSize;
  const float x1 = x0 + grid.cellSize;
  const float y1 = y0 + grid.cellSize;
  float dx = 0.0f;
  if (p.x < x0 && c.x > 0)
    dx = x0 - p.x;
  else if (p.x > x1 && c.x < grid.columns - 1)
    dx = p.x - x1;
  float dy = 0.0f;
  if (p.y < y0 && c.y > 0)
    dy = y0 - p.y;
  else if (p.y > y1 && c.y < grid.rows - 1)
    dy = p.y - y1;
  return dx * dx + dy * dy;
}

}  // namespace crowd
