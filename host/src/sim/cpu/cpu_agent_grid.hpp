// The agent grid (kernels/agent_grid.hpp) built on the CPU: a cell key per agent, a stable
// radix sort by bucket, and, where the grid wraps, a stable sort by key within each bucket.
// Within a cell agents keep their dense order, so the build is deterministic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <crowd/kernels/agent_grid.hpp>
#include <crowd/kernels/agent_grid_3d.hpp>
#include <crowd/kernels/agent_id.hpp>
#include <crowd/kernels/k_nearest.hpp>

#include "sim/cpu/radix_sort.hpp"

namespace crowd {

class CpuAgentGrid {
 public:
  /// Bins `positions` (dense order) into cells of side `cellSize`: square cells in a planar
  /// world, cubes in a 3D one (Vector Vec3, agent_grid_3d.hpp).
  void build(std::span<const Vec2> positions, float cellSize, int threads) {
    buildOver(positions, cellSize, threads);
  }
  void build(std::span<const Vec3> positions, float cellSize, int threads) {
    buildOver(positions, cellSize, threads);
  }

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

}  // namespace crowd
