// Routes for many agents: shared goal fields against per-agent A*, the same output for any thread
// count, and a Moving AI map against GridAstar's optimal lengths on the clearance map.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/grid_astar.hpp>
#include <crowd/route_planner.hpp>

#include "route_test_helpers.hpp"

namespace crowd {
namespace {

using test::placedMap;
using test::polylineLength;
using test::randomMap;
using test::request;
namespace rs = route_status;

std::vector<RouteRequest> mixedRequests(std::mt19937& rng, const GridMap& map, std::size_t count) {
  std::uniform_real_distribution<float> ux(0.0f, static_cast<float>(map.width()) * map.placement().cellSize);
  std::uniform_real_distribution<float> uy(0.0f, static_cast<float>(map.height()) * map.placement().cellSize);
  const std::vector<Vec2> shared{Vec2(ux(rng), uy(rng)), Vec2(ux(rng), uy(rng)), Vec2(ux(rng), uy(rng))};
  std::vector<RouteRequest> requests;
  for (std::size_t i = 0; i < count; ++i) {
    const Vec2 start(ux(rng), uy(rng));  // Anywhere: some in walls, some in the inflated band.
    const float radius = i % 5 == 0 ? 0.4f : 0.15f;
    if (i % 7 == 0) {
      requests.push_back(request(start, {shared[0], shared[2]}, radius));  // Exits.
    } else if (i % 3 == 0) {
      requests.push_back(request(start, {Vec2(ux(rng), uy(rng))}, radius));  // A goal of its own.
    } else {
      requests.push_back(request(start, {shared[i % 3]}, radius));
    }
  }
  return requests;
}

TEST(RoutePlanner, SharedFieldsAndPerAgentAstarAgreeOnLengths) {
  std::mt19937 rng(5);
  const GridMap map = placedMap(randomMap(rng, 64, 48, 0.2), 0.5f);
  const std::vector<RouteRequest> requests = mixedRequests(rng, map, 400);
  RouteOptions fieldsOnly;
  fieldsOnly.sharedFieldThreshold = 1;
  fieldsOnly.sharedFieldByCost = false;
  RouteOptions astarOnly;
  astarOnly.sharedFieldThreshold = 1 << 30;
  const RouteSet a = planRoutes(map, requests, fieldsOnly, 2);
  const RouteSet b = planRoutes(map, requests, astarOnly, 2);
  EXPECT_EQ(b.fieldsBuilt, 0);
  EXPECT_EQ(a.astarSearches, 0);
  int reached = 0;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    ASSERT_EQ(a.status[i], b.status[i]) << "agent " << i;
    if ((a.status[i] & rs::kUnreachable) != 0) continue;
    ++reached;
    EXPECT_NEAR(a.lengths[i], b.lengths[i], 1e-4 * b.lengths[i] + 1e-6) << "agent " << i;
  }
  EXPECT_GT(reached, 200);
}

TEST(RoutePlanner, SameOutputOnOneAndTwoThreads) {
  std::mt19937 rng(9);
  const GridMap map = placedMap(randomMap(rng, 64, 64, 0.15), 0.5f);
  const std::vector<RouteRequest> requests = mixedRequests(rng, map, 3000);
  RouteOptions options;
  options.sharedFieldThreshold = 8;
  options.sharedFieldByCost = false;  // Fields and A* both, on a small map.
  const RouteSet one = planRoutes(map, requests, options, 1);
  for (const int threads : {2, 3}) {
    const RouteSet many = planRoutes(map, requests, options, threads);
    EXPECT_EQ(one.offsets, many.offsets);
    ASSERT_EQ(one.points.size(), many.points.size());
    EXPECT_EQ(0, std::memcmp(one.points.data(), many.points.data(), one.points.size() * sizeof(Vec2)));
    EXPECT_EQ(one.status, many.status);
    EXPECT_EQ(0, std::memcmp(one.lengths.data(), many.lengths.data(), one.lengths.size() * sizeof(float)));
    EXPECT_EQ(one.goalIndex, many.goalIndex);
    EXPECT_EQ(one.warnings, many.warnings);
  }
  EXPECT_GT(one.fieldsBuilt, 0);
  EXPECT_GT(one.astarSearches, 0);
  EXPECT_FALSE(one.warnings.empty());
}

TEST(RoutePlanner, MovingAiRandomMapMatchesAstarOnTheClearanceMap) {
  const std::filesystem::path path =
      std::filesystem::path(CROWD_SHARED_DATA_DIR) / "movingai" / "random512-10-0.map";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no Moving AI data: " << path << " is not there";
  const GridMap map = GridMap::loadMovingAi(path.string());
  const float radius = 0.25f;
  RouteOptions fieldsByCount;
  fieldsByCount.sharedFieldByCost = false;  // Fields whatever they cost: they are under test.
  RoutePlanner planner(map, fieldsByCount);
  const ClearanceMap& clearance = planner.clearanceFor(radius);
  std::mt19937 rng(3);
  const auto freeCell = [&] {
    while (true) {
      const GridCell c{static_cast<int>(rng() % 512), static_cast<int>(rng() % 512)};
      if (clearance.free(c)) return c;
    }
  };
  std::vector<GridCell> sharedGoals;
  for (int g = 0; g < 10; ++g) sharedGoals.push_back(freeCell());
  std::vector<RouteRequest> requests;
  std::vector<GridCell> startCells, goalCells;
  for (int i = 0; i < 1000; ++i) {
    const GridCell start = freeCell();
    // Nine in ten share the ten goals (fields); the rest have their own (A*).
    const GridCell goal = i % 10 == 9 ? freeCell() : sharedGoals[static_cast<std::size_t>(i % 10)];
    startCells.push_back(start);
    goalCells.push_back(goal);
    requests.push_back(request(map.cellCenter(start), {map.cellCenter(goal)}, radius));
  }
  const RouteSet routes = planner.plan(requests, 2);
  EXPECT_EQ(routes.fieldsBuilt, 9);  // Nine shared goals; the tenth of the agents run A*.
  GridAstar astar(clearance.planning());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const GridPathResult optimal = astar.findPath(startCells[i], goalCells[i]);
    if (!optimal.found()) {
      EXPECT_NE(routes.status[i] & rs::kUnreachable, 0) << "agent " << i;
      continue;
    }
    ASSERT_EQ(routes.status[i], rs::kOk) << "agent " << i;
    EXPECT_NEAR(routes.lengths[i], optimal.length, 1e-4 * optimal.length) << "agent " << i;
    // Smoothing only shortens the route.
    EXPECT_LE(polylineLength(routes.route(i)), optimal.length + 1e-2) << "agent " << i;
  }
}

}  // namespace
}  // namespace crowd
