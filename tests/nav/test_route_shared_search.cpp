// Agents of several radii on one map share each thread's A* workspace: the planner holds one
// workspace per thread and a search graph per radius, and routes planned together are the
// routes each radius gets from a planner of its own.
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/route_planner.hpp>

#include "route_test_helpers.hpp"

namespace crowd {
namespace {

using test::placedMap;
using test::request;

// 96 x 96 cells of 0.25 m: a wall with doors of different widths across the middle (rows 40 and
// 41), some random posts elsewhere, so that the radii see different planning maps.
GridMap wallWithDoors() {
  std::vector<std::string> rows(96, std::string(96, '.'));
  for (int x = 0; x < 96; ++x) {
    const bool door = (x >= 10 && x < 13) || (x >= 40 && x < 48) || (x >= 80 && x < 85);
    if (!door) rows[40][static_cast<std::size_t>(x)] = rows[41][static_cast<std::size_t>(x)] = '@';
  }
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> cell(0, 95);
  for (int k = 0; k < 120; ++k) {
    const int x = cell(rng);
    const int y = cell(rng);
    if (y < 36 || y > 45) rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] = '@';
  }
  return placedMap(GridMap::fromRows(rows, "doors"), 0.25f);
}

// Agents alternating between `radii`, each with a goal of its own across the wall (every one of
// them an A* search: no group reaches a goal field), 4 blocks of A* work and more.
std::vector<RouteRequest> crossings(const std::vector<float>& radii, int count) {
  std::vector<RouteRequest> requests;
  for (int i = 0; i < count; ++i) {
    const auto fi = static_cast<float>(i);
    const float radius = radii[static_cast<std::size_t>(i) % radii.size()];
    requests.push_back(request(Vec2(0.6f + 0.35f * static_cast<float>(i % 60), 1.0f + 0.4f * fi / 60.0f),
                               {Vec2(23.4f - 0.3f * static_cast<float>(i % 70), 22.0f - 0.02f * fi)},
                               radius));
  }
  return requests;
}

TEST(RouteSharedSearch, TwoRadiiHoldOneSearchPerThread) {
  const GridMap map = wallWithDoors();
  RoutePlanner planner(map);
  const RouteSet routes = planner.plan(crossings({0.2f, 0.45f}, 96), 2);
  ASSERT_EQ(routes.threads, 2);
  ASSERT_GT(routes.astarSearches, 0);
  const RouteMemory held = planner.heldMemory();
  EXPECT_EQ(held.cells, map.cellCount());
  EXPECT_EQ(held.radii, 2u);
  EXPECT_EQ(held.graphs, 2u);
  // One workspace per thread, not one per radius and thread (4).
  EXPECT_EQ(held.searches, 2u);
  // 2 clearance maps of 3 bytes (and 4 while built), 2 graphs of 1, 2 workspaces of 16.
  EXPECT_EQ(held.bytes(), map.cellCount() * (2 * 3 + 4 + 2 * 1 + 2 * 16));

  // A third radius adds a clearance map and a graph, no workspace.
  (void)planner.plan(crossings({0.3f}, 40), 2);
  EXPECT_EQ(planner.heldMemory().radii, 3u);
  EXPECT_EQ(planner.heldMemory().graphs, 3u);
  EXPECT_EQ(planner.heldMemory().searches, 2u);
}

TEST(RouteSharedSearch, RadiiPlannedTogetherMatchPlannersOfTheirOwn) {
  const GridMap map = wallWithDoors();
  const std::vector<float> radii{0.2f, 0.45f, 0.3f};
  const std::vector<RouteRequest> together = crossings(radii, 150);
  for (const int threads : {1, 2}) {
    RoutePlanner shared(map);
    const RouteSet all = shared.plan(together, threads);
    ASSERT_EQ(all.size(), together.size());
    for (std::size_t r = 0; r < radii.size(); ++r) {
      // The agents of radius r alone, on a planner that never saw another radius.
      std::vector<RouteRequest> alone;
      std::vector<std::size_t> agents;
      for (std::size_t i = r; i < together.size(); i += radii.size()) {
        alone.push_back(together[i]);
        agents.push_back(i);
      }
      RoutePlanner own(map);
      const RouteSet single = own.plan(alone, threads);
      int reached = 0;
      for (std::size_t k = 0; k < agents.size(); ++k) {
        const std::size_t i = agents[k];
        const std::span<const Vec2> a = all.route(i);
        const std::span<const Vec2> b = single.route(k);
        ASSERT_EQ(a.size(), b.size()) << "agent " << i << ", " << threads << " threads";
        for (std::size_t p = 0; p < a.size(); ++p) {
          // Bit for bit: the same floats, not just close ones.
          EXPECT_EQ(a[p].x, b[p].x) << "agent " << i << " point " << p;
          EXPECT_EQ(a[p].y, b[p].y) << "agent " << i << " point " << p;
        }
        EXPECT_EQ(all.lengths[i], single.lengths[k]) << "agent " << i;
        EXPECT_EQ(all.status[i], single.status[k]) << "agent " << i;
        EXPECT_EQ(all.goalIndex[i], single.goalIndex[k]) << "agent " << i;
        reached += single.lengths[k] >= 0.0f ? 1 : 0;
      }
      // Routes through the doors, not a set of unreachable agents that would match trivially.
      EXPECT_GT(reached, static_cast<int>(agents.size()) / 2) << "radius " << radii[r];
    }
  }
}

}  // namespace
}  // namespace crowd
