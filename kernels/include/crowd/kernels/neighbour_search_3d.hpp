// The K nearest agents of an agent in a 3D world (k_nearest.hpp's rule, RVO2-3D's), read from
// the 3D agent grid: first the 3 x 3 x 3 block around the agent's own cell, row by row (a row's
// three cells have consecutive keys, so consecutive buckets, and their agents are one run of
// sorted slots, two where the buckets wrap past the end of the table), then shell by shell
// outwards (shell r: the cells at Chebyshev distance r), each cell skipped when it lies beyond
// the current range. The list is the same whatever order the candidates come in.
//
// The CPU copies the block's agents into a tile once per home cell (its threads read agents in
// cell order, so consecutive agents share it) and offers the near ones first, as the planar
// search does (offerCandidates); the GPU, one thread per agent, reads the grid directly.
#pragma once

#include <cstdint>

#include "agent_grid_3d.hpp"
#include "agent_id.hpp"
#include "config.hpp"
#include "k_nearest.hpp"
#include "neighbour_search.hpp"
#include "vec3.hpp"

namespace crowd {

/// The slots of row (y, z) of the block around `home`: calls visit(j) for each sorted slot j of
/// an agent in the row's cells x0..x1 (clipped to the box).
template <class Visit>
CROWD_HD inline void visitBlockRow3(const GridCells& cells, CellCoord3 home, int y, int z, Visit visit) {
  const AgentGrid& grid = cells.grid;
  const int lastColumn = grid.origin.x + static_cast<int>(grid.columns) - 1;
  const int x0 = home.x - 1 > grid.origin.x ? home.x - 1 : grid.origin.x;
  const int x1 = home.x + 1 < lastColumn ? home.x + 1 : lastColumn;
  if (x0 > x1 || !insideBox(grid, CellCoord3{x0, y, z})) return;
  const std::uint64_t first = cellKey(grid, CellCoord3{x0, y, z});
  const std::uint64_t last = first + static_cast<std::uint64_t>(x1 - x0);
  const std::uint32_t b0 = bucketOfKey(grid, first);
  const std::uint32_t b1 = bucketOfKey(grid, last);
  const int ranges = b1 < b0 ? 2 : 1;
  for (int part = 0; part < ranges; ++part) {
    const int begin = cells.bucketStart[part == 0 ? b0 : 0];
    const int end = cells.bucketStart[ranges == 1 || part == 1 ? b1 + 1 : grid.bucketMask + 1];
    for (int j = begin; j < end; ++j) {
      // A wrapping grid's buckets may hold other cells too: only the row's keys count.
      if (grid.wraps && (cells.slotKey[j] < first || cells.slotKey[j] > last)) continue;
      visit(j);
    }
  }
}

/// The agents of the 3 x 3 x 3 block around one home cell, copied out of the grid for all the
/// agents of that cell.
struct BlockTile3 {
  /// Most agents the tile holds; a more crowded block is read from the grid instead.
  static constexpr int kCapacity = 256;

  CellCoord3 home{0, 0, 0};
  int count = -2;  ///< Agents held; -1 when the block holds more than kCapacity, -2 before the first.
  Vec3 position[kCapacity];
  unsigned id[kCapacity];
  int slot[kCapacity];

  /// Points the tile at `cell`, copying its block unless it holds it already.
  CROWD_HD void moveTo(const GridCells& cells, CellCoord3 cell, const Vec3* positions, const AgentId* ids) {
    if (count != -2 && cell.x == home.x && cell.y == home.y && cell.z == home.z) return;
    home = cell;
    count = 0;
    // Stops at the first row that overflows it (count -1).
    for (int z = cell.z - 1; z <= cell.z + 1 && count >= 0; ++z) {
      for (int y = cell.y - 1; y <= cell.y + 1 && count >= 0; ++y) {
        visitBlockRow3(cells, cell, y, z, [&](int j) {
          if (count < 0) return;
          if (count == kCapacity) {
            count = -1;
            return;
          }
          position[count] = positions[j];
          id[count] = ids[j].index;
          slot[count] = j;
          ++count;
        });
      }
    }
  }
};

/// The agents of a block tile, as offerCandidates reads them.
struct BlockTileCandidates3 {
  static constexpr int kCapacity = BlockTile3::kCapacity;
  const BlockTile3& tile;
  CROWD_HD int size() const { return tile.count; }
  CROWD_HD Vec3 position(int i) const { return tile.position[i]; }
  CROWD_HD unsigned id(int i) const { return tile.id[i]; }
  CROWD_HD int slot(int i) const { return tile.slot[i]; }
};

/// Offers the agents of the block around `home` to `nearest` straight from the grid, its nine
/// rows nearest first, so that the range shrinks early; once the list is full, rows beyond the
/// range are skipped. Returns how many were examined.
template <class Nearest>
CROWD_HD inline int offerBlock3(const GridCells& cells, CellCoord3 home, const Vec3* position,
                                const AgentId* id, int self, Vec3 p, float margin, Nearest& nearest) {
  const AgentGrid& grid = cells.grid;
  const Vec3 corner = cellCorner(grid, home);
  const float gapY[3] = {p.y - corner.y - margin, 0.0f, corner.y + grid.cellSize - p.y - margin};
  const float gapZ[3] = {p.z - corner.z - margin, 0.0f, corner.z + grid.cellSize - p.z - margin};
  struct BlockRow {
    float boundSq;
    int dy, dz;
  };
  BlockRow rows[9];
  int rowCount = 0;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      const float gy = gapY[dy + 1] > 0.0f ? gapY[dy + 1] : 0.0f;
      const float gz = gapZ[dz + 1] > 0.0f ? gapZ[dz + 1] : 0.0f;
      const BlockRow row{gy * gy + gz * gz, dy, dz};
      int at = rowCount++;
      for (; at > 0 && rows[at - 1].boundSq > row.boundSq; --at) rows[at] = rows[at - 1];
      rows[at] = row;
    }
  }
  int examined = 0;
  for (int r = 0; r < rowCount; ++r) {
    if (rows[r].boundSq > 0.0f && !nearest.mayAccept(rows[r].boundSq)) break;  // Sorted: so are the rest.
    visitBlockRow3(cells, home, home.y + rows[r].dy, home.z + rows[r].dz, [&](int j) {
      ++examined;
      const float distSq = absSq(p - position[j]);
      // Not closer than the current range: offer() would refuse it too, so skip the id load.
      if (distSq <= nearest.rangeSq && j != self) nearest.offer(distSq, id[j].index, j);
    });
  }
  return examined;
}

/// Offers the agents of shells 2 and beyond of `home` while the range reaches them (cells must
/// be at least 1/2.5 of the neighbour distance: CellNeighbourhood::kMaxReach shells). Returns
/// how many were examined.
template <class Nearest>
CROWD_HD inline int offerOuterShells3(const GridCells& cells, CellCoord3 home, const Vec3* position,
                                      const AgentId* id, int self, Vec3 p, float margin, Nearest& nearest) {
  const AgentGrid& grid = cells.grid;
  const float inset = cellInset(grid, cellCorner(grid, home), p, margin);
  int examined = 0;
  for (int r = 2; r <= CellNeighbourhood::kMaxReach; ++r) {
    // Every cell of shell r >= 2 lies at least r - 1 cells plus the inset away.
    const float gap = static_cast<float>(r - 1) * grid.cellSize + inset;
    if (gap > 0.0f && !nearest.mayAccept(gap * gap)) break;
    for (int z = home.z - r; z <= home.z + r; ++z) {
      const bool edgeLayer = z == home.z - r || z == home.z + r;
      for (int y = home.y - r; y <= home.y + r; ++y) {
        const bool edgeRow = edgeLayer || y == home.y - r || y == home.y + r;
        const int step = edgeRow ? 1 : 2 * r;  // Inside the shell's faces: only the two ends.
        for (int x = home.x - r; x <= home.x + r; x += step) {
          const CellCoord3 cell{x, y, z};
          if (!nearest.mayAccept(cellDistSqBound(grid, cellCorner(grid, cell), p, margin))) continue;
          const SlotRange slots = slotsOfCell(cells, cell);
          if (slots.begin == slots.end) continue;
          examined += offerSlots(slots.begin, slots.end, position, id, self, p, nearest);
        }
      }
    }
  }
  return examined;
}

/// Fills `nearest` with the `maxNeighbors` nearest agents within `neighborDist` of the agent in
/// sorted slot `self` at `p` (entries' index: sorted slots), reading the grid directly. Returns
/// the candidates examined.
template <class Nearest>
CROWD_HD inline int findNearestAgentsDirect(const GridCells& cells, const Vec3* position, const AgentId* id,
                                            int self, Vec3 p, int maxNeighbors, float neighborDistSq,
                                            Nearest& nearest) {
  nearest.reset(maxNeighbors, neighborDistSq);
  if (maxNeighbors == 0) return 0;
  const CellCoord3 home = gridCellOf(cells.grid, p);
  const float margin = cellMargin(cells.grid, p);
  // The agent itself is in its home cell and is not a candidate.
  return offerBlock3(cells, home, position, id, self, p, margin, nearest) - 1 +
         offerOuterShells3(cells, home, position, id, self, p, margin, nearest);
}

/// As findNearestAgentsDirect, with the block read from `tile` (moved to the agent's home cell).
/// `thresholdSq` is the typical squared distance of the K-th neighbour (any value gives the same
/// result). With `record`, also records the agent's candidate list: complete only if the tile
/// holds everything within its range (cells at least that wide), else marked incomplete (-1).
template <class Nearest>
CROWD_HD inline int findNearestAgents(const GridCells& cells, BlockTile3& tile, const Vec3* position,
                                      const AgentId* id, int self, Vec3 p, int maxNeighbors,
                                      float neighborDistSq, float thresholdSq, Nearest& nearest,
                                      ListRecord* record = nullptr) {
  nearest.reset(maxNeighbors, neighborDistSq);
  if (record != nullptr) record->count = 0;
  if (maxNeighbors == 0) return 0;
  const CellCoord3 home = gridCellOf(cells.grid, p);
  const float margin = cellMargin(cells.grid, p);
  tile.moveTo(cells, home, position, id);
  // The tile holds everyone within a cell width of the agent, less the rounding of the binning
  // (the margin, for the agent and for the other); a list reaching further cannot be made from
  // it, nor from an overflowing tile.
  const float covered = blockReach(cells.grid.cellSize, margin);
  if (record != nullptr && (tile.count < 0 || covered <= 0.0f || record->rangeSq > sqr(covered))) {
    record->count = -1;
    record = nullptr;
  }
  int examined;
  if (tile.count >= 0) {
    offerCandidates(BlockTileCandidates3{tile}, self, p, thresholdSq, nearest, record);
    examined = tile.count;
  } else {
    examined = offerBlock3(cells, home, position, id, self, p, margin, nearest);
  }
  return examined - 1 + offerOuterShells3(cells, home, position, id, self, p, margin, nearest);
}

}  // namespace crowd
