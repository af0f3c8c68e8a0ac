// The static obstacle edges an agent sees: a range query on the obstacles' own uniform grid.
#pragma once

#include "config.hpp"
#include "k_nearest.hpp"
#include "obstacle_edge.hpp"
#include "uniform_grid.hpp"
#include "vec2.hpp"

namespace crowd {

/// Static obstacle edges and their grid (CSR: cell c lists cellEdges[cellStart[c]..cellStart[c+1])).
struct ObstacleView {
  const ObstacleEdge* edges;
  int edgeCount;
  GridGeometry grid;
  const int* cellStart;
  const int* cellEdges;
};

/// The obstacle edges an agent at `p` sees within `range`, nearest first (ties by edge index),
/// at most kMaxObstacleNeighbors. An edge spans several cells, so ones already offered are skipped.
CROWD_HD inline void findNearestEdges(const ObstacleView& obstacles, Vec2 p, float range,
                                      ObstacleNeighbours& nearEdges) {
  const float rangeSq = sqr(range);
  nearEdges.reset(kMaxObstacleNeighbors, rangeSq);
  if (obstacles.edgeCount == 0) return;
  const CellRange cells = cellsTouching(obstacles.grid, p, range);
  for (int y = cells.lo.y; y <= cells.hi.y; ++y) {
    for (int x = cells.lo.x; x <= cells.hi.x; ++x) {
      const CellCoord cell{x, y};
      const int c = cellIndex(obstacles.grid, cell);
      const int begin = obstacles.cellStart[c];
      const int end = obstacles.cellStart[c + 1];
      if (begin == end || !(cellDistSq(obstacles.grid, cell, p) < rangeSq)) continue;
      for (int j = begin; j < end; ++j) {
        const int e = obstacles.cellEdges[j];
        const float distSq = visibleEdgeDistSq(obstacles.edges, e, p);
        if (distSq < 0.0f || !nearEdges.mayAccept(distSq)) continue;
        bool seen = false;
        for (int m = 0; m < nearEdges.count && !seen; ++m) seen = nearEdges.index(m) == e;
        if (!seen) nearEdges.offer(distSq, static_cast<unsigned>(e), e);
      }
    }
  }
}

}  // namespace crowd
