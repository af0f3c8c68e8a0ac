#include "agent_grid.hpp"

#include <algorithm>
#include <cmath>

namespace crowd {

void AgentGrid::build(std::span<const Vec2> positions, float cellSize, int threads) {
  const int n = static_cast<int>(positions.size());
  float minX = INFINITY, minY = INFINITY, maxX = -INFINITY, maxY = -INFINITY;
#pragma omp parallel for num_threads(threads) reduction(min : minX, minY) reduction(max : maxX, maxY)
  for (int i = 0; i < n; ++i) {
    minX = std::min(minX, positions[i].x);
    minY = std::min(minY, positions[i].y);
    maxX = std::max(maxX, positions[i].x);
    maxY = std::max(maxY, positions[i].y);
  }
  if (n == 0) minX = minY = maxX = maxY = 0.0f;
  const unsigned buckets = bucketCountFor(n);
  grid_ = makeHashedGrid(minX, minY, maxX, maxY, cellSize, buckets);

  bucketOfAgent_.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int i = 0; i < n; ++i) bucketOfAgent_[i] = bucketOf(grid_, hashedCellOf(grid_, positions[i]));

  // Counting sort on the bucket; the scatter runs in index order, so it is stable.
  bucketStart_.assign(static_cast<std::size_t>(buckets) + 1, 0);
  for (int i = 0; i < n; ++i) ++bucketStart_[bucketOfAgent_[i] + 1];
  for (unsigned b = 0; b < buckets; ++b) bucketStart_[b + 1] += bucketStart_[b];
  sortedAgent_.resize(static_cast<std::size_t>(n));
  std::vector<int> fill(bucketStart_.begin(), bucketStart_.end() - 1);
  for (int i = 0; i < n; ++i) sortedAgent_[fill[bucketOfAgent_[i]]++] = i;

  sortedPosition_.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int k = 0; k < n; ++k) sortedPosition_[k] = positions[sortedAgent_[k]];
}

}  // namespace crowd
