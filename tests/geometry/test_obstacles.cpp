// Obstacle polygons: validation, roles, RVO2's vertex linking and convexity (the obstacle index),
// the edge grid.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <crowd/obstacles.hpp>

#include "geometry/obstacle_index.hpp"

namespace crowd {
namespace {

using Polygon = std::vector<Vec2>;

TEST(Obstacles, CheckPolygonNamesEachProblem) {
  EXPECT_EQ(checkPolygon(Polygon{{0, 0}, {1, 0}}), "");
  EXPECT_EQ(checkPolygon(Polygon{{0, 0}, {1, 0}, {1, 1}, {0, 1}}), "");
  EXPECT_NE(checkPolygon(Polygon{{0, 0}}).find("at least 2"), std::string::npos);
  EXPECT_NE(checkPolygon(Polygon{{0, 0}, {NAN, 0}}).find("finite"), std::string::npos);
  EXPECT_NE(checkPolygon(Polygon{{0, 0}, {0, 0}}).find("coincide"), std::string::npos);
  EXPECT_NE(checkPolygon(Polygon{{0, 0}, {1, 0}, {1, 1}, {1, 1}}).find("coincide"), std::string::npos);
  EXPECT_NE(checkPolygon(Polygon{{0, 0}, {1, 1}, {2, 2}}).find("one line"), std::string::npos);
  // A bow tie: edges 0 and 2 cross.
  EXPECT_NE(checkPolygon(Polygon{{0, 0}, {1, 1}, {1, 0}, {0, 1}}).find("cross"), std::string::npos);
  // A spike that doubles back on itself.
  EXPECT_NE(checkPolygon(Polygon{{0, 0}, {2, 0}, {1, 0}, {1, 1}}).find("fold"), std::string::npos);
}

// The first pair of non-adjacent edges (i < j, in order) that touch, by testing every pair with
// exact integer arithmetic; {n, n} when none do. Vertices must be whole numbers.
std::pair<std::size_t, std::size_t> firstTouchingPair(const Polygon& polygon) {
  const std::size_t n = polygon.size();
  const auto orient = [](Vec2 a, Vec2 b, Vec2 c) {
    const auto v = (static_cast<std::int64_t>(b.x) - static_cast<std::int64_t>(a.x)) *
                       (static_cast<std::int64_t>(c.y) - static_cast<std::int64_t>(a.y)) -
                   (static_cast<std::int64_t>(b.y) - static_cast<std::int64_t>(a.y)) *
                       (static_cast<std::int64_t>(c.x) - static_cast<std::int64_t>(a.x));
    return (v > 0) - (v < 0);
  };
  const auto within = [](Vec2 a, Vec2 b, Vec2 p) {
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
  };
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;
      const Vec2 a = polygon[i], b = polygon[(i + 1) % n], c = polygon[j], d = polygon[(j + 1) % n];
      const int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
      const bool touch = (o1 != o2 && o3 != o4) || (o1 == 0 && within(a, b, c)) ||
                         (o2 == 0 && within(a, b, d)) || (o3 == 0 && within(c, d, a)) ||
                         (o4 == 0 && within(c, d, b));
      if (touch) return {i, j};
    }
  }
  return {n, n};
}

TEST(Obstacles, CrossingEdgesAreFoundAsTestingEveryPairFindsThem) {
  // Random polygons on a small integer lattice: many touch at vertices, overlap along lines or
  // cross several times; the message must name the same first pair as testing every pair does.
  std::mt19937 random(99);
  int crossing = 0;
  int simple = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = 4 + trial % 40;
    const int side = trial % 3 == 0 ? 6 : 40;
    std::uniform_int_distribution<int> coordinate(0, side);
    Polygon polygon;
    for (int v = 0; v < n; ++v) {
      polygon.emplace_back(static_cast<float>(coordinate(random)), static_cast<float>(coordinate(random)));
    }
    const std::string problem = checkPolygon(polygon);
    if (!problem.empty() && problem.find("cross") == std::string::npos) continue;  // Refused earlier.
    const auto [i, j] = firstTouchingPair(polygon);
    if (i == polygon.size()) {
      EXPECT_EQ(problem, "") << "trial " << trial;
      ++simple;
    } else {
      EXPECT_EQ(problem, "edges " + std::to_string(i) + " and " + std::to_string(j) +
                             " cross (a self-intersecting polygon)")
          << "trial " << trial;
      ++crossing;
    }
  }
  EXPECT_GT(crossing, 500);
  EXPECT_GT(simple, 20);
}

// A star of `n` vertices, alternately at radius 1000 and 900: simple, and counter-clockwise.
Polygon star(std::size_t n) {
  Polygon polygon;
  for (std::size_t i = 0; i < n; ++i) {
    const double angle = 2.0 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n);
    const double radius = i % 2 == 0 ? 1000.0 : 900.0;
    polygon.emplace_back(static_cast<float>(radius * std::cos(angle)),
                         static_cast<float>(radius * std::sin(angle)));
  }
  return polygon;
}

TEST(Obstacles, LargePolygonsAreCheckedQuickly) {
  Polygon polygon = star(100'000);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(checkPolygon(polygon), "");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ time ] checkPolygon, 100,000 vertices: %.3f s\n", seconds);
  // Moving one spike's tip ten spikes on: its edges now sweep across the spikes in between. The
  // edge into it, 49999, rises from radius 900 eleven steps round while edge 50001 turns one
  // step, so they meet at radius 920; no edge before 49999 moved.
  polygon[50'000] = polygon[50'010];
  EXPECT_EQ(checkPolygon(polygon), "edges 49999 and 50001 cross (a self-intersecting polygon)");
}

TEST(Obstacles, SignedAreaTellsOrientation) {
  EXPECT_FLOAT_EQ(signedArea(Polygon{{0, 0}, {2, 0}, {2, 1}, {0, 1}}), 2.0f);
  EXPECT_FLOAT_EQ(signedArea(Polygon{{0, 0}, {0, 1}, {2, 1}, {2, 0}}), -2.0f);
}

// A clockwise square inside a solid one is a hole; the same square outside every solid is a
// boundary, and so is a clockwise ring round everything; two vertices are a wall.
TEST(Obstacles, PolygonRolesFollowWindingAndNesting) {
  const Polygon solid{{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  const Polygon pocket{{2, 2}, {2, 4}, {4, 4}, {4, 2}};    // Clockwise, inside the solid.
  const Polygon room{{20, 0}, {20, 6}, {26, 6}, {26, 0}};  // Clockwise, inside nothing.
  const Polygon ring{{-50, -50}, {-50, 50}, {50, 50}, {50, -50}};
  const Polygon wall{{30, 0}, {30, 5}};
  const std::vector<Polygon> polygons{pocket, solid, room, wall, ring};
  const std::vector<PolygonRole> roles = polygonRoles(polygons);
  EXPECT_EQ(roles, (std::vector<PolygonRole>{PolygonRole::Hole, PolygonRole::Solid, PolygonRole::Boundary,
                                             PolygonRole::Wall, PolygonRole::Boundary}));
  // Only nesting in a solid makes a hole: inside a boundary it stays a boundary.
  EXPECT_EQ(polygonRoles(std::vector<Polygon>{ring, pocket})[1], PolygonRole::Boundary);
}

TEST(Obstacles, LinksVerticesLikeRvo2) {
  ObstacleSet set;
  // An L shape, counter-clockwise: the vertex at (1, 1) is concave.
  const Polygon l{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  EXPECT_EQ(set.addPolygon(l), 0);
  EXPECT_EQ(set.addPolygon(Polygon{{5, 5}, {6, 5}}), 1);
  ObstacleIndex index;
  index.update(set);
  const auto& e = index.edges();
  ASSERT_EQ(e.size(), 8u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(e[i].next, (i + 1) % 6);
    EXPECT_EQ(e[i].prev, (i + 5) % 6);
    EXPECT_EQ(e[i].isConvex != 0, i != 3) << "vertex " << i;
    const Vec2 d = l[(i + 1) % 6] - l[i];
    EXPECT_NEAR(e[i].unitDir.x, d.x / length(d), 1e-6f);
    EXPECT_NEAR(e[i].unitDir.y, d.y / length(d), 1e-6f);
  }
  // A wall segment: two edges, one each way, both convex.
  EXPECT_EQ(e[6].next, 7);
  EXPECT_EQ(e[7].next, 6);
  EXPECT_TRUE(e[6].isConvex && e[7].isConvex);
  EXPECT_EQ(e[7].unitDir, Vec2(-1, 0));
  EXPECT_EQ(set.polygon(0).size(), 6u);
  EXPECT_EQ(set.polygon(1)[1], Vec2(6, 5));
  EXPECT_THROW(set.addPolygon(Polygon{{0, 0}, {1, 1}, {2, 2}}), std::invalid_argument);
  EXPECT_EQ(set.polygonCount(), 2u);
}

TEST(Obstacles, EdgeGridListsEveryEdgeInTheCellsItCrosses) {
  ObstacleSet set;
  set.addPolygon(Polygon{{0, 0}, {100, 0}, {100, 3}, {0, 3}});
  set.addPolygon(Polygon{{40, 50}, {41, 50}});
  ObstacleIndex index;
  index.update(set);
  index.prepareGrid(10.0f);
  const GridGeometry& grid = index.grid();
  // Brute force: a point near each edge must find that edge in its own cell's list.
  const auto& edges = index.edges();
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const Vec2 a = edges[i].point;
    const Vec2 b = edges[static_cast<std::size_t>(edges[i].next)].point;
    for (float t : {0.0f, 0.3f, 0.77f, 1.0f}) {
      const int c = cellIndexOf(grid, a + t * (b - a));
      const auto begin = index.cellEdges().begin() + index.cellStart()[c];
      const auto end = index.cellEdges().begin() + index.cellStart()[c + 1];
      EXPECT_NE(std::find(begin, end, static_cast<int>(i)), end) << "edge " << i << " at t=" << t;
    }
  }
}

}  // namespace
}  // namespace crowd
