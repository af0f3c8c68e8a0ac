// Routes for many agents: the clearance map (inflation, exact clear lines, nearest free cell),
// routes that keep the agent's radius off walls and corners, narrow doors, exits by route length,
// bad input (starts and goals in walls, unreachable goals), options. (Many agents:
// test_route_planner_many.cpp.)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/route_planner.hpp>

#include "route_test_helpers.hpp"

namespace crowd {
namespace {

using test::placedMap;
using test::polylineLength;
using test::randomMap;
using test::request;
namespace rs = route_status;

// A map of `width` x `height` blocked cells with the given rectangles carved free
// ([x0, x1] x [y0, y1], cells inclusive).
struct Carve {
  int x0, y0, x1, y1;
};
GridMap carvedMap(int width, int height, std::initializer_list<Carve> rooms) {
  GridMap map(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) map.setPassable(GridCell{x, y}, false);
  }
  for (const Carve& r : rooms) {
    for (int y = r.y0; y <= r.y1; ++y) {
      for (int x = r.x0; x <= r.x1; ++x) map.setPassable(GridCell{x, y}, true);
    }
  }
  return map;
}

Vec2 centre(const GridMap& map, int x, int y) {
  return map.cellCenter(GridCell{x, y});
}

// Distance from a world point to the nearest blocked square or the map's edge, by brute force
// over the squares within `reach` cells: independent of the planner's own geometry.
double wallDistance(const GridMap& map, Vec2 p, int reach) {
  const double size = map.placement().cellSize;
  const double ux = (p.x - map.placement().origin.x) / size;
  const double uy = (p.y - map.placement().origin.y) / size;
  double best = std::min({ux, uy, map.width() - ux, map.height() - uy});
  const int cx = static_cast<int>(std::floor(ux));
  const int cy = static_cast<int>(std::floor(uy));
  for (int y = cy - reach; y <= cy + reach; ++y) {
    for (int x = cx - reach; x <= cx + reach; ++x) {
      if (!map.contains(GridCell{x, y}) || map.passable(x, y)) continue;
      const double gx = std::max({0.0, x - ux, ux - (x + 1.0)});
      const double gy = std::max({0.0, y - uy, uy - (y + 1.0)});
      best = std::min(best, std::sqrt(gx * gx + gy * gy));
    }
  }
  return best * size;
}

// The least wall distance along a route, every segment sampled every 1/200 of a cell.
double routeClearance(const GridMap& map, std::span<const Vec2> route, float radius) {
  const int reach = static_cast<int>(std::ceil(radius / map.placement().cellSize)) + 2;
  double least = wallDistance(map, route.front(), reach);
  for (std::size_t k = 1; k < route.size(); ++k) {
    const Vec2 a = route[k - 1];
    const Vec2 b = route[k];
    const int samples =
        std::max(1, static_cast<int>(std::ceil(length(b - a) / map.placement().cellSize * 200.0f)));
    for (int s = 1; s <= samples; ++s) {
      const float t = static_cast<float>(s) / static_cast<float>(samples);
      least = std::min(least, wallDistance(map, a + (b - a) * t, reach));
    }
  }
  return least;
}

bool hasWarning(const RouteSet& routes, const std::string& text) {
  return std::any_of(routes.warnings.begin(), routes.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

// --- clearance map ----------------------------------------------------------------------------

TEST(ClearanceMap, InflatesByDistanceToTheBlockedSquare) {
  GridMap map(9, 9);
  map.setPassable(GridCell{4, 4}, false);
  // Side neighbours' centres are half a cell from the square, diagonal ones sqrt(1/2).
  const ClearanceMap narrow(map, 0.4f, false);
  EXPECT_EQ(narrow.planning().passableCount(), map.passableCount());
  const ClearanceMap wide(map, 0.6f, false);
  EXPECT_FALSE(wide.free(GridCell{3, 4}));
  EXPECT_FALSE(wide.free(GridCell{4, 5}));
  EXPECT_TRUE(wide.free(GridCell{3, 3}));
  EXPECT_TRUE(wide.free(GridCell{2, 4}));
  EXPECT_FALSE(wide.free(GridCell{4, 4}));
  EXPECT_EQ(wide.planning().passableCount(), map.passableCount() - 4);
  // The edge as a wall inflates the border cells too.
  const ClearanceMap edged(map, 0.6f, true);
  EXPECT_FALSE(edged.free(GridCell{0, 2}));
  EXPECT_TRUE(edged.free(GridCell{1, 2}));
  // A clearance wider than the map leaves no cell free, however wide (no integer overflow).
  for (const float huge : {20.0f, 1e4f, 1e30f}) {
    EXPECT_EQ(ClearanceMap(map, huge, false).planning().passableCount(), 0u) << huge;
  }
}

TEST(ClearanceMap, ScalesWithCellSize) {
  GridMap map = placedMap(GridMap(20, 20), 0.25f, Vec2(-3.0f, 2.0f));
  map.setPassable(GridCell{10, 10}, false);
  const ClearanceMap clearance(map, 0.3f, false);  // 1.2 cells
  EXPECT_TRUE(clearance.free(GridCell{8, 10}));    // 1.5 cells from the square
  EXPECT_FALSE(clearance.free(GridCell{9, 10}));   // 0.5
  EXPECT_FALSE(clearance.free(GridCell{9, 9}));    // sqrt(1/2)
  EXPECT_TRUE(clearance.free(GridCell{8, 9}));     // sqrt(1.5^2 + 0.5^2)
  // World lines under the block: 1.25 cells (0.3125) below it is clear, 1.15 (0.2875) is not.
  EXPECT_TRUE(clearance.clearLine(Vec2(-2.5f, 2.0f + 8.75f * 0.25f), Vec2(1.5f, 2.0f + 8.75f * 0.25f)));
  EXPECT_FALSE(clearance.clearLine(Vec2(-2.5f, 2.0f + 8.85f * 0.25f), Vec2(1.5f, 2.0f + 8.85f * 0.25f)));
}

TEST(ClearanceMap, ClearLineIsExactBesideWallsAndCorners) {
  // A 1 x 1 block at cells (5, 5) on an open map, cell size 1, clearance 0.3.
  GridMap map(12, 12);
  map.setPassable(GridCell{5, 5}, false);
  const ClearanceMap clearance(map, 0.3f, true);
  EXPECT_TRUE(clearance.clearLine(Vec2(1.0f, 4.65f), Vec2(10.0f, 4.65f)));   // 0.35 below the block
  EXPECT_FALSE(clearance.clearLine(Vec2(1.0f, 4.75f), Vec2(10.0f, 4.75f)));  // 0.25 below
  EXPECT_FALSE(clearance.clearLine(Vec2(1.0f, 5.5f), Vec2(10.0f, 5.5f)));    // through it
  // Diagonal past the corner (6, 6): the line x + y = 12 + d * sqrt(2) is d from the corner.
  EXPECT_TRUE(clearance.clearLine(Vec2(3.0f, 9.5f), Vec2(9.5f, 3.0f)));     // d = 0.35
  EXPECT_FALSE(clearance.clearLine(Vec2(2.85f, 9.5f), Vec2(9.5f, 2.85f)));  // d = 0.25
  // The edge is a wall; off the map is never clear.
  EXPECT_FALSE(clearance.clearLine(Vec2(0.2f, 1.0f), Vec2(0.2f, 9.0f)));
  EXPECT_TRUE(clearance.clearLine(Vec2(0.4f, 1.0f), Vec2(0.4f, 4.0f)));
  EXPECT_FALSE(clearance.clearLine(Vec2(1.0f, 1.0f), Vec2(13.0f, 1.0f)));
  EXPECT_FALSE(clearance.clearLine(Vec2(1.0f, 1.0f), Vec2(NAN, 1.0f)));
  EXPECT_TRUE(clearance.clearLine(GridCell{1, 1}, GridCell{10, 3}));
  EXPECT_FALSE(clearance.clearLine(GridCell{4, 5}, GridCell{6, 5}));
}

TEST(ClearanceMap, ClearLineAgreesWithSampledDistances) {
  std::mt19937 rng(21);
  const GridMap map = placedMap(randomMap(rng, 40, 30, 0.08), 0.5f, Vec2(-7.0f, 3.0f));
  std::uniform_real_distribution<float> ux(-7.5f, -7.0f + 20.5f);
  std::uniform_real_distribution<float> uy(2.5f, 3.0f + 15.5f);
  std::uniform_real_distribution<float> offset(-2.5f, 2.5f);
  for (const float clearance : {0.0f, 0.2f, 0.37f, 0.6f}) {
    const ClearanceMap clear(map, clearance, true);
    int seen = 0;
    int blocked = 0;
    for (int trial = 0; trial < 1500; ++trial) {
      const Vec2 a(ux(rng), uy(rng));
      const Vec2 b = a + Vec2(offset(rng), offset(rng));
      const double least = routeClearance(map, std::vector<Vec2>{a, b}, clearance);
      const bool inside = map.cellAt(a).has_value() && map.cellAt(b).has_value();
      // Sampling every 1/200 cell can miss at most 1/400 cell (0.00125) of closeness.
      if (inside && least > clearance + 0.002) {
        EXPECT_TRUE(clear.clearLine(a, b)) << "clearance " << clearance << " trial " << trial;
        ++seen;
      } else if (!inside || least < clearance - 1e-4) {
        EXPECT_FALSE(clear.clearLine(a, b)) << "clearance " << clearance << " trial " << trial;
        ++blocked;
      }
    }
    EXPECT_GT(seen, 100);
    EXPECT_GT(blocked, 100);
  }
}

TEST(ClearanceMap, NearestFreeCell) {
  GridMap map = carvedMap(10, 10, {{1, 1, 8, 8}});
  const ClearanceMap clearance(map, 0.2f, true);
  EXPECT_EQ(clearance.nearestFree(Vec2(0.2f, 5.5f)), (GridCell{1, 5}));
  EXPECT_EQ(clearance.nearestFree(Vec2(-40.0f, 5.5f)), (GridCell{1, 5}));
  EXPECT_EQ(clearance.nearestFree(Vec2(9.9f, 9.9f)), (GridCell{8, 8}));
  EXPECT_EQ(clearance.nearestFree(Vec2(4.2f, 4.7f)), (GridCell{4, 4}));
  EXPECT_FALSE(clearance.nearestFree(Vec2(NAN, 1.0f)).has_value());
  const ClearanceMap tooWide(map, 5.0f, true);
  EXPECT_FALSE(tooWide.nearestFree(Vec2(4.5f, 4.5f)).has_value());
}

TEST(RoutePlanner, CachesOneClearanceMapPerRadius) {
  RoutePlanner planner(GridMap(8, 8));
  const ClearanceMap& a = planner.clearanceFor(0.3f);
  const ClearanceMap& b = planner.clearanceFor(0.5f);
  EXPECT_EQ(&planner.clearanceFor(0.3f), &a);
  EXPECT_NE(&a, &b);
  EXPECT_FLOAT_EQ(b.clearance(), 0.55f);
  EXPECT_THROW(planner.clearanceFor(-1.0f), std::invalid_argument);
  RouteOptions noGroups;
  noGroups.sharedFieldThreshold = 0;
  EXPECT_THROW(RoutePlanner(GridMap(4, 4), noGroups), std::invalid_argument);
}

// --- routes -----------------------------------------------------------------------------------

// An L-shaped corridor, 5 cells wide, cells of 0.25: along the bottom, then up the right side.
GridMap lCorridor() {
  return placedMap(carvedMap(26, 26, {{2, 2, 22, 6}, {18, 2, 22, 23}}), 0.25f);
}

TEST(RoutePlanner, KeepTheRadiusOffTheWallsRoundAnLCorner) {
  const GridMap map = lCorridor();
  const float radius = 0.3f;  // 1.2 cells; the corridor leaves one lane of cell centres clear.
  std::vector<RouteRequest> requests;
  for (int x = 4; x <= 20; x += 2) {
    for (int y = 4; y <= 22; y += 3) {
      if (x >= 20 || y <= 4) requests.push_back(request(centre(map, 3, 4), {centre(map, x, y)}, radius));
    }
  }
  requests.push_back(request(centre(map, 20, 22), {centre(map, 3, 4)}, radius));
  requests.push_back(request(Vec2(0.91f, 1.13f), {Vec2(5.1f, 5.6f)}, radius));
  for (const int threshold : {1, 1000}) {
    SCOPED_TRACE(threshold == 1 ? "goal fields" : "per-agent A*");
    RouteOptions options;
    options.sharedFieldThreshold = threshold;
    options.sharedFieldByCost = false;  // Fields by count alone: both ways are tested.
    const RouteSet routes = planRoutes(map, requests, options, 2);
    ASSERT_EQ(routes.size(), requests.size());
    for (std::size_t i = 0; i < routes.size(); ++i) {
      SCOPED_TRACE("agent " + std::to_string(i));
      ASSERT_EQ(routes.status[i], rs::kOk);
      const std::span<const Vec2> route = routes.route(i);
      EXPECT_EQ(route.front(), requests[i].start);
      EXPECT_EQ(route.back(), requests[i].goals[0]);
      EXPECT_GE(routeClearance(map, route, radius), radius);
      EXPECT_LE(polylineLength(route), routes.lengths[i] + 2.0 * map.placement().cellSize);
    }
    // The route round the corner bends: start, at least one corner waypoint, goal.
    EXPECT_GE(routes.route(requests.size() - 2).size(), 3u);
  }
  // Planned for a point agent, the same routes pass the inner corner at well under the radius:
  // the check above bites.
  for (RouteRequest& r : requests) r.radius = 0.0f;
  const RouteSet thin = planRoutes(map, requests);
  double least = 1.0;
  for (std::size_t i = 0; i < thin.size(); ++i) {
    least = std::min(least, routeClearance(map, thin.route(i), radius));
  }
  EXPECT_LT(least, 0.5 * radius);
}

TEST(RoutePlanner, KeepClearOfEveryCornerOnARandomMap) {
  std::mt19937 rng(11);
  const GridMap map = placedMap(randomMap(rng, 48, 48, 0.18), 0.5f, Vec2(10.0f, -4.0f));
  const float radius = 0.2f;
  RouteOptions options;
  options.sharedFieldByCost = false;  // Fields for the shared goals on this small map too.
  RoutePlanner planner(map, options);
  const ClearanceMap& clearance = planner.clearanceFor(radius);
  std::vector<RouteRequest> requests;
  std::vector<Vec2> goals;
  while (goals.size() < 3) {
    const GridCell c{static_cast<int>(rng() % 48), static_cast<int>(rng() % 48)};
    if (clearance.free(c)) goals.push_back(map.cellCenter(c));
  }
  while (requests.size() < 160) {
    const GridCell c{static_cast<int>(rng() % 48), static_cast<int>(rng() % 48)};
    if (!clearance.free(c)) continue;
    // Half share three goals (fields), half have one each (A*).
    const Vec2 goal = requests.size() % 2 == 0 ? goals[requests.size() % 3] : centre(map, 47 - c.x, 47 - c.y);
    requests.push_back(request(map.cellCenter(c), {goal}, radius));
  }
  const RouteSet routes = planner.plan(requests, 2);
  EXPECT_GT(routes.fieldsBuilt, 0);
  EXPECT_GT(routes.astarSearches, 0);
  int routed = 0;
  for (std::size_t i = 0; i < routes.size(); ++i) {
    if ((routes.status[i] & (rs::kUnreachable | rs::kGoalMoved)) != 0) continue;
    ++routed;
    EXPECT_GE(routeClearance(map, routes.route(i), radius), radius) << "agent " << i;
  }
  EXPECT_GT(routed, 40);
}

TEST(RoutePlanner, ANarrowDoorIsNotUsed) {
  // Two rooms, cells of 0.25: a door 2 cells (0.5) wide near the start, an opening 6 cells wide
  // far along the wall.
  GridMap map =
      placedMap(carvedMap(40, 21, {{1, 1, 38, 9}, {1, 11, 38, 19}, {5, 10, 6, 10}, {30, 10, 35, 10}}), 0.25f);
  const Vec2 start = centre(map, 5, 3);
  const Vec2 goal = centre(map, 5, 17);
  const std::vector<RouteRequest> requests{request(start, {goal}, 0.3f), request(start, {goal}, 0.04f)};
  const RouteSet routes = planRoutes(map, requests);
  ASSERT_EQ(routes.status[0], rs::kOk);
  // Round by the wide opening: more than twice the 25 cells along the wall.
  EXPECT_GT(routes.lengths[0], 50 * 0.25f);
  EXPECT_GE(routeClearance(map, routes.route(0), 0.3f), 0.3f);
  // Where the route crosses the wall's row, it is in the opening.
  const std::span<const Vec2> route = routes.route(0);
  for (std::size_t k = 1; k < route.size(); ++k) {
    for (int s = 0; s <= 100; ++s) {
      const GridCell c =
          *map.cellAt(route[k - 1] + (route[k] - route[k - 1]) * (static_cast<float>(s) / 100.0f));
      if (c.y == 10) {
        EXPECT_TRUE(c.x >= 30 && c.x <= 35) << "crosses the wall at cell " << c.x;
      }
    }
  }
  // A small agent (clearance 0.09 < 0.125) takes the door.
  ASSERT_EQ(routes.status[1], rs::kOk);
  EXPECT_LT(routes.lengths[1], 16 * 0.25f);

  // With the opening walled up, the big agent cannot reach the other room.
  for (int x = 30; x <= 35; ++x) map.setPassable(GridCell{x, 10}, false);
  const RouteSet closed = planRoutes(map, requests);
  EXPECT_EQ(closed.status[0], rs::kUnreachable);
  EXPECT_EQ(closed.route(0).size(), 1u);
  EXPECT_EQ(closed.route(0)[0], start);
  EXPECT_EQ(closed.lengths[0], -1.0f);
  EXPECT_TRUE(hasWarning(closed, "1 agent cannot reach a goal (agent 0); left in place"));
  EXPECT_EQ(closed.status[1], rs::kOk);
}

TEST(RoutePlanner, NearestExitByRouteLengthNotDistance) {
  // The start room is closed by a wall at x = 5 except at the top; exit A is 5 units away
  // through the wall, exit B 8 units away in the same room.
  const GridMap map = carvedMap(30, 20, {{1, 1, 4, 18}, {1, 1, 28, 2}, {6, 1, 28, 18}});
  const Vec2 start = centre(map, 2, 10);
  const Vec2 exitA = centre(map, 7, 10);
  const Vec2 exitB = centre(map, 2, 18);
  ASSERT_LT(length(exitA - start), length(exitB - start));
  const std::vector<RouteRequest> requests(20, request(start, {exitA, exitB}, 0.3f));
  for (const int threshold : {1, 1000}) {
    RouteOptions options;
    options.sharedFieldThreshold = threshold;
    options.sharedFieldByCost = false;  // Fields by count alone: both ways are tested.
    const RouteSet routes = planRoutes(map, requests, options);
    for (std::size_t i = 0; i < routes.size(); ++i) {
      ASSERT_EQ(routes.status[i], rs::kOk);
      EXPECT_EQ(routes.goalIndex[i], 1);
      EXPECT_NEAR(routes.lengths[i], 8.0f, 1e-5f);
      EXPECT_EQ(routes.route(i).back(), exitB);
    }
    EXPECT_EQ(routes.fieldsBuilt, threshold == 1 ? 1 : 0);
    EXPECT_EQ(routes.astarSearches, threshold == 1 ? 0 : 40);
  }
}

TEST(RoutePlanner, StartAndGoalInWallsAreMovedWithAWarning) {
  const GridMap map = carvedMap(20, 12, {{1, 1, 18, 10}});
  const float radius = 0.3f;
  const std::vector<RouteRequest> requests{
      request(Vec2(0.5f, 5.4f), {centre(map, 15, 5)}, radius),  // start in the left wall
      request(Vec2(1.05f, 5.5f), {centre(map, 15, 5)},
              radius),  // start too near the wall: inflated, not in it
      request(centre(map, 3, 5), {Vec2(19.5f, 5.5f)}, radius),   // goal in the right wall
      request(Vec2(-7.0f, 5.5f), {centre(map, 15, 5)}, radius),  // start off the map
  };
  const RouteSet routes = planRoutes(map, requests);
  EXPECT_EQ(routes.status[0], rs::kStartMoved | rs::kStartInWall);
  EXPECT_EQ(routes.route(0)[0], requests[0].start);
  EXPECT_EQ(routes.route(0)[1], centre(map, 1, 5));
  EXPECT_EQ(routes.route(0).back(), requests[0].goals[0]);
  EXPECT_NEAR(routes.lengths[0], 14.0f, 1e-5f);

  EXPECT_EQ(routes.status[1], rs::kOk);  // Cell (1, 5)'s centre is 0.5 from the wall: free.
  EXPECT_EQ(routes.status[2], rs::kGoalMoved | rs::kGoalInWall);
  EXPECT_EQ(routes.route(2).back(), centre(map, 18, 5));  // Ends at the moved goal, not in the wall.
  EXPECT_EQ(routes.status[3], rs::kStartMoved | rs::kStartInWall);
  EXPECT_EQ(routes.route(3)[1], centre(map, 1, 5));

  EXPECT_TRUE(hasWarning(routes, "1 agent starts inside a wall (agent 0); moved to the nearest free cell"));
  EXPECT_TRUE(
      hasWarning(routes, "1 agent has a goal inside a wall (agent 2); moved to the nearest free cell"));
  EXPECT_TRUE(hasWarning(routes, "1 agent starts outside the map (agent 3); moved to the nearest free cell"));
  EXPECT_EQ(routes.warnings.size(), 3u);

  // A start in the inflated band (not a wall) moves silently.
  const RouteSet wide =
      planRoutes(map, std::vector<RouteRequest>{request(Vec2(1.05f, 5.5f), {centre(map, 15, 5)}, 0.6f)});
  EXPECT_EQ(wide.status[0], rs::kStartMoved);
  EXPECT_EQ(wide.route(0)[1], centre(map, 2, 5));
  EXPECT_TRUE(wide.warnings.empty());
}

TEST(RoutePlanner, CountsManyAgentsInOneWarning) {
  const GridMap map = carvedMap(10, 10, {{1, 1, 8, 8}});
  std::vector<RouteRequest> requests(12, request(Vec2(0.5f, 0.5f), {centre(map, 7, 7)}, 0.2f));
  requests.insert(requests.begin(), request(centre(map, 2, 2), {centre(map, 7, 7)}, 0.2f));
  const RouteSet routes = planRoutes(map, requests);
  EXPECT_TRUE(
      hasWarning(routes, "12 agents start inside a wall (agent 1 first); moved to the nearest free cell"));
}

TEST(RoutePlanner, BadRequestsStayInPlace) {
  const GridMap map(10, 10);
  const std::vector<RouteRequest> requests{
      request(Vec2(NAN, 1.0f), {Vec2(5.0f, 5.0f)}, 0.2f),
      request(Vec2(1.0f, 1.0f), {}, 0.2f),
      request(Vec2(1.0f, 1.0f), {Vec2(5.0f, 5.0f)}, -0.2f),
      request(Vec2(1.0f, 1.0f), {Vec2(5.0f, INFINITY)}, 0.2f),
      request(Vec2(1.5f, 1.5f), {Vec2(5.5f, 5.5f)}, 0.2f),
  };
  const RouteSet routes = planRoutes(map, requests);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(routes.status[i], rs::kUnreachable | rs::kBadRequest);
    EXPECT_EQ(routes.route(i).size(), 1u);
    EXPECT_EQ(routes.goalIndex[i], -1);
  }
  EXPECT_EQ(routes.status[4], rs::kOk);
  EXPECT_EQ(routes.route(4).size(), 2u);  // In open ground the start sees the goal.
  EXPECT_TRUE(hasWarning(routes, "4 agents have a start, goal or radius that is not finite"));
}

TEST(RoutePlanner, EmptyAndOneCellRoutes) {
  const GridMap map(10, 10);
  const RouteSet none = planRoutes(map, std::span<const RouteRequest>());
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.offsets, std::vector<std::int64_t>{0});
  // Start and goal in one cell: straight there; a start on the goal: two equal points.
  const std::vector<RouteRequest> requests{request(Vec2(4.2f, 4.3f), {Vec2(4.8f, 4.6f)}, 0.2f),
                                           request(Vec2(4.5f, 4.5f), {Vec2(4.5f, 4.5f)}, 0.2f)};
  const RouteSet routes = planRoutes(map, requests);
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(routes.status[i], rs::kOk);
    ASSERT_EQ(routes.route(i).size(), 2u);
    EXPECT_EQ(routes.route(i)[0], requests[i].start);
    EXPECT_EQ(routes.route(i)[1], requests[i].goals[0]);
    EXPECT_EQ(routes.lengths[i], 0.0f);
  }
}

TEST(RoutePlanner, AnExitThatCannotBeReachedIsPassedOver) {
  // Exit 0 lies in a sealed pocket; exit 1 is reachable.
  const GridMap map = carvedMap(20, 10, {{1, 1, 12, 8}, {15, 3, 18, 6}});
  const std::vector<RouteRequest> requests(
      3, request(centre(map, 2, 2), {centre(map, 16, 4), centre(map, 10, 7)}, 0.3f));
  for (const int threshold : {1, 1000}) {
    RouteOptions options;
    options.sharedFieldThreshold = threshold;
    options.sharedFieldByCost = false;  // Fields by count alone: both ways are tested.
    const RouteSet routes = planRoutes(map, requests, options);
    EXPECT_EQ(routes.status[0], rs::kOk);
    EXPECT_EQ(routes.goalIndex[0], 1);
    EXPECT_TRUE(routes.warnings.empty());
  }
}

TEST(RoutePlanner, CornerCuttingAndHeuristicsKeepLengthsConsistent) {
  std::mt19937 rng(17);
  const GridMap map = randomMap(rng, 40, 40, 0.2);
  const std::vector<RouteRequest> requests = [&] {
    std::vector<RouteRequest> out;
    for (int i = 0; i < 60; ++i) {
      out.push_back(request(centre(map, static_cast<int>(rng() % 40), static_cast<int>(rng() % 40)),
                            {centre(map, static_cast<int>(rng() % 40), static_cast<int>(rng() % 40))}, 0.1f));
    }
    return out;
  }();
  RouteOptions options;
  options.sharedFieldThreshold = 1000;
  const RouteSet octile = planRoutes(map, requests, options);
  options.heuristic = GridHeuristic::Euclidean;
  const RouteSet euclidean = planRoutes(map, requests, options);
  options.cornerCutting = true;
  const RouteSet cutting = planRoutes(map, requests, options);
  int compared = 0;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if ((octile.status[i] & rs::kUnreachable) != 0) continue;
    ++compared;
    EXPECT_NEAR(euclidean.lengths[i], octile.lengths[i], 1e-4f * octile.lengths[i]);
    ASSERT_EQ(cutting.status[i] & rs::kUnreachable, 0);  // Cutting corners only adds moves.
    EXPECT_LE(cutting.lengths[i], octile.lengths[i] * (1.0f + 1e-6f));
  }
  EXPECT_GT(compared, 10);
}

TEST(RoutePlanner, UnsmoothedRoutesVisitEveryCell) {
  const GridMap map = lCorridor();
  RouteOptions options;
  options.smooth = false;
  const std::vector<RouteRequest> requests{request(centre(map, 3, 4), {centre(map, 20, 22)}, 0.3f)};
  for (const int threshold : {1, 1000}) {
    options.sharedFieldThreshold = threshold;
    options.sharedFieldByCost = false;  // Fields by count alone: both ways are tested.
    const RouteSet routes = planRoutes(map, requests, options);
    const std::span<const Vec2> route = routes.route(0);
    ASSERT_GE(route.size(), 4u);
    // Between the start and the goal (each given twice: as given and as its cell's centre),
    // neighbouring cell centres.
    for (std::size_t k = 2; k + 1 < route.size(); ++k) {
      const Vec2 step = (route[k] - route[k - 1]) / 0.25f;
      EXPECT_LE(std::max(std::abs(step.x), std::abs(step.y)), 1.001f);
    }
    EXPECT_NEAR(polylineLength(route), routes.lengths[0], 1e-3);
  }
}

}  // namespace
}  // namespace crowd
