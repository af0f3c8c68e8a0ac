// The agent grid (kernels/agent_grid.hpp) built on the CPU: a cell key per agent, a stable
// radix sort by bucket, and, where the grid wraps, a stable sort by key within each bucket.
// Within a cell agents keep their dense order, so the build is deterministic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <crowd/kernels/agent_grid.hpp>
#include <crowd/kernels/agent_id.hpp>
#include <crowd/kernels/agent_grid_3d.hpp>
#include <crowd/kernels/k_nearest.hpp>

#include "sim/cpu/radix_sort.hpp"

namespace crowd {

class CpuAgentGrid {
 public:
  /// Bins `positions` (dense order) into cells of side `cellSize`: square cells in a planar
  /// world, cubes in a 3D one (Vector Vec3, agent_grid_3d.hpp).
  void build(std::span<const Vec2> positions, float cellSize, int threads) { buildOver(positions, cellSize, threads); }
  void build(std::span<const Vec3> positions, float cellSize, int threads) { buildOver(positions, cellSize, threads); }

  /// The grid as queries read it; slot indices are positions in order().
  GridCells cells() const { return GridCells{grid_, occupied_.data(), bucketStart_.data(), slotKey_.data()}; }
  /// The dense index of the agent in each sorted slot.
  const std::vector<int>& order() const { return order_; }
  const AgentGrid& geometry() const { return grid_; }

  std::size_t bytes() const;

 private:
  template <class Vector>
  void buildOver(std::span<const Vector> positions, float cellSize, int threads);
  void sortBucketsByKey(int threads);
  void sortBucketSmall(int begin, int end);
  void sortBucketLarge(int begin, int end);

  AgentGrid grid_{};
  RadixSorter radix_;
  std::vector<std::uint32_t> bucketOfAgent_;
  std::vector<std::uint64_t> slotKey_;
  std::vector<std::uint64_t> occupied_;
  std::vector<int> bucketStart_;
  std::vector<int> order_;
};

/// Points binned in a 3D agent grid for the K-nearest queries of measurements (contacts, start-up
/// overlaps): the grid, the points in its order and each one's index in `positions` (as its id).
struct SortedPoints3 {
  SortedPoints3(std::span<const Vec3> positions, float cellSize, int threads);
  /// The `k` nearest other points within sqrt(rangeSq) of sorted point `s` (entries: sorted indices).
  void nearest(int s, int k, float rangeSq, AgentNeighbours& out) const;
  /// Calls visit(j, distSq) for every other sorted point j within sqrt(rangeSq) of sorted point
  /// `s`, however many; rangeSq at most the square of the cell size given at construction.
  template <class Visit>
  void forEachWithin(int s, float rangeSq, Visit&& visit) const {
    const GridCells cells = grid.cells();
    const Vec3 p = sorted[static_cast<std::size_t>(s)];
    const CellCoord3 c = gridCellOf(cells.grid, p);
    for (int dz = -1; dz <= 1; ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const SlotRange range = slotsOfCell(cells, CellCoord3{c.x + dx, c.y + dy, c.z + dz});
          for (int j = range.begin; j < range.end; ++j) {
            const float distSq = absSq(sorted[static_cast<std::size_t>(j)] - p);
            if (j != s && distSq < rangeSq) visit(j, distSq);
          }
        }
      }
    }
  }
  /// The index in `positions` of sorted point `s`.
  std::size_t dense(int s) const { return ids[static_cast<std::size_t>(s)].index; }

  CpuAgentGrid grid;
  std::vector<Vec3> sorted;
  std::vector<AgentId> ids;
};

}  // namespace crowd
