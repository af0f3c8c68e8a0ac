// Agents binned into a hashed grid (kernels/hashed_grid.hpp) by a counting sort on the bucket,
// in the style of the classic GPU particle grid: bucket of each agent, sort by (bucket, index),
// bucket ranges. Within a bucket agents keep their index order, so the build is deterministic.
// Buckets follow the cells' row-major order, so agents sorted by bucket are sorted in space.
#pragma once

#include <span>
#include <vector>

#include <crowd/kernels/hashed_grid.hpp>

namespace crowd {

class AgentGrid {
 public:
  /// Bins `positions` into cells of side `cellSize`, with about two buckets per agent.
  void build(std::span<const Vec2> positions, float cellSize, int threads);

  const HashedGrid& geometry() const { return grid_; }
  /// Bucket b holds sorted positions [bucketStart()[b], bucketStart()[b + 1]).
  const std::vector<int>& bucketStart() const { return bucketStart_; }
  /// The agent (index into the positions given to build) at each sorted position.
  const std::vector<int>& sortedAgent() const { return sortedAgent_; }
  const std::vector<Vec2>& sortedPosition() const { return sortedPosition_; }

 private:
  HashedGrid grid_{};
  std::vector<unsigned> bucketOfAgent_;
  std::vector<int> bucketStart_;
  std::vector<int> sortedAgent_;
  std::vector<Vec2> sortedPosition_;
};

}  // namespace crowd
