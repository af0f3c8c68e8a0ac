// The agent grid: square cells over the agents' bounding box, agents sorted by cell, and a
// table from cell to its run of sorted slots. Each cell has a 64-bit key (its row-major index in
// the box), and each key maps to one of a power-of-two number of buckets (about two per agent).
// A box with no more cells than buckets is a plain dense grid: bucket = key, neighbouring cells
// adjacent in memory. A larger box (a sparse world: a ring of agents a million units across)
// wraps keys onto buckets; cells that share a bucket are sorted by key within it, so a lookup
// still returns exactly one cell's agents. Memory stays linear in the agent count however far
// apart the agents are, and results never depend on the cell size or the hashing.
#pragma once

#include <cmath>
#include <cstdint>

#include "config.hpp"
#include "uniform_grid.hpp"
#include "vec2.hpp"

namespace crowd {

struct AgentGrid {
  float cellSize;  ///< [Limit: > 0]
  float invCellSize;
  CellCoord origin;          ///< The cell of the bounding box's lower-left corner.
  std::uint32_t columns;     ///< Cells per row of the box. [Limit: >= 1]
  std::uint32_t rows;        ///< Rows of the box. [Limit: >= 1]
  int originZ;               ///< A 3D grid's lowest layer (agent_grid_3d.hpp); 0 in a planar world.
  std::uint32_t layers;      ///< Layers of rows; 1 in a planar world, whose keys are then the same.
  std::uint32_t bucketMask;  ///< Bucket count - 1; the count is a power of two.
  bool wraps;                ///< More cells in the box than buckets: a bucket may hold several cells.
};

/// Cell coordinates, clamped to +-2^30 so that huge or non-finite positions stay defined.
CROWD_HD inline int gridCoordinate(float scaled) {
  constexpr float kLimit = 1073741824.0f;      // 2^30
  if (!(scaled > -kLimit)) return -(1 << 30);  // Also catches NaN.
  if (!(scaled < kLimit)) return 1 << 30;
  // floor without a library call: truncate, then step down for negative non-integers.
  const int truncated = static_cast<int>(scaled);
  return static_cast<float>(truncated) > scaled ? truncated - 1 : truncated;
}

CROWD_HD inline CellCoord gridCellOf(const AgentGrid& grid, Vec2 p) {
  return CellCoord{gridCoordinate(p.x * grid.invCellSize), gridCoordinate(p.y * grid.invCellSize)};
}

/// Bucket count for `agents` agents: at least one per agent, a power of two from 64 to 2^30.
/// Cells hold a few agents each (see adaptedCellSize), so most buckets of a wrapping grid hold
/// at most one cell; the ones that hold two cost a key comparison, not a wrong answer.
CROWD_HD inline std::uint32_t bucketCountFor(long long agents) {
  std::uint32_t buckets = 64;
  while (static_cast<long long>(buckets) < 2 * agents && buckets < (1u << 30)) buckets *= 2;
  return buckets;
}

/// The grid over the bounding box [minX, maxX] x [minY, maxY] with the given cell side and
/// bucket count (a power of two). Cells are made larger where needed to keep every cell
/// coordinate of the box within +-2^28, so that none is ever clamped.
CROWD_HD inline AgentGrid makeAgentGrid(float minX, float minY, float maxX, float maxY, float cellSize,
                                        std::uint32_t buckets) {
  const float lo = minX < minY ? minX : minY;
  const float hi = maxX > maxY ? maxX : maxY;
  const float extent = (-lo > hi ? -lo : hi) * 0x1.0p-28f;
  if (cellSize < extent) cellSize = extent;
  AgentGrid grid;
  grid.cellSize = cellSize;
  grid.invCellSize = 1.0f / cellSize;
  grid.origin = CellCoord{gridCoordinate(minX * grid.invCellSize), gridCoordinate(minY * grid.invCellSize)};
  const CellCoord far{gridCoordinate(maxX * grid.invCellSize), gridCoordinate(maxY * grid.invCellSize)};
  grid.columns = static_cast<std::uint32_t>(static_cast<long long>(far.x) - grid.origin.x + 1);
  grid.rows = static_cast<std::uint32_t>(static_cast<long long>(far.y) - grid.origin.y + 1);
  grid.originZ = 0;
  grid.layers = 1;
  grid.bucketMask = buckets - 1;
  grid.wraps = static_cast<unsigned long long>(grid.columns) * grid.rows > buckets;
  return grid;
}

/// The cell side for the next step, from the search range the last step's queries ended with
/// (on average over agents): the neighbour distance where neighbours are few (the K nearest
/// never fill the list), the distance to the K-th nearest in a crowd. Cells that wide hold
/// everything a query needs in the home cell and its 8 neighbours, and more rings are skipped
/// unread; smaller cells would add lookups, larger ones candidates. The size moves only when
/// the range has drifted by more than a tenth, so it does not wander from step to step, and it
/// is kept within [smallest, largest]. Results never depend on the cell size.
CROWD_HD inline float adaptedCellSize(float current, float meanRange, float smallest, float largest) {
  float next = current;
  if (meanRange > 1.1f * current || meanRange < 0.9f * current) next = meanRange;
  return next < smallest ? smallest : (next > largest ? largest : next);
}

/// Whether cell `c` lies in the agents' bounding box (cells outside it hold nobody).
CROWD_HD inline bool insideBox(const AgentGrid& grid, CellCoord c) {
  return static_cast<std::uint32_t>(c.x) - static_cast<std::uint32_t>(grid.origin.x) < grid.columns &&
         static_cast<std::uint32_t>(c.y) - static_cast<std::uint32_t>(grid.origin.y) < grid.rows;
}

/// The row-major index of a cell of the box: unique per cell.
CROWD_HD inline std::uint64_t cellKey(const AgentGrid& grid, CellCoord c) {
  const std::uint64_t row = static_cast<std::uint32_t>(c.y) - static_cast<std::uint32_t>(grid.origin.y);
  const std::uint64_t column = static_cast<std::uint32_t>(c.x) - static_cast<std::uint32_t>(grid.origin.x);
  return row * grid.columns + column;
}

/// The bucket of a key: the key modulo the bucket count, so a row's cells fill consecutive
/// buckets and agents sorted by bucket are sorted in space.
CROWD_HD inline std::uint32_t bucketOfKey(const AgentGrid& grid, std::uint64_t key) {
  return static_cast<std::uint32_t>(key) & grid.bucketMask;
}

/// A sparse world's cells are mostly empty, and asking the bucket table about each costs a
/// cache miss or two. A bitmap with a bit per cell key hashed into 4 bits per bucket (small
/// enough to stay in cache) answers most of those at once: a clear bit means an empty cell; a
/// set bit means "look it up" (wrongly set, for an empty cell, about once in ten times).
inline constexpr int kOccupancyBitsPerBucket = 4;

CROWD_HD inline std::uint32_t occupancyBit(const AgentGrid& grid, std::uint64_t key) {
  // Fibonacci hashing: the top bits of key * 2^64/phi spread neighbouring cells apart.
  const std::uint64_t mixed = key * 0x9E3779B97F4A7C15ull;
  return static_cast<std::uint32_t>(mixed >> 32) & (grid.bucketMask * kOccupancyBitsPerBucket + 3);
}

/// Marks the cell of sorted slot k in the occupancy bitmap when k is the cell's first slot, through
/// `setBit(bit)`, which must be atomic: neighbouring slots may mark bits of one word.
template <class SetBit>
CROWD_HD inline void markCellOfSlot(int k, const AgentGrid& grid, const std::uint64_t* slotKey,
                                    SetBit setBit) {
  if (k == 0 || slotKey[k] != slotKey[k - 1]) setBit(occupancyBit(grid, slotKey[k]));
}

/// Slot k's share (k = 0..n) of one pass over the n sorted slots that indexes the grid: slot k
/// writes the starts of the buckets after slot k - 1's up to its own (an empty bucket starts
/// where the next occupied one does), so each start is written once, and marks its cell. The
/// empty buckets before the first slot and after the last fall to one slot each: fine for a few
/// CPU threads, too unbalanced for a GPU's thousands (see bucketStartBySearch).
template <class SetBit>
CROWD_HD inline void indexSortedSlot(int k, int n, const AgentGrid& grid, std::uint32_t buckets,
                                     const std::uint64_t* slotKey, int* bucketStart, SetBit setBit) {
  const std::uint32_t previous = k == 0 ? 0 : bucketOfKey(grid, slotKey[k - 1]) + 1;
  const std::uint32_t current = k == n ? buckets : bucketOfKey(grid, slotKey[k]);
  for (std::uint32_t b = previous; b <= current; ++b) bucketStart[b] = k;
  if (k < n) markCellOfSlot(k, grid, slotKey, setBit);
}

/// Where bucket b's slots begin among the n sorted slots (for an empty bucket, where the next
/// occupied one's do; b = bucket count gives n): the same starts as indexSortedSlot writes, found
/// by binary search, so that every bucket costs the same however the occupied ones are spread.
CROWD_HD inline int bucketStartBySearch(std::uint32_t b, int n, const AgentGrid& grid,
                                        const std::uint64_t* slotKey) {
  int lo = 0;
  int hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (bucketOfKey(grid, slotKey[mid]) < b)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// The grid with its agents sorted by (bucket, key): what a query reads.
struct GridCells {
  AgentGrid grid;
  const std::uint64_t* occupied;  ///< Bit occupancyBit(key) of word bit / 64 is set for each occupied cell.
  const int* bucketStart;         ///< Bucket b holds sorted slots [bucketStart[b], bucketStart[b + 1]).
  const std::uint64_t* slotKey;   ///< Cell key per sorted slot; read only when the grid wraps.
};

struct SlotRange {
  int begin;
  int end;
};

/// The sorted slots of the agents in the cell with key `key` (a cell of the box).
CROWD_HD inline SlotRange slotsOfKey(const GridCells& cells, std::uint64_t key) {
  const std::uint32_t bit = occupancyBit(cells.grid, key);
  if (((cells.occupied[bit >> 6] >> (bit & 63)) & 1u) == 0) return SlotRange{0, 0};
  const std::uint32_t bucket = bucketOfKey(cells.grid, key);
  SlotRange range{cells.bucketStart[bucket], cells.bucketStart[bucket + 1]};
  // An empty bucket, though the bitmap said "look" (it does now and then for empty cells).
  if (!cells.grid.wraps || range.begin == range.end) return range;
  // Usually the bucket holds just this cell (or another one); otherwise find this key's run.
  if (cells.slotKey[range.begin] == key && cells.slotKey[range.end - 1] == key) return range;
  while (range.begin < range.end && cells.slotKey[range.begin] < key) ++range.begin;
  int last = range.begin;
  while (last < range.end && cells.slotKey[last] == key) ++last;
  range.end = last;
  return range;
}

/// The sorted slots of the agents in cell `c`.
CROWD_HD inline SlotRange slotsOfCell(const GridCells& cells, CellCoord c) {
  if (!insideBox(cells.grid, c)) return SlotRange{0, 0};
  return slotsOfKey(cells, cellKey(cells.grid, c));
}

/// Binning rounds (p * 1/cellSize in float), so an agent may sit a hair outside its cell: cell
/// edges are pulled in by a margin that covers that rounding for coordinates whose magnitudes sum
/// to `magnitude` (|x| + |y|, and + |z| in 3D).
constexpr float kMarginPerCell = 1e-4f;
constexpr float kMarginPerUnit = 1e-6f;
CROWD_HD inline float cellMarginAt(float cellSize, float magnitude) {
  return kMarginPerCell * cellSize + kMarginPerUnit * magnitude;
}

/// The margin for an agent at `p`: the distance bound below (cellDistSqBound) allows for it.
CROWD_HD inline float cellMargin(const AgentGrid& grid, Vec2 p) {
  return cellMarginAt(grid.cellSize, (p.x < 0.0f ? -p.x : p.x) + (p.y < 0.0f ? -p.y : p.y));
}

/// How far around an agent whose margin is `margin` the block of cells next to its own surely
/// reaches: a cell width, less the rounding for the agent and for the other, less a hair.
constexpr float kBlockShare = 0.999f;
CROWD_HD inline float blockReach(float cellSize, float margin) {
  return kBlockShare * cellSize - 2.0f * margin;
}

/// The narrowest cells whose block reaches `reach` (blockReach) for any agent whose coordinate
/// magnitudes sum to at most `magnitude`: far from the origin the rounding needs wider cells.
CROWD_HD inline float cellSideReaching(float reach, float magnitude) {
  return (reach + 2.0f * kMarginPerUnit * magnitude) / (kBlockShare - 2.0f * kMarginPerCell);
}

/// The larger magnitude of the edges of `count` cells from cell `from` on: in cell widths.
CROWD_HD inline float fartherEdge(int from, std::uint32_t count) {
  const long long low = from < 0 ? -static_cast<long long>(from) : from;
  const long long to = static_cast<long long>(from) + count;
  const long long high = to < 0 ? -to : to;
  return static_cast<float>(low > high ? low : high);
}

/// The largest |x| + |y| + |z| of any point in the grid's box of cells.
CROWD_HD inline float farthestMagnitude(const AgentGrid& grid) {
  return grid.cellSize * (fartherEdge(grid.origin.x, grid.columns) + fartherEdge(grid.origin.y, grid.rows) +
                          fartherEdge(grid.originZ, grid.layers));
}

CROWD_HD inline Vec2 cellCorner(const AgentGrid& grid, CellCoord c) {
  return Vec2(static_cast<float>(c.x) * grid.cellSize, static_cast<float>(c.y) * grid.cellSize);
}

CROWD_HD inline float cellDistSqBound(const AgentGrid& grid, Vec2 corner, Vec2 p, float margin) {
  const float x0 = corner.x;
  const float y0 = corner.y;
  const float below = x0 - p.x, above = p.x - (x0 + grid.cellSize);
  const float left = y0 - p.y, right = p.y - (y0 + grid.cellSize);
  const float dx = (below > above ? below : above) - margin;
  const float dy = (left > right ? left : right) - margin;
  return (dx > 0.0f ? dx * dx : 0.0f) + (dy > 0.0f ? dy * dy : 0.0f);
}

}  // namespace crowd
