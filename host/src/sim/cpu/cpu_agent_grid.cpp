#include "sim/cpu/cpu_agent_grid.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <utility>

#include <crowd/kernels/neighbour_search_3d.hpp>

namespace crowd {

namespace {

/// The grid over the bounding box of `positions`.
AgentGrid gridAround(std::span<const Vec2> positions, float cellSize, std::uint32_t buckets, int threads) {
  const int n = static_cast<int>(positions.size());
  if (n == 0) return makeAgentGrid(0.0f, 0.0f, 0.0f, 0.0f, cellSize, buckets);
  float minX = INFINITY, minY = INFINITY, maxX = -INFINITY, maxY = -INFINITY;
#pragma omp parallel for reduction(min : minX, minY) reduction(max : maxX, maxY) num_threads(threads)
  for (int i = 0; i < n; ++i) {
    minX = std::min(minX, positions[i].x);
    minY = std::min(minY, positions[i].y);
    maxX = std::max(maxX, positions[i].x);
    maxY = std::max(maxY, positions[i].y);
  }
  return makeAgentGrid(minX, minY, maxX, maxY, cellSize, buckets);
}

AgentGrid gridAround(std::span<const Vec3> positions, float cellSize, std::uint32_t buckets, int threads) {
  const int n = static_cast<int>(positions.size());
  if (n == 0) return makeAgentGrid3(Vec3(0.0f), Vec3(0.0f), cellSize, buckets);
  float minX = INFINITY, minY = INFINITY, minZ = INFINITY, maxX = -INFINITY, maxY = -INFINITY,
        maxZ = -INFINITY;
  // The clauses on one line: clang-format would break them apart.
  // clang-format off
#pragma omp parallel for reduction(min : minX, minY, minZ) reduction(max : maxX, maxY, maxZ) num_threads(threads)
  // clang-format on
  for (int i = 0; i < n; ++i) {
    minX = std::min(minX, positions[i].x);
    minY = std::min(minY, positions[i].y);
    minZ = std::min(minZ, positions[i].z);
    maxX = std::max(maxX, positions[i].x);
    maxY = std::max(maxY, positions[i].y);
    maxZ = std::max(maxZ, positions[i].z);
  }
  return makeAgentGrid3(Vec3(minX, minY, minZ), Vec3(maxX, maxY, maxZ), cellSize, buckets);
}

}  // namespace

template <class Vector>
void CpuAgentGrid::buildOver(std::span<const Vector> positions, float cellSize, int threads) {
  const int n = static_cast<int>(positions.size());
  const std::uint32_t buckets = bucketCountFor(n);
  bucketOfAgent_.resize(static_cast<std::size_t>(n));
  grid_ = gridAround(positions, cellSize, buckets, threads);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int i = 0; i < n; ++i)
    bucketOfAgent_[i] = bucketOfKey(grid_, cellKey(grid_, gridCellOf(grid_, positions[i])));

  // Stable: within a bucket agents keep their dense order.
  radix_.sort(bucketOfAgent_, std::countr_zero(buckets), order_, threads);

  slotKey_.resize(static_cast<std::size_t>(n));
  bucketStart_.resize(static_cast<std::size_t>(buckets) + 1);
  occupied_.assign(static_cast<std::size_t>(buckets) * kOccupancyBitsPerBucket / 64, 0);
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static)
    // The key again rather than kept from above: 8 bytes an agent less to hold.
    for (int k = 0; k < n; ++k) slotKey_[k] = cellKey(grid_, gridCellOf(grid_, positions[order_[k]]));
#pragma omp for schedule(static)
    for (int k = 0; k <= n; ++k) {
      indexSortedSlot(k, n, grid_, buckets, slotKey_.data(), bucketStart_.data(), [this](std::uint32_t bit) {
        std::atomic_ref<std::uint64_t>(occupied_[bit >> 6])
            .fetch_or(std::uint64_t{1} << (bit & 63), std::memory_order_relaxed);
      });
    }
  }
  if (grid_.wraps) sortBucketsByKey(threads);
}

// Cells sharing a bucket: order each bucket by key, stably, so each cell is one run. The scan
// runs over the sorted slots, not over the (twice as many, mostly empty) buckets; a bucket is
// checked and sorted by the thread that meets its first slot, and other threads tell where
// buckets begin from the sorted bucket numbers, which the sorting leaves alone.
void CpuAgentGrid::sortBucketsByKey(int threads) {
  const std::span<const std::uint32_t> bucketOfSlot = radix_.sortedKeys();
  const int n = static_cast<int>(order_.size());
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads)
  for (int k = 0; k < n; ++k) {
    const std::uint32_t bucket = bucketOfSlot[k];
    if (k > 0 && bucketOfSlot[k - 1] == bucket) continue;  // Not the bucket's first slot.
    const int end = bucketStart_[bucket + 1];
    bool oneCell = true;  // Usually: a few agents of one cell.
    for (int j = k + 1; j < end && oneCell; ++j) oneCell = slotKey_[j] == slotKey_[k];
    if (oneCell) continue;
    if (end - k <= 32) {
      sortBucketSmall(k, end);
    } else {
      sortBucketLarge(k, end);
    }
  }
}

// Insertion sort: buckets hold a handful of agents.
void CpuAgentGrid::sortBucketSmall(int begin, int end) {
  for (int k = begin + 1; k < end; ++k) {
    const std::uint64_t key = slotKey_[k];
    const int agent = order_[k];
    int j = k;
    for (; j > begin && slotKey_[j - 1] > key; --j) {
      slotKey_[j] = slotKey_[j - 1];
      order_[j] = order_[j - 1];
    }
    slotKey_[j] = key;
    order_[j] = agent;
  }
}

// A crowded bucket (thousands on one spot sharing it with another cell): O(m log m).
void CpuAgentGrid::sortBucketLarge(int begin, int end) {
  std::vector<std::pair<std::uint64_t, int>> entries;
  entries.reserve(static_cast<std::size_t>(end - begin));
  for (int k = begin; k < end; ++k) entries.emplace_back(slotKey_[k], order_[k]);
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (int k = begin; k < end; ++k) {
    slotKey_[k] = entries[static_cast<std::size_t>(k - begin)].first;
    order_[k] = entries[static_cast<std::size_t>(k - begin)].second;
  }
}

template void CpuAgentGrid::buildOver(std::span<const Vec2>, float, int);
template void CpuAgentGrid::buildOver(std::span<const Vec3>, float, int);

std::size_t CpuAgentGrid::bytes() const {
  return (slotKey_.capacity() + occupied_.capacity()) * sizeof(std::uint64_t) +
         (bucketStart_.capacity() + order_.capacity()) * sizeof(int) +
         bucketOfAgent_.capacity() * sizeof(std::uint32_t) + radix_.bytes();
}

}  // namespace crowd
