// Starts and goals in spots too narrow for the agent: they move only to a free cell in straight
// sight (never through a wall), else the agent is unreachable and warned about by number; and
// the planner keeps its searches between calls without changing a route.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/grid_astar.hpp>
#include <crowd/route_planner.hpp>

#include "route_test_helpers.hpp"

namespace crowd {
namespace {

using test::placedMap;
using test::request;
namespace rs = route_status;

// Whether some point of the route, sampled every 1/100 cell, lies strictly inside a blocked
// cell: a brute-force check, independent of the planner's walks.
bool crossesWall(const GridMap& map, std::span<const Vec2> route) {
  const double size = map.placement().cellSize;
  for (std::size_t k = 1; k < route.size(); ++k) {
    const Vec2 a = route[k - 1];
    const Vec2 b = route[k];
    const int samples = std::max(1, static_cast<int>(std::ceil(length(b - a) / size * 100.0)));
    for (int s = 0; s <= samples; ++s) {
      const double t = static_cast<double>(s) / samples;
      const double ux = (a.x + (b.x - a.x) * t - map.placement().origin.x) / size;
      const double uy = (a.y + (b.y - a.y) * t - map.placement().origin.y) / size;
      const GridCell c{static_cast<int>(std::floor(ux)), static_cast<int>(std::floor(uy))};
      const bool onBorder = ux == std::floor(ux) || uy == std::floor(uy);
      if (!onBorder && map.contains(c) && !map.passable(c)) return true;
    }
  }
  return false;
}

bool hasWarning(const RouteSet& routes, const std::string& text) {
  return std::any_of(routes.warnings.begin(), routes.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

// The auditor's map: 20 x 16 cells of 0.25, a wall column at x = 4 (1.0 to 1.25 m). Room A,
// west of it, is 1.0 m wide: an agent of radius 0.4 (clearance 0.45) needs a centre between
// 0.45 and 0.55 m from its west edge, and the centres there lie at 0.125 + 0.25 k: none.
GridMap roomA() {
  std::vector<std::string> rows(16, std::string(20, '.'));
  for (std::string& row : rows) row[4] = '@';
  return placedMap(GridMap::fromRows(rows, "roomA"), 0.25f);
}

TEST(RouteSnap, CrampedStartIsNotMovedThroughTheWall) {
  const GridMap map = roomA();
  const std::vector<RouteRequest> requests{request(Vec2(0.5f, 2.0f), {Vec2(4.0f, 2.0f)}, 0.4f)};
  const RouteSet routes = planRoutes(map, requests);
  ASSERT_EQ(routes.size(), 1u);
  EXPECT_NE(routes.status[0] & rs::kUnreachable, 0);
  EXPECT_NE(routes.status[0] & rs::kCramped, 0);
  EXPECT_EQ(routes.status[0] & rs::kStartInWall, 0);
  EXPECT_EQ(routes.lengths[0], -1.0f);
  ASSERT_EQ(routes.route(0).size(), 1u);
  EXPECT_EQ(routes.route(0)[0], requests[0].start);
  EXPECT_TRUE(hasWarning(routes,
                         "1 agent starts in a spot too narrow for the agent, with no free cell in "
                         "straight sight"))
      << ::testing::PrintToString(routes.warnings);
  EXPECT_TRUE(hasWarning(routes, "(agent 0)")) << ::testing::PrintToString(routes.warnings);
}

TEST(RouteSnap, CrampedGoalIsDroppedNotMovedThroughTheWall) {
  const GridMap map = roomA();
  // Agent 1 has a second exit with room: it goes there.
  const std::vector<RouteRequest> requests{
      request(Vec2(4.0f, 3.0f), {Vec2(0.5f, 3.0f)}, 0.4f),
      request(Vec2(4.0f, 3.0f), {Vec2(0.5f, 3.0f), Vec2(3.0f, 1.0f)}, 0.4f)};
  const RouteSet routes = planRoutes(map, requests);
  EXPECT_EQ(routes.status[0], rs::kGoalMoved | rs::kCramped | rs::kUnreachable);
  EXPECT_EQ(routes.route(0).size(), 1u);
  EXPECT_EQ(routes.status[1], rs::kGoalMoved | rs::kCramped);
  EXPECT_EQ(routes.goalIndex[1], 1);
  EXPECT_EQ(routes.route(1).back(), Vec2(3.0f, 1.0f));
  EXPECT_FALSE(crossesWall(map, routes.route(1)));
  EXPECT_TRUE(hasWarning(routes, "2 agents have a goal in a spot too narrow"))
      << ::testing::PrintToString(routes.warnings);
  EXPECT_TRUE(hasWarning(routes, "1 agent cannot reach a goal (agent 0)"))
      << ::testing::PrintToString(routes.warnings);
}

// Cells of 1, radius 0.5 (clearance 0.55): a cell is free for planning unless a blocked square
// or the map's edge is 4-adjacent to it (a diagonal one is 0.71 away). A wall column at x = 2
// for y 0..5 leaves a strip x 0..1 that is all cramped below y = 6, opening north into a hall.
// From (1.9, 1.5), by hand: the nearest free cell is (4, 1), 2.6 away beyond the wall; the
// nearest in sight is (1, 6), 5.02 away up the strip ((2, 6) touches the wall's end, (0, y)
// the edge).
GridMap strip() {
  GridMap map(9, 9);
  for (int y = 0; y <= 5; ++y) map.setPassable(GridCell{2, y}, false);
  return map;
}

TEST(RouteSnap, NearestFreeInSightIsNotTheNearestFree) {
  const GridMap map = strip();
  const ClearanceMap clearance(map, 0.55f);
  const Vec2 p(1.9f, 1.5f);
  EXPECT_EQ(clearance.nearestFree(p), (GridCell{4, 1}));
  EXPECT_EQ(clearance.nearestFreeInSight(p), (GridCell{1, 6}));
  // Free cells in sight of their own centres are themselves; blocked or outside: none.
  EXPECT_EQ(clearance.nearestFreeInSight(Vec2(5.5f, 3.5f)), (GridCell{5, 3}));
  EXPECT_FALSE(clearance.nearestFreeInSight(Vec2(2.5f, 1.5f)).has_value());
  EXPECT_FALSE(clearance.nearestFreeInSight(Vec2(-1.0f, 1.5f)).has_value());
  // A room with no free cell at all: nothing, at once.
  EXPECT_FALSE(ClearanceMap(map, 5.0f).nearestFreeInSight(p).has_value());
}

TEST(RouteSnap, CrampedStartRoutesOutTheWayItCan) {
  const GridMap map = strip();
  const std::vector<RouteRequest> requests{request(Vec2(1.9f, 1.5f), {Vec2(7.5f, 1.5f)}, 0.5f)};
  for (const int threshold : {1, 1000}) {
    RouteOptions options;
    options.sharedFieldThreshold = threshold;
    options.sharedFieldByCost = false;
    const RouteSet routes = planRoutes(map, requests, options);
    ASSERT_EQ(routes.status[0], rs::kStartMoved);
    const std::span<const Vec2> route = routes.route(0);
    ASSERT_GE(route.size(), 3u);
    EXPECT_EQ(route[0], requests[0].start);
    EXPECT_EQ(route[1], Vec2(1.5f, 6.5f));
    EXPECT_EQ(route.back(), requests[0].goals[0]);
    EXPECT_FALSE(crossesWall(map, route));
    EXPECT_TRUE(routes.warnings.empty()) << ::testing::PrintToString(routes.warnings);
  }
}

TEST(RouteSnap, LineOfSightFromAPoint) {
  const GridMap map = strip();
  EXPECT_TRUE(lineOfSight(map, Vec2(1.9f, 1.5f), GridCell{1, 6}));
  EXPECT_FALSE(lineOfSight(map, Vec2(1.9f, 1.5f), GridCell{4, 1}));  // Through the wall.
  EXPECT_FALSE(lineOfSight(map, Vec2(2.5f, 1.5f), GridCell{1, 6}));  // From inside it.
  EXPECT_FALSE(lineOfSight(map, Vec2(9.5f, 1.5f), GridCell{8, 1}));  // From outside the map.
  EXPECT_FALSE(lineOfSight(map, Vec2(NAN, 1.5f), GridCell{1, 1}));
  EXPECT_TRUE(lineOfSight(map, Vec2(1.0f, 7.0f), GridCell{4, 7}));  // Past the wall's end.
  // Exactly through the corner (2, 6) of the wall's end: the wall cell beside it blocks.
  EXPECT_FALSE(lineOfSight(map, Vec2(1.0f, 5.0f), GridCell{3, 7}));
  // Agrees with the cell-to-cell test from cell centres.
  for (int x = 0; x < 9; ++x) {
    for (int y = 0; y < 9; ++y) {
      EXPECT_EQ(lineOfSight(map, map.cellCenter(GridCell{0, 8}), GridCell{x, y}),
                lineOfSight(map, GridCell{0, 8}, GridCell{x, y}))
          << x << ", " << y;
    }
  }
}

// A planner kept across calls reuses its A* searches: every call gives what a fresh planner
// gives, whatever the order of radii and thread counts.
TEST(RouteSnap, KeptSearchesChangeNoRoute) {
  std::vector<std::string> rows(40, std::string(40, '.'));
  for (int y = 0; y < 32; ++y) rows[static_cast<std::size_t>(y)][20] = '@';
  for (int x = 5; x < 40; ++x) rows[25][static_cast<std::size_t>(x)] = '@';
  const GridMap map = placedMap(GridMap::fromRows(rows, "kept"), 0.5f);
  std::vector<RouteRequest> requests;
  for (int i = 0; i < 30; ++i) {
    const float radius = i % 3 == 0 ? 0.2f : 0.35f;
    requests.push_back(
        request(Vec2(1.0f + 0.3f * static_cast<float>(i % 10), 2.0f + 0.9f * static_cast<float>(i / 10)),
                {Vec2(18.0f - 0.2f * static_cast<float>(i), 19.0f)}, radius));
  }
  RoutePlanner kept(map);
  for (int round = 0; round < 3; ++round) {
    for (const int threads : {1, 2}) {
      const std::span<const RouteRequest> part(requests.data() + round * 5,
                                               requests.size() - static_cast<std::size_t>(round) * 5);
      const RouteSet a = kept.plan(part, threads);
      const RouteSet b = planRoutes(map, part, {}, 1);
      EXPECT_GT(a.astarSearches, 0);
      EXPECT_EQ(a.points, b.points);
      EXPECT_EQ(a.offsets, b.offsets);
      EXPECT_EQ(a.lengths, b.lengths);
      EXPECT_EQ(a.status, b.status);
    }
  }
}

}  // namespace
}  // namespace crowd
