// The K nearest agents of an agent (RVO2's rule, see k_nearest.hpp), read from the agent grid
// ring by ring outwards from the agent's own cell (ring r: the cells at Chebyshev distance r).
//
// Agents are visited in cell order, so consecutive agents share a home cell: its neighbourhood
// is looked up once and cached. The 3 x 3 cells around it (rings 0 and 1), which every query
// reads, are copied into one contiguous tile; outer rings are kept as runs of sorted slots and
// read only when the K-th distance found so far reaches them, cell by cell.
//
// The candidates of the tile are filtered without branches, which the CPU cannot predict
// (about half are in range). Sorting them into the K-nearest list is the expensive part, so
// they are split by a threshold first: the distance the K-th neighbour typically has (the last
// step's mean search range). Only the few below it are sorted in; the rest are offered only if
// fewer than K were below. The result is exact whatever the threshold; the threshold only
// decides how much sorting is done.
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

/// The neighbourhood of one home cell, gathered as queries need it.
struct CellNeighbourhood {
  /// Rings a query may need: cells are at least 1/2.5 of the neighbour distance (see
  /// CellSizeChooser), and a point within the neighbour distance of the home cell then lies at
  /// most floor(2.5) + 1 rings out, the +1 for a point right at the home cell's edge.
  static constexpr int kMaxReach = 3;
  static constexpr int kCapacity = (2 * kMaxReach + 1) * (2 * kMaxReach + 1);
  /// Most agents the 3 x 3 tile holds; a more crowded block is read as runs instead.
  static constexpr int kTileCapacity = 64;

  CellCoord home{0, 0};
  int rings = -1;  ///< Rings gathered so far less one (-1: none yet).
  int ringEnd[kMaxReach + 1] = {};
  CellRun runs[kCapacity];
  int tileCount = -1;  ///< Agents in the tile; -1 when rings 0 and 1 are runs (too many for it).
  Vec2 tilePosition[kTileCapacity];
  unsigned tileId[kTileCapacity];
  int tileSlot[kTileCapacity];

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

  /// Copies the agents of rings 0 and 1 into the tile. The three cells of a row have
  /// consecutive keys, so consecutive buckets: a row is one range of sorted slots (two where it
  /// crosses the end of the bucket table), from which, in a wrapping grid, only the slots with
  /// the row's keys are kept. If they do not fit, rings 0 and 1 are gathered as runs instead.
  CROWD_HD void gatherTile(const GridCells& cells, const Vec2* position, const AgentId* id) {
    const AgentGrid& grid = cells.grid;
    tileCount = 0;
    for (int y = home.y - 1; y <= home.y + 1; ++y) {
      // The row's cells inside the box (those outside hold nobody).
      const int x0 = home.x - 1 > grid.origin.x ? home.x - 1 : grid.origin.x;
      const int lastColumn = grid.origin.x + static_cast<int>(grid.columns) - 1;
      const int x1 = home.x + 1 < lastColumn ? home.x + 1 : lastColumn;
      if (x0 > x1 || !insideBox(grid, CellCoord{x0, y})) continue;
      const std::uint64_t first = cellKey(grid, CellCoord{x0, y});
      const std::uint64_t last = cellKey(grid, CellCoord{x1, y});
      const std::uint32_t b0 = bucketOfKey(grid, first);
      const std::uint32_t b1 = bucketOfKey(grid, last);
      // Two ranges when the buckets wrap past the end of the table, else one.
      const int ranges = b1 < b0 ? 2 : 1;
      for (int part = 0; part < ranges; ++part) {
        const int begin = cells.bucketStart[part == 0 ? b0 : 0];
        const int end =
            cells.bucketStart[(part == 0 && ranges == 1) ? b1 + 1
                                                         : (part == 0 ? grid.bucketMask + 1 : b1 + 1)];
        if (tileCount + (end - begin) > kTileCapacity) {
          gatherRunsInstead(cells);
          return;
        }
        for (int j = begin; j < end; ++j) {
          tilePosition[tileCount] = position[j];
          tileId[tileCount] = id[j].index;
          tileSlot[tileCount] = j;
          // A dense grid's buckets hold just these cells; a wrapping one's may hold others.
          const bool mine = !grid.wraps || (cells.slotKey[j] >= first && cells.slotKey[j] <= last);
          tileCount += static_cast<int>(mine);
        }
      }
    }
    ringEnd[0] = ringEnd[1] = 0;  // Rings 0 and 1 are in the tile; outer rings' runs follow.
    rings = 1;
  }

  /// Rings 0 and 1 as runs, for a block too crowded for the tile.
  CROWD_HD void gatherRunsInstead(const GridCells& cells) {
    tileCount = -1;
    rings = -1;
    gatherNextRing(cells);
    gatherNextRing(cells);
  }
};

/// Offers the agents of sorted slots [begin, end) to `nearest`; returns how many were examined.
/// Vector is Vec2 or Vec3: the K nearest are kept alike in a planar and a 3D world.
template <class Vector, class Nearest>
CROWD_HD inline int offerSlots(int begin, int end, const Vector* position, const AgentId* id, int self,
                               Vector p, Nearest& nearest) {
  for (int j = begin; j < end; ++j) {
    // RVO2 measures |self - other|^2; squaring makes the sign irrelevant to the bits.
    const float distSq = absSq(p - position[j]);
    // Not closer than the current range: offer() would refuse it too, so skip the id load.
    if (distSq > nearest.rangeSq || j == self) continue;
    nearest.offer(distSq, id[j].index, j);
  }
  return end - begin;
}

/// Offers the agents of one run to `nearest`; returns how many were examined.
template <class Nearest>
CROWD_HD inline int offerRun(const CellRun& run, const Vec2* position, const AgentId* id, int self, Vec2 p,
                             Nearest& nearest) {
  return offerSlots(run.begin, run.end, position, id, self, p, nearest);
}

/// Where a grid search records the agent's candidate list (see candidate_lists.hpp): everyone
/// within `rangeSq`. `count` ends at -1 if they did not all fit, or could not all be seen.
struct ListRecord {
  int* row;  ///< capacity + 1 places: the last takes the writes that do not fit.
  int capacity;
  float rangeSq;
  int count;
};

/// The agents of the home cell's tile, as offerCandidates reads them.
struct TileCandidates {
  static constexpr int kCapacity = CellNeighbourhood::kTileCapacity;
  const CellNeighbourhood& hood;
  CROWD_HD int size() const { return hood.tileCount; }
  CROWD_HD Vec2 position(int i) const { return hood.tilePosition[i]; }
  CROWD_HD unsigned id(int i) const { return hood.tileId[i]; }
  CROWD_HD int slot(int i) const { return hood.tileSlot[i]; }
};

/// The agents of a candidate list, in a planar (Vec2) or 3D (Vec3) world.
template <class Vector>
struct ListCandidates {
  static constexpr int kCapacity = CellNeighbourhood::kTileCapacity;
  const int* row;
  int count;
  const Vector* positions;
  const AgentId* ids;
  CROWD_HD int size() const { return count; }
  CROWD_HD Vector position(int i) const { return positions[row[i]]; }
  CROWD_HD unsigned id(int i) const { return ids[row[i]].index; }
  CROWD_HD int slot(int i) const { return row[i]; }
};

/// Fills `nearest` (empty) from `candidates` (at most Candidates::kCapacity, self among them or
/// not). Those in range and nearer than `thresholdSq` are offered first; the rest only if those
/// did not fill the list, or tied with its last entry. With `record`, also lists everyone within
/// record->rangeSq. Vector is Vec2 or Vec3.
template <class Candidates, class Vector, class Nearest>
CROWD_HD inline void offerCandidates(const Candidates& candidates, int self, Vector p, float thresholdSq,
                                     Nearest& nearest, ListRecord* record) {
  constexpr int kCapacity = Candidates::kCapacity;
  int order[kCapacity];
  float distances[kCapacity];
  int nearCount = 0;
  int farBegin = candidates.size();
  const float rangeSq = nearest.rangeSq;
  int listed = 0;
  for (int i = 0; i < candidates.size(); ++i) {
    const float distSq = absSq(p - candidates.position(i));
    distances[i] = distSq;
    const bool other = candidates.slot(i) != self;
    const bool inRange = distSq < rangeSq && other;
    const bool near = distSq < thresholdSq;
    // Both places are written; the counters decide which write is kept.
    order[nearCount] = i;
    order[farBegin - 1] = i;
    nearCount += static_cast<int>(inRange && near);
    farBegin -= static_cast<int>(inRange && !near);
    if (record != nullptr) {
      record->row[listed < record->capacity ? listed : record->capacity] = candidates.slot(i);
      listed += static_cast<int>(distSq < record->rangeSq && other);
    }
  }
  if (record != nullptr) record->count = listed <= record->capacity ? listed : -1;
  for (int i = 0; i < nearCount; ++i) {
    const int c = order[i];
    nearest.offer(distances[c], candidates.id(c), candidates.slot(c));
  }
  if (nearest.count == nearest.capacity && !(thresholdSq <= nearest.rangeSq))
    return;  // No far one can enter.
  for (int i = farBegin; i < candidates.size(); ++i) {
    const int c = order[i];
    if (distances[c] > nearest.rangeSq) continue;
    nearest.offer(distances[c], candidates.id(c), candidates.slot(c));
  }
}

/// Fills `nearest` with the `maxNeighbors` nearest agents within `neighborDist` of the agent in
/// sorted slot `self` at `p` (entries' index: sorted slots). `thresholdSq` is the typical
/// squared distance of the K-th neighbour (any value gives the same result). Returns the
/// candidates examined.
/// With `record`, also records the agent's candidate list: complete only if the tile holds
/// everything within its range (cells at least that wide), else marked incomplete (-1).
template <class Nearest>
CROWD_HD inline int findNearestAgents(const GridCells& cells, CellNeighbourhood& hood, const Vec2* position,
                                      const AgentId* id, int self, Vec2 p, int maxNeighbors,
                                      float neighborDistSq, float thresholdSq, Nearest& nearest,
                                      ListRecord* record = nullptr) {
  nearest.reset(maxNeighbors, neighborDistSq);
  if (record != nullptr) record->count = 0;
  if (maxNeighbors == 0) return 0;
  const AgentGrid& grid = cells.grid;
  const CellCoord home = gridCellOf(grid, p);
  hood.moveTo(home);
  if (hood.rings < 1) hood.gatherTile(cells, position, id);
  int candidates = -1;  // The agent itself is in its home cell and is not a candidate.
  // The tile holds everyone within a cell width of the agent, less the rounding of the binning
  // (cellMargin, for the agent and for the other); a list reaching further cannot be made from it.
  const float covered = blockReach(grid.cellSize, cellMargin(grid, p));
  if (record != nullptr && (covered <= 0.0f || record->rangeSq > sqr(covered))) {
    record->count = -1;
    record = nullptr;
  }
  if (hood.tileCount >= 0) {
    offerCandidates(TileCandidates{hood}, self, p, thresholdSq, nearest, record);
    candidates += hood.tileCount;
  } else {
    for (int i = 0; i < hood.ringEnd[1]; ++i)
      candidates += offerRun(hood.runs[i], position, id, self, p, nearest);
  }

  // Every cell of ring r >= 2 lies at least r - 1 cells plus p's distance to the nearest side
  // of its own cell away.
  const float margin = cellMargin(grid, p);
  const Vec2 corner = cellCorner(grid, home);
  const float insetX =
      p.x - corner.x < corner.x + grid.cellSize - p.x ? p.x - corner.x : corner.x + grid.cellSize - p.x;
  const float insetY =
      p.y - corner.y < corner.y + grid.cellSize - p.y ? p.y - corner.y : corner.y + grid.cellSize - p.y;
  const float inset = (insetX < insetY ? insetX : insetY) - margin;
  for (int r = 2; r <= CellNeighbourhood::kMaxReach; ++r) {
    const float gap = static_cast<float>(r - 1) * grid.cellSize + inset;
    if (gap > 0.0f && !nearest.mayAccept(gap * gap)) break;
    if (hood.rings < r) hood.gatherNextRing(cells);
    for (int i = hood.ringEnd[r - 1]; i < hood.ringEnd[r]; ++i) {
      const CellRun& run = hood.runs[i];
      if (!nearest.mayAccept(cellDistSqBound(grid, run.corner, p, margin))) continue;
      candidates += offerRun(run, position, id, self, p, nearest);
    }
  }
  if (record != nullptr && hood.tileCount < 0) record->count = -1;
  return candidates;
}

/// Offers `nearest` (its range as it stands) every agent near the point `p` in the grid, cell by
/// cell from p's own cell outwards, skipping cells beyond the current range. p need not be an
/// agent's position (a periodic world's search also looks from an agent's image beyond an end,
/// see periodic.hpp); `self` is the slot not to offer. Returns the candidates examined.
template <class Nearest>
CROWD_HD inline int offerAgentsNear(const GridCells& cells, const Vec2* position, const AgentId* id, int self,
                                    Vec2 p, Nearest& nearest) {
  const AgentGrid& grid = cells.grid;
  const CellCoord home = gridCellOf(grid, p);
  const float margin = cellMargin(grid, p);
  const Vec2 homeCorner = cellCorner(grid, home);
  const float insetX = p.x - homeCorner.x < homeCorner.x + grid.cellSize - p.x
                           ? p.x - homeCorner.x
                           : homeCorner.x + grid.cellSize - p.x;
  const float insetY = p.y - homeCorner.y < homeCorner.y + grid.cellSize - p.y
                           ? p.y - homeCorner.y
                           : homeCorner.y + grid.cellSize - p.y;
  const float inset = (insetX < insetY ? insetX : insetY) - margin;
  int candidates = 0;
  for (int r = 0; r <= CellNeighbourhood::kMaxReach; ++r) {
    // As in findNearestAgents: ring r >= 2 lies at least r - 1 cells plus the inset away.
    const float gap = static_cast<float>(r - 1) * grid.cellSize + inset;
    if (r >= 2 && gap > 0.0f && !nearest.mayAccept(gap * gap)) break;
    for (int y = home.y - r; y <= home.y + r; ++y) {
      const bool edgeRow = y == home.y - r || y == home.y + r;
      const int step = edgeRow || r == 0 ? 1 : 2 * r;  // Inner rows: only the two ends.
      for (int x = home.x - r; x <= home.x + r; x += step) {
        const CellCoord cell{x, y};
        const Vec2 corner = cellCorner(grid, cell);
        if (r > 0 && !nearest.mayAccept(cellDistSqBound(grid, corner, p, margin))) continue;
        const SlotRange slots = slotsOfCell(cells, cell);
        if (slots.begin == slots.end) continue;
        candidates += offerRun(CellRun{slots.begin, slots.end, corner}, position, id, self, p, nearest);
      }
    }
  }
  return candidates;
}

/// The same K nearest as findNearestAgents (the list is independent of the order candidates are
/// met in), found without a per-thread cache: each cell of rings 0, 1, ... is looked up when the
/// search reaches it, and skipped when it lies beyond the current range. On a GPU a thread's
/// cache sits in slow local memory, while neighbouring threads, on neighbouring agents, share
/// the cells they read through the L1 anyway. Returns the candidates examined.
template <class Nearest>
CROWD_HD inline int findNearestAgentsDirect(const GridCells& cells, const Vec2* position, const AgentId* id,
                                            int self, Vec2 p, int maxNeighbors, float neighborDistSq,
                                            Nearest& nearest) {
  nearest.reset(maxNeighbors, neighborDistSq);
  if (maxNeighbors == 0) return 0;
  // The agent itself is in its home cell and is not a candidate.
  return offerAgentsNear(cells, position, id, self, p, nearest) - 1;
}

/// The K nearest from the agent's candidate list (as findNearestAgents would find them, while
/// the list is valid). Returns the candidates examined. Vector is Vec2 or Vec3.
template <class Vector, class Nearest>
CROWD_HD inline int nearestFromList(const int* row, int count, const Vector* position, const AgentId* id,
                                    int self, Vector p, int maxNeighbors, float neighborDistSq,
                                    float thresholdSq, Nearest& nearest) {
  nearest.reset(maxNeighbors, neighborDistSq);
  if (maxNeighbors == 0) return 0;
  offerCandidates(ListCandidates<Vector>{row, count, position, id}, self, p, thresholdSq, nearest, nullptr);
  return count;
}

}  // namespace crowd
