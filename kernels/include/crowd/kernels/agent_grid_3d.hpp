// The agent grid of a 3D world: cubic cells over the agents' bounding box. Only the cell
// coordinates and the key differ from the planar grid (agent_grid.hpp): a key is the cell's
// index in the box, layer by layer, and from the key on everything is shared: buckets, the sort,
// the bucket starts, the occupancy bitmap and the lookup of a cell's slots.
#pragma once

#include <cstdint>

#include "agent_grid.hpp"
#include "config.hpp"
#include "vec3.hpp"

namespace crowd {

struct CellCoord3 {
  int x;
  int y;
  int z;
};

CROWD_HD inline CellCoord3 gridCellOf(const AgentGrid& grid, Vec3 p) {
  return CellCoord3{gridCoordinate(p.x * grid.invCellSize), gridCoordinate(p.y * grid.invCellSize),
                    gridCoordinate(p.z * grid.invCellSize)};
}

/// The grid over the box [lo, hi] with the given cell side and bucket count (a power of two).
/// Cells are made larger where needed to keep every cell coordinate within +-2^20, so that the
/// box has fewer than 2^63 cells and a key never overflows.
CROWD_HD inline AgentGrid makeAgentGrid3(Vec3 lo, Vec3 hi, float cellSize, std::uint32_t buckets) {
  float extent = 0.0f;
  const float bounds[6] = {lo.x, lo.y, lo.z, hi.x, hi.y, hi.z};
  for (float b : bounds) extent = (b < 0.0f ? -b : b) > extent ? (b < 0.0f ? -b : b) : extent;
  extent *= 0x1.0p-20f;
  if (cellSize < extent) cellSize = extent;
  AgentGrid grid = makeAgentGrid(lo.x, lo.y, hi.x, hi.y, cellSize, buckets);
  grid.originZ = gridCoordinate(lo.z * grid.invCellSize);
  grid.layers = static_cast<std::uint32_t>(static_cast<long long>(gridCoordinate(hi.z * grid.invCellSize)) -
                                           grid.originZ + 1);
  grid.wraps = static_cast<unsigned long long>(grid.columns) * grid.rows * grid.layers > buckets;
  return grid;
}

CROWD_HD inline bool insideBox(const AgentGrid& grid, CellCoord3 c) {
  return insideBox(grid, CellCoord{c.x, c.y}) &&
         static_cast<std::uint32_t>(c.z) - static_cast<std::uint32_t>(grid.originZ) < grid.layers;
}

/// The cell's index in the box, layer by layer: a planar grid's key within its layer.
CROWD_HD inline std::uint64_t cellKey(const AgentGrid& grid, CellCoord3 c) {
  const std::uint64_t layer = static_cast<std::uint32_t>(c.z) - static_cast<std::uint32_t>(grid.originZ);
  return layer * grid.rows * grid.columns + cellKey(grid, CellCoord{c.x, c.y});
}

CROWD_HD inline SlotRange slotsOfCell(const GridCells& cells, CellCoord3 c) {
  if (!insideBox(cells.grid, c)) return SlotRange{0, 0};
  return slotsOfKey(cells, cellKey(cells.grid, c));
}

/// As the planar cellMargin: binning rounds, so an agent may sit a hair outside its cell.
CROWD_HD inline float cellMargin(const AgentGrid& grid, Vec3 p) {
  return cellMarginAt(grid.cellSize,
                      (p.x < 0.0f ? -p.x : p.x) + (p.y < 0.0f ? -p.y : p.y) + (p.z < 0.0f ? -p.z : p.z));
}

CROWD_HD inline Vec3 cellCorner(const AgentGrid& grid, CellCoord3 c) {
  return Vec3(static_cast<float>(c.x) * grid.cellSize, static_cast<float>(c.y) * grid.cellSize,
              static_cast<float>(c.z) * grid.cellSize);
}

/// A lower bound on the squared distance from `p` to anything binned in the cell at `corner`.
CROWD_HD inline float cellDistSqBound(const AgentGrid& grid, Vec3 corner, Vec3 p, float margin) {
  float sum = 0.0f;
  const float lo[3] = {corner.x, corner.y, corner.z};
  const float at[3] = {p.x, p.y, p.z};
  for (int i = 0; i < 3; ++i) {
    const float below = lo[i] - at[i];
    const float above = at[i] - (lo[i] + grid.cellSize);
    const float d = (below > above ? below : above) - margin;
    sum += d > 0.0f ? d * d : 0.0f;
  }
  return sum;
}

/// How far `p` lies inside its own cell (at `corner`) from the nearest face, less the margin.
CROWD_HD inline float cellInset(const AgentGrid& grid, Vec3 corner, Vec3 p, float margin) {
  const float lo[3] = {corner.x, corner.y, corner.z};
  const float at[3] = {p.x, p.y, p.z};
  float inset = grid.cellSize;
  for (int i = 0; i < 3; ++i) {
    const float toLow = at[i] - lo[i];
    const float toHigh = lo[i] + grid.cellSize - at[i];
    const float nearer = toLow < toHigh ? toLow : toHigh;
    inset = nearer < inset ? nearer : inset;
  }
  return inset - margin;
}

}  // namespace crowd
