// The K nearest agents of an agent (RVO2's rule, see k_nearest.hpp), read from the agent grid
// ring by ring outwards from the agent's own cell. Near candidates fill the list early, the
// range shrinks to the K-th distance, and whole rings, then single cells, beyond it are skipped
// unread. Agents are visited in cell order, so consecutive agents share a home cell: the
// non-empty cells around it are looked up once and kept in a small cache.
#pragma once

#include "agent_grid.hpp"
#include "agent_id.hpp"
#include "config.hpp"
#include "k_nearest.hpp"
#include "vec2.hpp"

namespace crowd {

/// One non-empty cell near the home cell: its sorted slots and its lower-left corner.
struct CellRun {
  int begin;
  int end;
  Vec2 corner;
};

/// The non-empty cells around one home cell, gathered ring by ring (ring r: the cells at
/// Chebyshev distance r) as queries need them.
struct CellNeighbourhood {
  /// Rings a query may need: cells are at least 1/2.5 of the neighbour distance (see
  /// agentCellSize), and a point within the neighbour distance of the home cell then lies at
  /// most floor(2.5) + 1 rings out, the +1 for a point right at the home cell's edge.
  static constexpr int kMaxReach = 3;
  static constexpr int kCapacity = (2 * kMaxReach + 1) * (2 * kMaxReach + 1);

  CellCoord home{0, 0};
  int rings = -1;  ///< Rings gathered so far less one (-1: none yet).
  int ringEnd[kMaxReach + 1] = {};
  CellRun runs[kCapacity];

  /// Points the cache at `cell`, forgetting what it held for another cell.
  CROWD_HD void moveTo(CellCoord cell) {
    if (rings >= 0 && cell.x == home.x && cell.y == home.y) return;
    home = cell;
    rings = -1;
  }

  /// Gathers ring `rings + 1`.
  CROWD_HD void gatherNextRing(const GridCells& cells) {
    const int r = rings + 1;
    int count = r == 0 ? 0 : ringEnd[r - 1];
    for (int y = home.y - r; y <= home.y + r; ++y) {
      const bool edgeRow = y == home.y - r || y == home.y + r;
      const int step = edgeRow || r == 0 ? 1 : 2 * r;  // Inner rows: only the two ends.
      for (int x = home.x - r; x <= home.x + r; x += step) {
        const CellCoord cell{x, y};
        const SlotRange slots = slotsOfCell(cells, cell);
        if (slots.begin == slots.end) continue;
        runs[count++] = CellRun{slots.begin, slots.end, cellCorner(cells.grid, cell)};
      }
    }
    ringEnd[r] = count;
    rings = r;
  }
};

/// Fills `nearest` with the `maxNeighbors` nearest agents within `neighborDist` of the agent in
/// sorted slot `self` at `p` (entries' index: sorted slots). Returns the candidates examined.
CROWD_HD inline int findNearestAgents(const GridCells& cells, CellNeighbourhood& hood, const Vec2* position,
                                      const AgentId* id, int self, Vec2 p, int maxNeighbors, float neighborDistSq,
                                      AgentNeighbours& nearest) {
  nearest.reset(maxNeighbors, neighborDistSq);
  if (maxNeighbors == 0) return 0;
  const AgentGrid& grid = cells.grid;
  const CellCoord home = gridCellOf(grid, p);
  hood.moveTo(home);
  const float margin = cellMargin(grid, p);
  // Every cell of ring r >= 1 lies at least r - 1 cells plus p's distance to the nearest side
  // of its own cell away.
  const Vec2 homeCorner = cellCorner(grid, home);
  const float x0 = homeCorner.x, y0 = homeCorner.y;
  const float insetX = p.x - x0 < x0 + grid.cellSize - p.x ? p.x - x0 : x0 + grid.cellSize - p.x;
  const float insetY = p.y - y0 < y0 + grid.cellSize - p.y ? p.y - y0 : y0 + grid.cellSize - p.y;
  const float inset = (insetX < insetY ? insetX : insetY) - margin;
  int candidates = -1;  // The agent itself is in its home cell and is not a candidate.
  for (int r = 0; r <= CellNeighbourhood::kMaxReach; ++r) {
    if (r > 0) {
      const float gap = static_cast<float>(r - 1) * grid.cellSize + inset;
      if (gap > 0.0f && !nearest.mayAccept(gap * gap)) break;
    }
    if (hood.rings < r) hood.gatherNextRing(cells);
    for (int i = r == 0 ? 0 : hood.ringEnd[r - 1]; i < hood.ringEnd[r]; ++i) {
      const CellRun& run = hood.runs[i];
      if (r > 0 && !nearest.mayAccept(cellDistSqBound(grid, run.corner, p, margin))) continue;
      candidates += run.end - run.begin;
      for (int j = run.begin; j < run.end; ++j) {
        // RVO2 measures |self - other|^2; squaring makes the sign irrelevant to the bits.
        const float distSq = absSq(p - position[j]);
        // Not closer than the current range: offer() would refuse it too, so skip the id load.
        if (distSq > nearest.rangeSq || j == self) continue;
        nearest.offer(distSq, id[j].index, j);
      }
    }
  }
  return candidates;
}

}  // namespace crowd
