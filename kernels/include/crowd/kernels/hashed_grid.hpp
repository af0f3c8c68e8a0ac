// A spatially hashed uniform grid: cells are unbounded in number, and each maps to one of a
// fixed number of buckets. Memory stays proportional to the agent count however far apart the
// agents are (a circle of a million agents spans 1.6 million units), while a query still reads
// only the buckets of the cells near it. The hash is the cell's row-major index over the
// agents' bounding box, modulo the bucket count: a world with fewer cells than buckets is a
// plain dense grid (no sharing, neighbouring cells adjacent in memory), and a larger one wraps
// around. Cells that share a bucket give a query extra candidates, which the distance test
// rejects, so results never depend on the hashing.
#pragma once

#include <cmath>

#include "config.hpp"
#include "uniform_grid.hpp"
#include "vec2.hpp"

namespace crowd {

struct HashedGrid {
  float cellSize;        ///< [Limit: > 0]
  float invCellSize;
  CellCoord origin;      ///< The cell of the bounding box's lower-left corner.
  unsigned columns;      ///< Row length of the row-major index. [Limit: >= 1]
  unsigned rows;         ///< Rows of the bounding box (capped like columns).
  unsigned bucketMask;   ///< Bucket count - 1; the count is a power of two.
  bool wraps;            ///< More cells in the box than buckets: distinct cells may share one.
};

/// Whether cell `c` lies in the agents' bounding box. When the grid does not wrap, cells
/// outside it are empty, and skipping them also keeps them from aliasing cells inside.
CROWD_HD inline bool insideBox(const HashedGrid& grid, CellCoord c) {
  return static_cast<unsigned>(c.x) - static_cast<unsigned>(grid.origin.x) < grid.columns &&
         static_cast<unsigned>(c.y) - static_cast<unsigned>(grid.origin.y) < grid.rows;
}

/// Cell coordinates, clamped to +-2^30 so that huge or non-finite positions stay defined.
CROWD_HD inline int hashedCellCoordinate(float scaled) {
  constexpr float kLimit = 1073741824.0f;  // 2^30
  if (!(scaled > -kLimit)) return -(1 << 30);  // Also catches NaN.
  if (!(scaled < kLimit)) return 1 << 30;
  // floor without a library call: truncate, then step down for negative non-integers.
  const int truncated = static_cast<int>(scaled);
  return static_cast<float>(truncated) > scaled ? truncated - 1 : truncated;
}

CROWD_HD inline CellCoord hashedCellOf(const HashedGrid& grid, Vec2 p) {
  return CellCoord{hashedCellCoordinate(p.x * grid.invCellSize), hashedCellCoordinate(p.y * grid.invCellSize)};
}

/// Bucket count for `agents` agents: about two per agent, a power of two from 64 to 2^30.
CROWD_HD inline unsigned bucketCountFor(long long agents) {
  unsigned buckets = 64;
  while (static_cast<long long>(buckets) < 2 * agents && buckets < (1u << 30)) buckets *= 2;
  return buckets;
}

/// The grid over the bounding box [minX, maxX] x [minY, maxY] with the given cell side and
/// bucket count (a power of two).
CROWD_HD inline HashedGrid makeHashedGrid(float minX, float minY, float maxX, float maxY, float cellSize,
                                          unsigned buckets) {
  HashedGrid grid;
  grid.cellSize = cellSize;
  grid.invCellSize = 1.0f / cellSize;
  grid.origin = CellCoord{hashedCellCoordinate(minX * grid.invCellSize), hashedCellCoordinate(minY * grid.invCellSize)};
  const CellCoord far{hashedCellCoordinate(maxX * grid.invCellSize), hashedCellCoordinate(maxY * grid.invCellSize)};
  // Rows longer than the table would wrap onto themselves; cap them (wide worlds then share).
  const long long width = static_cast<long long>(far.x) - grid.origin.x + 1;
  const long long height = static_cast<long long>(far.y) - grid.origin.y + 1;
  grid.columns = static_cast<unsigned>(width < buckets ? width : buckets);
  grid.rows = static_cast<unsigned>(height < buckets ? height : buckets);
  grid.bucketMask = buckets - 1;
  grid.wraps = width * height > static_cast<long long>(buckets);
  return grid;
}

/// The bucket of a cell: its row-major index modulo the bucket count. Unsigned arithmetic
/// wraps modulo 2^32, a multiple of the bucket count, so cells outside the box hash consistently.
CROWD_HD inline unsigned bucketOf(const HashedGrid& grid, CellCoord c) {
  const unsigned row = static_cast<unsigned>(c.y) - static_cast<unsigned>(grid.origin.y);
  const unsigned column = static_cast<unsigned>(c.x) - static_cast<unsigned>(grid.origin.x);
  return (row * grid.columns + column) & grid.bucketMask;
}

/// A lower bound on the squared distance from `p` to any point binned in cell `c`. The cell's
/// edges are pulled in by a hair so that rounding in the binning can never make it too large.
CROWD_HD inline float hashedCellDistSq(const HashedGrid& grid, CellCoord c, Vec2 p) {
  const float margin = 1e-4f * grid.cellSize;
  const float x0 = static_cast<float>(c.x) * grid.cellSize;
  const float y0 = static_cast<float>(c.y) * grid.cellSize;
  const float below = x0 - p.x, above = p.x - (x0 + grid.cellSize);
  const float left = y0 - p.y, right = p.y - (y0 + grid.cellSize);
  const float dx = (below > above ? below : above) - margin;
  const float dy = (left > right ? left : right) - margin;
  return (dx > 0.0f ? dx * dx : 0.0f) + (dy > 0.0f ? dy * dy : 0.0f);
}

}  // namespace crowd
