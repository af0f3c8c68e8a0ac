// Obstacle polygons: validation, RVO2's vertex linking and convexity, the edge grid.
#include <algorithm>

#include <gtest/gtest.h>

#include <crowd/obstacles.hpp>

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

TEST(Obstacles, SignedAreaTellsOrientation) {
  EXPECT_FLOAT_EQ(signedArea(Polygon{{0, 0}, {2, 0}, {2, 1}, {0, 1}}), 2.0f);
  EXPECT_FLOAT_EQ(signedArea(Polygon{{0, 0}, {0, 1}, {2, 1}, {2, 0}}), -2.0f);
}

TEST(Obstacles, LinksVerticesLikeRvo2) {
  ObstacleSet set;
  // An L shape, counter-clockwise: the vertex at (1, 1) is concave.
  const Polygon l{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  EXPECT_EQ(set.addPolygon(l), 0);
  EXPECT_EQ(set.addPolygon(Polygon{{5, 5}, {6, 5}}), 1);
  const auto& e = set.edges();
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
  set.prepareGrid(10.0f);
  const GridGeometry& grid = set.grid();
  // Brute force: a point near each edge must find that edge in its own cell's list.
  const auto& edges = set.edges();
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const Vec2 a = edges[i].point;
    const Vec2 b = edges[static_cast<std::size_t>(edges[i].next)].point;
    for (float t : {0.0f, 0.3f, 0.77f, 1.0f}) {
      const int c = cellIndexOf(grid, a + t * (b - a));
      const auto begin = set.cellEdges().begin() + set.cellStart()[c];
      const auto end = set.cellEdges().begin() + set.cellStart()[c + 1];
      EXPECT_NE(std::find(begin, end, static_cast<int>(i)), end) << "edge " << i << " at t=" << t;
    }
  }
}

}  // namespace
}  // namespace crowd
