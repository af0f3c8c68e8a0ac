// The agent grid: cell maths, exact cell lookup whether or not the grid wraps, the cell
// distance bound that prunes queries, and the K-nearest search against brute force.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/kernels/neighbour_search.hpp>

#include "sim/cpu/cpu_agent_grid.hpp"

namespace crowd {
namespace {

TEST(KernelAgentGrid, CellCoordinatesFloorTowardsMinusInfinity) {
  EXPECT_EQ(gridCoordinate(0.0f), 0);
  EXPECT_EQ(gridCoordinate(2.99f), 2);
  EXPECT_EQ(gridCoordinate(3.0f), 3);
  EXPECT_EQ(gridCoordinate(-0.01f), -1);
  EXPECT_EQ(gridCoordinate(-3.0f), -3);
  EXPECT_EQ(gridCoordinate(-3.5f), -4);
  // Out of range and non-finite values clamp instead of overflowing.
  EXPECT_EQ(gridCoordinate(1e20f), 1 << 30);
  EXPECT_EQ(gridCoordinate(-INFINITY), -(1 << 30));
  EXPECT_EQ(gridCoordinate(NAN), -(1 << 30));
}

TEST(KernelAgentGrid, BoxThatFitsIsADenseRowMajorGrid) {
  const AgentGrid grid = makeAgentGrid(-6.0f, 10.0f, 13.0f, 21.0f, 2.0f, 64);
  ASSERT_FALSE(grid.wraps);
  EXPECT_EQ(grid.columns, 10u);
  EXPECT_EQ(grid.rows, 6u);
  std::set<std::uint32_t> seen;
  for (int y = 5; y < 11; ++y) {
    for (int x = -3; x < 7; ++x) {
      const std::uint64_t key = cellKey(grid, CellCoord{x, y});
      EXPECT_EQ(key, static_cast<std::uint64_t>((y - 5) * 10 + (x + 3)));
      EXPECT_TRUE(insideBox(grid, CellCoord{x, y}));
      seen.insert(bucketOfKey(grid, key));
    }
  }
  EXPECT_EQ(seen.size(), 60u);  // No two cells of the box share a bucket.
  EXPECT_FALSE(insideBox(grid, CellCoord{-4, 5}));
  EXPECT_FALSE(insideBox(grid, CellCoord{7, 5}));
  EXPECT_FALSE(insideBox(grid, CellCoord{0, 11}));
  EXPECT_FALSE(insideBox(grid, CellCoord{0, 4}));
}

TEST(KernelAgentGrid, HugeSparseBoxWrapsWithDistinctKeys) {
  // A ring a million units across in cells of 7.5: 7e10 cells, keys beyond 32 bits.
  const AgentGrid grid = makeAgentGrid(-1e6f, -1e6f, 1e6f, 1e6f, 7.5f, 1u << 16);
  ASSERT_TRUE(grid.wraps);
  const std::uint64_t far = cellKey(grid, gridCellOf(grid, Vec2(1e6f, 1e6f)));
  EXPECT_GT(far, std::uint64_t{1} << 32);
  EXPECT_NE(far, cellKey(grid, gridCellOf(grid, Vec2(1e6f - 7.5f, 1e6f))));
  EXPECT_LE(bucketOfKey(grid, far), grid.bucketMask);
}

TEST(KernelAgentGrid, CellDistanceBoundNeverExceedsTheTrueDistance) {
  std::mt19937 rng(4);
  for (const float scale : {50.0f, 5e3f, 1e6f}) {
    std::uniform_real_distribution<float> coord(-scale, scale);
    const AgentGrid grid = makeAgentGrid(-scale, -scale, scale, scale, 7.5f, 1u << 20);
    for (int i = 0; i < 20000; ++i) {
      const Vec2 binned(coord(rng), coord(rng));
      const CellCoord cell = gridCellOf(grid, binned);
      const Vec2 query(binned.x + coord(rng) * 1e-3f, binned.y + coord(rng) * 1e-3f);
      const float bound = cellDistSqBound(grid, cellCorner(grid, cell), query, cellMargin(grid, query));
      ASSERT_LE(bound, absSq(binned - query)) << "scale " << scale << " cell " << cell.x << "," << cell.y;
    }
  }
  const AgentGrid grid = makeAgentGrid(0.0f, 0.0f, 100.0f, 100.0f, 7.5f, 1024);
  // Inside its own cell the bound is zero; further away it is the gap less the margin.
  EXPECT_EQ(cellDistSqBound(grid, cellCorner(grid, CellCoord{0, 0}), Vec2(3.0f, 3.0f),
                            cellMargin(grid, Vec2(3.0f, 3.0f))),
            0.0f);
  EXPECT_NEAR(cellDistSqBound(grid, cellCorner(grid, CellCoord{2, 0}), Vec2(3.0f, 3.0f),
                              cellMargin(grid, Vec2(3.0f, 3.0f))),
              sqr(12.0f - 7.5e-4f - 6e-6f), 1e-3f);
}

// Agents scattered over a few clusters far apart, so that a small bucket table wraps.
std::vector<Vec2> clusteredPositions(int count, float spread, float apart, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<Vec2> positions;
  for (int i = 0; i < count; ++i) {
    const int cluster = i % 5;
    positions.emplace_back(apart * static_cast<float>(cluster) + spread * unit(rng),
                           apart * static_cast<float>(cluster % 2) + spread * unit(rng));
  }
  return positions;
}

// The GPU's bucket starts (a binary search per bucket) against the CPU's pass over the slots, on
// crowds whose occupied buckets leave long empty runs at the start, the end and between them.
TEST(KernelAgentGrid, BucketStartsBySearchMatchTheSlotPass) {
  std::mt19937 random(7);
  for (const bool wraps : {false, true}) {
    for (const int n : {1, 2, 37, 500}) {
      const float size = wraps ? 1e5f : std::floor(std::sqrt(static_cast<float>(bucketCountFor(n)))) - 1.0f;
      const AgentGrid grid = makeAgentGrid(0.0f, 0.0f, size, size, 1.0f, bucketCountFor(n));
      ASSERT_EQ(grid.wraps, wraps);
      // One cluster in a corner of the box: most buckets lie before or after it.
      std::uniform_real_distribution<float> near(size * 0.6f, size * 0.6f + std::min(5.0f, size * 0.3f));
      std::vector<std::uint64_t> keys;
      for (int i = 0; i < n; ++i)
        keys.push_back(cellKey(grid, gridCellOf(grid, Vec2{near(random), near(random)})));
      std::sort(keys.begin(), keys.end(), [&](std::uint64_t a, std::uint64_t b) {
        return bucketOfKey(grid, a) != bucketOfKey(grid, b) ? bucketOfKey(grid, a) < bucketOfKey(grid, b)
                                                            : a < b;
      });
      const std::uint32_t buckets = grid.bucketMask + 1;
      std::vector<int> byPass(buckets + 1, -1);
      std::set<std::uint32_t> bitsByPass, bitsBySlot;
      for (int k = 0; k <= n; ++k) {
        indexSortedSlot(k, n, grid, buckets, keys.data(), byPass.data(),
                        [&](std::uint32_t bit) { bitsByPass.insert(bit); });
      }
      for (std::uint32_t b = 0; b <= buckets; ++b) {
        ASSERT_EQ(bucketStartBySearch(b, n, grid, keys.data()), byPass[b])
            << "bucket " << b << ", " << n << " agents";
      }
      for (int k = 0; k < n; ++k)
        markCellOfSlot(k, grid, keys.data(), [&](std::uint32_t bit) { bitsBySlot.insert(bit); });
      EXPECT_EQ(bitsBySlot, bitsByPass);
      std::set<std::uint32_t> expected;
      for (std::uint64_t key : keys) expected.insert(occupancyBit(grid, key));
      EXPECT_EQ(bitsBySlot, expected) << "every occupied cell's bit, and no other";
    }
  }
}

TEST(CpuAgentGrid, EveryCellIsOneRunInDenseOrderWhetherOrNotItWraps) {
  for (const float apart : {30.0f, 1e5f}) {  // Dense, then wrapping.
    const std::vector<Vec2> positions = clusteredPositions(3000, 40.0f, apart, 9);
    CpuAgentGrid grid;
    grid.build(positions, 2.5f, 2);
    const GridCells cells = grid.cells();
    EXPECT_EQ(cells.grid.wraps, apart > 1000.0f);
    std::map<std::uint64_t, std::vector<int>> expected;  // Cell key -> agents, dense order.
    for (int i = 0; i < static_cast<int>(positions.size()); ++i) {
      expected[cellKey(cells.grid, gridCellOf(cells.grid, positions[i]))].push_back(i);
    }
    for (const auto& [key, agents] : expected) {
      const Vec2 p = positions[static_cast<std::size_t>(agents.front())];
      const SlotRange slots = slotsOfCell(cells, gridCellOf(cells.grid, p));
      ASSERT_EQ(slots.end - slots.begin, static_cast<int>(agents.size())) << "cell " << key;
      for (int k = slots.begin; k < slots.end; ++k) {
        EXPECT_EQ(grid.order()[static_cast<std::size_t>(k)],
                  agents[static_cast<std::size_t>(k - slots.begin)]);
      }
    }
    // A cell next to an occupied one but empty itself yields nothing, even if its bucket is used.
    const CellCoord empty{gridCellOf(cells.grid, Vec2(apart * 2.0f + 20.0f, -500.0f))};
    const SlotRange none = slotsOfCell(cells, empty);
    EXPECT_EQ(none.begin, none.end);
  }
}

// The K nearest by brute force, RVO2's rule: strictly within range, nearest first, ties by id.
std::vector<int> bruteForceNearest(const std::vector<Vec2>& positions, int self, int k, float rangeSq) {
  std::vector<std::pair<float, int>> all;
  for (int j = 0; j < static_cast<int>(positions.size()); ++j) {
    if (j == self) continue;
    const float d = absSq(positions[static_cast<std::size_t>(self)] - positions[static_cast<std::size_t>(j)]);
    if (d < rangeSq) all.emplace_back(d, j);
  }
  std::sort(all.begin(), all.end());
  std::vector<int> out;
  for (std::size_t m = 0; m < all.size() && static_cast<int>(m) < k; ++m) out.push_back(all[m].second);
  return out;
}

TEST(NeighbourSearch, MatchesBruteForceForEveryCellSizeAndLayout) {
  const float neighborDist = 6.0f;
  for (const float apart : {25.0f, 1e5f}) {
    // Snapped to a lattice of 0.25 so that many distances tie exactly and ids must break them.
    std::vector<Vec2> positions = clusteredPositions(1500, 25.0f, apart, 3);
    for (Vec2& p : positions) p = Vec2(std::round(p.x * 4.0f) / 4.0f, std::round(p.y * 4.0f) / 4.0f);
    for (const float cellSize :
         {neighborDist / 2.5f, neighborDist / 2.0f, neighborDist, 2.0f * neighborDist}) {
      CpuAgentGrid grid;
      grid.build(positions, cellSize, 2);
      std::vector<Vec2> sorted;
      std::vector<AgentId> ids;
      for (const int i : grid.order()) {
        sorted.push_back(positions[static_cast<std::size_t>(i)]);
        ids.push_back(AgentId{static_cast<std::uint32_t>(i), 0});
      }
      CellNeighbourhood hood;
      long long candidates = 0;
      for (int k = 0; k < static_cast<int>(sorted.size()); ++k) {
        AgentNeighbours nearest;
        // The near threshold decides only how the work is split: try none, a typical one, all.
        const float threshold = k % 3 == 0 ? 0.0f : (k % 3 == 1 ? 4.0f : INFINITY);
        candidates +=
            findNearestAgents(grid.cells(), hood, sorted.data(), ids.data(), k,
                              sorted[static_cast<std::size_t>(k)], 10, sqr(neighborDist), threshold, nearest);
        const int self = grid.order()[static_cast<std::size_t>(k)];
        const std::vector<int> expected = bruteForceNearest(positions, self, 10, sqr(neighborDist));
        ASSERT_EQ(nearest.count, static_cast<int>(expected.size()))
            << "agent " << self << " cell " << cellSize;
        for (int m = 0; m < nearest.count; ++m) {
          EXPECT_EQ(grid.order()[static_cast<std::size_t>(nearest.index(m))],
                    expected[static_cast<std::size_t>(m)])
              << "agent " << self << " neighbour " << m << " cell " << cellSize;
        }
        // The GPU's search, without the cell cache, finds the same list, range included.
        AgentNeighbours direct;
        findNearestAgentsDirect(grid.cells(), sorted.data(), ids.data(), k,
                                sorted[static_cast<std::size_t>(k)], 10, sqr(neighborDist), direct);
        ASSERT_EQ(direct.count, nearest.count) << "agent " << self << " cell " << cellSize;
        EXPECT_EQ(direct.rangeSq, nearest.rangeSq) << "agent " << self << " cell " << cellSize;
        for (int m = 0; m < direct.count; ++m) {
          EXPECT_EQ(direct.index(m), nearest.index(m))
              << "agent " << self << " neighbour " << m << " cell " << cellSize;
        }
        // So does it with the list kept in registers, as the GPU runs it for K up to 16.
        NearestInRegisters<16> registers;
        findNearestAgentsDirect(grid.cells(), sorted.data(), ids.data(), k,
                                sorted[static_cast<std::size_t>(k)], 10, sqr(neighborDist), registers);
        ASSERT_EQ(registers.count, nearest.count) << "agent " << self << " cell " << cellSize;
        EXPECT_EQ(registers.rangeSq, nearest.rangeSq) << "agent " << self << " cell " << cellSize;
        registers.forEachKept([&](int m, int slot) {
          EXPECT_EQ(slot, nearest.index(m)) << "agent " << self << " neighbour " << m << " cell " << cellSize;
        });
      }
      // A query reads the 3 x 3 cells around its own and, of the outer rings (up to 7 x 7 cells
      // for the smallest cells), only what the K-th distance reaches: fewer agents than 16
      // cells hold on average (clusters of 300 in 25 x 25, 0.48 per unit area).
      EXPECT_LT(static_cast<double>(candidates),
                16.0 * 0.48 * sqr(cellSize) * static_cast<double>(sorted.size()))
          << cellSize;
    }
  }
}

}  // namespace
}  // namespace crowd
