// The K nearest agents of an agent in a 3D world (k_nearest.hpp's rule, RVO2-3D's), read from
// the 3D agent grid shell by shell outwards from the agent's own cell (shell r: the cells at
// Chebyshev distance r). Each cell is looked up when the search reaches it and skipped when it
// lies beyond the current range, as the planar grid's direct search does
// (findNearestAgentsDirect): the list is the same whatever order the candidates come in.
#pragma once

#include "agent_grid_3d.hpp"
#include "agent_id.hpp"
#include "config.hpp"
#include "k_nearest.hpp"
#include "neighbour_search.hpp"
#include "vec3.hpp"

namespace crowd {

/// Fills `nearest` with the `maxNeighbors` nearest agents within `neighborDist` of the agent in
/// sorted slot `self` at `p` (entries' index: sorted slots). Cells must be at least 1/2.5 of the
/// neighbour distance (CellNeighbourhood::kMaxReach shells). Returns the candidates examined.
CROWD_HD inline int findNearestAgents3(const GridCells& cells, const Vec3* position, const AgentId* id, int self,
                                       Vec3 p, int maxNeighbors, float neighborDistSq, AgentNeighbours& nearest) {
  nearest.reset(maxNeighbors, neighborDistSq);
  if (maxNeighbors == 0) return 0;
  const AgentGrid& grid = cells.grid;
  const CellCoord3 home = gridCellOf(grid, p);
  const float margin = cellMargin(grid, p);
  const float inset = cellInset(grid, cellCorner(grid, home), p, margin);
  int candidates = -1;  // The agent itself is in its home cell and is not a candidate.
  // Shells 0 and 1, the 3 x 3 x 3 block every query reads, row by row: a row's three cells have
  // consecutive keys, so consecutive buckets, and their agents are one run of sorted slots (two
  // where the buckets wrap past the end of the table). A wrapping grid's buckets may hold other
  // cells too: only the row's keys are offered.
  const std::uint32_t bucketCount = grid.bucketMask + 1;
  const int lastColumn = grid.origin.x + static_cast<int>(grid.columns) - 1;
  const int x0 = home.x - 1 > grid.origin.x ? home.x - 1 : grid.origin.x;
  const int x1 = home.x + 1 < lastColumn ? home.x + 1 : lastColumn;
  auto visitBlock = [&](auto visit) {
    for (int z = home.z - 1; z <= home.z + 1 && x0 <= x1; ++z) {
      for (int y = home.y - 1; y <= home.y + 1; ++y) {
        if (!insideBox(grid, CellCoord3{x0, y, z})) continue;
        const std::uint64_t first = cellKey(grid, CellCoord3{x0, y, z});
        const std::uint64_t last = first + static_cast<std::uint64_t>(x1 - x0);
        const std::uint32_t b0 = bucketOfKey(grid, first);
        const std::uint32_t b1 = bucketOfKey(grid, last);
        const int ranges = b1 < b0 ? 2 : 1;
        for (int part = 0; part < ranges; ++part) {
          const int begin = cells.bucketStart[part == 0 ? b0 : 0];
          const int end = cells.bucketStart[ranges == 1 || part == 1 ? b1 + 1 : bucketCount];
          for (int j = begin; j < end; ++j) {
            if (grid.wraps && (cells.slotKey[j] < first || cells.slotKey[j] > last)) continue;
            visit(j);
          }
        }
      }
    }
  };
  visitBlock([&](int j) {
    ++candidates;
    const float distSq = absSq(p - position[j]);
    // Not closer than the current range: offer() would refuse it too, so skip the id load.
    if (distSq <= nearest.rangeSq && j != self) nearest.offer(distSq, id[j].index, j);
  });
  const int firstShell = 2;
  for (int r = firstShell; r <= CellNeighbourhood::kMaxReach; ++r) {
    // Every cell of shell r >= 2 lies at least r - 1 cells plus the inset away.
    const float gap = static_cast<float>(r - 1) * grid.cellSize + inset;
    if (r >= 2 && gap > 0.0f && !nearest.mayAccept(gap * gap)) break;
    for (int z = home.z - r; z <= home.z + r; ++z) {
      const bool edgeLayer = z == home.z - r || z == home.z + r;
      for (int y = home.y - r; y <= home.y + r; ++y) {
        const bool edgeRow = edgeLayer || y == home.y - r || y == home.y + r;
        const int step = edgeRow || r == 0 ? 1 : 2 * r;  // Inside the shell's faces: only the two ends.
        for (int x = home.x - r; x <= home.x + r; x += step) {
          const CellCoord3 cell{x, y, z};
          if (r > 0 && !nearest.mayAccept(cellDistSqBound(grid, cellCorner(grid, cell), p, margin))) continue;
          const SlotRange slots = slotsOfCell(cells, cell);
          if (slots.begin == slots.end) continue;
          candidates += offerSlots(slots.begin, slots.end, position, id, self, p, nearest);
        }
      }
    }
  }
  return candidates;
}

}  // namespace crowd
