// The 3D agent grid (agent_grid_3d.hpp) and its K-nearest search (neighbour_search_3d.hpp):
// keys unique per cell and equal to the planar ones in layer 0, exact cell lookup whether or
// not the grid wraps, and the K nearest against brute force, ties by id, both as the GPU reads
// the grid and through the CPU's block tile (reused along the agents of a cell, or overflowing).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/kernels/neighbour_search_3d.hpp>

#include "sim/cpu/cpu_agent_grid.hpp"

namespace crowd {
namespace {

TEST(KernelAgentGrid3d, BoxThatFitsIsADenseLayeredGrid) {
  const AgentGrid grid = makeAgentGrid3(Vec3(-6.0f, 10.0f, -1.0f), Vec3(13.0f, 21.0f, 3.9f), 2.0f, 512);
  ASSERT_FALSE(grid.wraps);
  EXPECT_EQ(grid.columns, 10u);
  EXPECT_EQ(grid.rows, 6u);
  EXPECT_EQ(grid.layers, 3u);  // z cells -1, 0, 1.
  std::set<std::uint64_t> keys;
  for (int z = -1; z <= 1; ++z) {
    for (int y = 5; y < 11; ++y) {
      for (int x = -3; x < 7; ++x) {
        const std::uint64_t key = cellKey(grid, CellCoord3{x, y, z});
        EXPECT_EQ(key, static_cast<std::uint64_t>(((z + 1) * 6 + (y - 5)) * 10 + (x + 3)));
        EXPECT_TRUE(insideBox(grid, CellCoord3{x, y, z}));
        keys.insert(key);
      }
    }
  }
  EXPECT_EQ(keys.size(), 180u);
  EXPECT_FALSE(insideBox(grid, CellCoord3{0, 5, -2}));
  EXPECT_FALSE(insideBox(grid, CellCoord3{0, 5, 2}));
  EXPECT_FALSE(insideBox(grid, CellCoord3{7, 5, 0}));
  // A planar grid is layer 0 of the same scheme: its keys do not change.
  const AgentGrid planar = makeAgentGrid(-6.0f, 10.0f, 13.0f, 21.0f, 2.0f, 512);
  EXPECT_EQ(planar.layers, 1u);
  EXPECT_EQ(cellKey(planar, CellCoord{4, 7}), cellKey(grid, CellCoord3{4, 7, -1}));
}

TEST(KernelAgentGrid3d, HugeBoxKeepsKeysDistinctWithoutOverflow) {
  // A box two million units wide in cells of 1.5: the cell side is raised so that the box has
  // fewer than 2^63 cells, and neighbouring cells keep distinct keys.
  const AgentGrid grid = makeAgentGrid3(Vec3(-1e6f), Vec3(1e6f), 1.5f, 1u << 16);
  ASSERT_TRUE(grid.wraps);
  EXPECT_LT(static_cast<double>(grid.columns) * grid.rows * grid.layers, 9.3e18);
  const std::uint64_t far = cellKey(grid, gridCellOf(grid, Vec3(1e6f)));
  EXPECT_NE(far, cellKey(grid, gridCellOf(grid, Vec3(1e6f, 1e6f, 1e6f - grid.cellSize))));
  EXPECT_NE(far, cellKey(grid, gridCellOf(grid, Vec3(1e6f - grid.cellSize, 1e6f, 1e6f))));
}

TEST(KernelAgentGrid3d, CellDistanceBoundNeverExceedsTheTrueDistance) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coordinate(-50.0f, 50.0f);
  const AgentGrid grid = makeAgentGrid3(Vec3(-50.0f), Vec3(50.0f), 3.0f, 1u << 12);
  for (int i = 0; i < 20000; ++i) {
    const Vec3 p(coordinate(rng), coordinate(rng), coordinate(rng));
    const Vec3 q(coordinate(rng), coordinate(rng), coordinate(rng));
    const CellCoord3 c = gridCellOf(grid, q);
    EXPECT_LE(cellDistSqBound(grid, cellCorner(grid, c), p, cellMargin(grid, p)), absSq(p - q)) << i;
  }
}

// Clusters of agents (a swarm in a few boxes), snapped to a lattice of 0.25 so that many
// distances tie exactly and ids must break them.
std::vector<Vec3> clusteredSwarm(int n, float side, float apart, int clusters, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> within(0.0f, side);
  std::vector<Vec3> out;
  for (int i = 0; i < n; ++i) {
    const float offset = static_cast<float>(i % clusters) * apart;
    const Vec3 p(offset + within(rng), within(rng) - offset, within(rng));
    out.push_back(
        Vec3(std::round(p.x * 4.0f) / 4.0f, std::round(p.y * 4.0f) / 4.0f, std::round(p.z * 4.0f) / 4.0f));
  }
  return out;
}

std::vector<int> bruteForceNearest(const std::vector<Vec3>& positions, int self, int k, float rangeSq) {
  std::vector<std::pair<float, int>> all;
  for (int j = 0; j < static_cast<int>(positions.size()); ++j) {
    const float d = absSq(positions[static_cast<std::size_t>(self)] - positions[static_cast<std::size_t>(j)]);
    if (j != self && d < rangeSq) all.emplace_back(d, j);
  }
  std::sort(all.begin(), all.end());
  std::vector<int> out;
  for (std::size_t m = 0; m < all.size() && static_cast<int>(m) < k; ++m) out.push_back(all[m].second);
  return out;
}

TEST(NeighbourSearch3d, MatchesBruteForceForEveryCellSizeAndLayout) {
  const float neighborDist = 5.0f;
  for (const float apart : {12.0f, 1e5f}) {  // Clusters side by side, and far apart (a wrapping grid).
    const std::vector<Vec3> positions = clusteredSwarm(1200, 12.0f, apart, 3, 5);
    for (const float cellSize :
         {neighborDist / 2.5f, neighborDist / 2.0f, neighborDist, 2.0f * neighborDist}) {
      CpuAgentGrid grid;
      grid.build(std::span<const Vec3>(positions), cellSize, 2);
      std::vector<Vec3> sorted;
      std::vector<AgentId> ids;
      for (const int i : grid.order()) {
        sorted.push_back(positions[static_cast<std::size_t>(i)]);
        ids.push_back(AgentId{static_cast<std::uint32_t>(i), 0});
      }
      // The direct search, then the tiled one with near thresholds from none to everyone (and
      // NaN), recording each agent's candidate list within 0.8 cells where the tile allows.
      const float inf = std::numeric_limits<float>::infinity();
      const float nan = std::numeric_limits<float>::quiet_NaN();
      const float listRangeSq = sqr(0.8f * cellSize);
      const float thresholds[] = {-1.0f, 0.0f, 1.0f, 4.0f, inf, nan};
      long long candidates = 0;
      for (int pass = 0; pass <= 6; ++pass) {
        const bool tiled = pass > 0;  // The first pass is the direct search.
        const float thresholdSq = tiled ? thresholds[pass - 1] : 0.0f;
        auto tile = std::make_unique<BlockTile3>();
        int overflows = 0;
        int completeLists = 0;
        for (int k = 0; k < static_cast<int>(sorted.size()); ++k) {
          AgentNeighbours nearest;
          const Vec3 p = sorted[static_cast<std::size_t>(k)];
          const int self = grid.order()[static_cast<std::size_t>(k)];
          if (tiled) {
            int row[65];
            ListRecord record{row, 64, listRangeSq, 0};
            findNearestAgents(grid.cells(), *tile, sorted.data(), ids.data(), k, p, 10, sqr(neighborDist),
                              thresholdSq, nearest, &record);
            overflows += tile->count < 0 ? 1 : 0;
            if (record.count >= 0) {
              // A complete list holds exactly the agents within its range.
              ++completeLists;
              std::vector<int> listed;
              for (int m = 0; m < record.count; ++m)
                listed.push_back(grid.order()[static_cast<std::size_t>(row[m])]);
              std::vector<int> within = bruteForceNearest(positions, self, 1 << 30, listRangeSq);
              std::sort(listed.begin(), listed.end());
              std::sort(within.begin(), within.end());
              EXPECT_EQ(listed, within) << "agent " << self << " cell " << cellSize;
            }
          } else {
            candidates += findNearestAgentsDirect(grid.cells(), sorted.data(), ids.data(), k, p, 10,
                                                  sqr(neighborDist), nearest);
            // The list kept in registers, as the GPU runs it for K up to 16, finds the same.
            NearestInRegisters<16> registers;
            findNearestAgentsDirect(grid.cells(), sorted.data(), ids.data(), k, p, 10, sqr(neighborDist),
                                    registers);
            ASSERT_EQ(registers.count, nearest.count) << "agent " << self << " cell " << cellSize;
            EXPECT_EQ(registers.rangeSq, nearest.rangeSq) << "agent " << self << " cell " << cellSize;
            registers.forEachKept([&](int m, int slot) {
              EXPECT_EQ(slot, nearest.index(m))
                  << "agent " << self << " neighbour " << m << " cell " << cellSize;
            });
          }
          const std::vector<int> expected = bruteForceNearest(positions, self, 10, sqr(neighborDist));
          ASSERT_EQ(nearest.count, static_cast<int>(expected.size()))
              << "agent " << self << " cell " << cellSize << " threshold " << thresholdSq;
          for (int m = 0; m < nearest.count; ++m) {
            EXPECT_EQ(grid.order()[static_cast<std::size_t>(nearest.index(m))],
                      expected[static_cast<std::size_t>(m)])
                << "agent " << self << " neighbour " << m << " cell " << cellSize << " threshold "
                << thresholdSq;
          }
        }
        // Blocks of the smaller cells fit in a tile (about 100 agents at most), and then every
        // list is complete, except 1e5 and more from the origin, where the binning's rounding
        // eats into the cell the tile covers: the cluster at the origin (400 agents) gets lists,
        // the one at 2e5 does not. Blocks of the wider cells (several hundred agents) overflow
        // the tile and are read from the grid.
        if (tiled) {
          EXPECT_EQ(overflows > 0, cellSize >= neighborDist) << cellSize;
          if (cellSize < neighborDist) {
            if (apart < 100.0f) {
              EXPECT_EQ(completeLists, static_cast<int>(sorted.size())) << cellSize;
            } else {
              EXPECT_GE(completeLists, 400) << cellSize;
              EXPECT_LE(completeLists, 800) << cellSize;
            }
          }
        }
      }
      // The search prunes: far fewer candidates than the 343 cells of three shells hold
      // (400 agents per 12^3 box: 0.23 per unit volume).
      EXPECT_LT(static_cast<double>(candidates),
                64.0 * 0.23 * std::pow(cellSize, 3.0) * static_cast<double>(sorted.size()))
          << cellSize;
    }
  }
}

// Far from the origin the binning rounds by a good part of a cell: two agents 1.25 apart, with
// cells of 1.267, land two cells apart. A list that reaches 1.25 must not be called complete.
TEST(NeighbourSearch3d, ListsFarFromTheOriginAreNotCalledCompleteWhenTheBinningRounds) {
  const float cellSize = 0x1.44717ep+0f;
  const std::vector<Vec3> positions = {Vec3(0x1.44717ep+19f, 10.0f, 10.0f),
                                       Vec3(0x1.4471a6p+19f, 10.0f, 10.0f)};
  CpuAgentGrid grid;
  grid.build(std::span<const Vec3>(positions), cellSize, 1);
  ASSERT_EQ(
      std::abs(gridCellOf(grid.cells().grid, positions[0]).x - gridCellOf(grid.cells().grid, positions[1]).x),
      2);
  std::vector<Vec3> sorted;
  std::vector<AgentId> ids;
  for (const int i : grid.order()) {
    sorted.push_back(positions[static_cast<std::size_t>(i)]);
    ids.push_back(AgentId{static_cast<std::uint32_t>(i), 0});
  }
  for (int k = 0; k < 2; ++k) {
    auto tile = std::make_unique<BlockTile3>();
    int row[11];
    ListRecord record{row, 10, sqr(1.2548f), 0};
    AgentNeighbours nearest;
    findNearestAgents(grid.cells(), *tile, sorted.data(), ids.data(), k, sorted[static_cast<std::size_t>(k)],
                      10, sqr(1.05f), std::numeric_limits<float>::infinity(), nearest, &record);
    EXPECT_TRUE(record.count < 0 || record.count == 1) << "agent " << k << ": " << record.count;
  }
}

}  // namespace
}  // namespace crowd
