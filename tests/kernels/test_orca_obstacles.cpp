// Unit tests for crowd/kernels/obstacle_edge.hpp and orca_obstacles.hpp: which edges an agent
// sees, and the ORCA lines static edges impose on an agent in front of a wall, already colliding
// with an edge or corner, or seeing an edge end-on. The L-shaped polygon and edges that add no
// line because another line covers them are in test_orca_obstacle_corners.cpp; the
// velocity-obstacle checks both files use are in obstacle_scene.hpp.
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/obstacle_scene.hpp"

namespace {

using namespace obstacle_test;

/// The smallest violation of `line` over the VO velocities of edge `e` on the grid: about zero
/// when the line touches the VO rather than cutting away more than it needs to.
double closestVelocityObstacleGap(const Scene& scene, int e, const Agent& agent, const OrcaLine& line,
                                  double speedRange = 4.0, double step = 0.01) {
  double best = INFINITY;
  const int n = static_cast<int>(speedRange / step);
  for (int i = -n; i <= n; ++i) {
    for (int j = -n; j <= n; ++j) {
      const D2 v{i * step, j * step};
      if (!collidesWithEdge(toD(agent.position), v, scene.start(e), scene.end(e), agent.radius, agent.tau)) {
        continue;
      }
      best = std::fmin(best, violation(line, v));
    }
  }
  return best;
}

// --- Which edges an agent sees ----------------------------------------------------------------

TEST(KernelObstacleEdge, VisibleEdgeDistSqIsNegativeOnTheSolidSide) {
  Scene scene;
  // A counter-clockwise square: its inside is on the left of every edge.
  scene.addPolygon({Vec2(0.0f, 0.0f), Vec2(2.0f, 0.0f), Vec2(2.0f, 2.0f), Vec2(0.0f, 2.0f)});
  for (int e = 0; e < 4; ++e) {
    EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), e, Vec2(1.0f, 1.0f)), 0.0f);
    EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), e, Vec2(0.1f, 1.9f)), 0.0f);
  }
  // On the edge's own line: not strictly on its right, so not seen.
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 0, Vec2(1.0f, 0.0f)), 0.0f);
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 0, Vec2(5.0f, 0.0f)), 0.0f);
  // Outside, below edge 0 only: seen by edge 0 and by no other.
  const Vec2 below(1.0f, -3.0f);
  EXPECT_FLOAT_EQ(crowd::visibleEdgeDistSq(scene.edges.data(), 0, below), 9.0f);
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 1, below), 0.0f);
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 2, below), 0.0f);
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 3, below), 0.0f);
  // Diagonally off a corner: both edges at that corner see it, at the corner's distance.
  const Vec2 corner(3.0f, 4.0f);
  EXPECT_FLOAT_EQ(crowd::visibleEdgeDistSq(scene.edges.data(), 1, corner), 5.0f);
  EXPECT_FLOAT_EQ(crowd::visibleEdgeDistSq(scene.edges.data(), 2, corner), 5.0f);
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 0, corner), 0.0f);
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 3, corner), 0.0f);
}

TEST(KernelObstacleEdge, VisibleEdgeDistSqMatchesPointSegmentDistance) {
  Scene scene;
  scene.addPolygon({Vec2(-1.0f, -1.0f), Vec2(3.0f, 0.0f), Vec2(1.0f, 4.0f)});
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> coord(-6.0f, 8.0f);
  for (int i = 0; i < 3000; ++i) {
    const Vec2 p(coord(rng), coord(rng));
    for (int e = 0; e < 3; ++e) {
      const D2 a = scene.start(e);
      const D2 b = scene.end(e);
      const double side = detD(b - a, toD(p) - a);  // > 0: left of the edge, the solid side.
      const float d = crowd::visibleEdgeDistSq(scene.edges.data(), e, p);
      if (std::fabs(side) < 1e-4) continue;  // Too close to the line to call the side.
      if (side > 0.0) {
        EXPECT_LT(d, 0.0f);
      } else {
        EXPECT_NEAR(d, distSqPointSegmentD(toD(p), a, b), 1e-4 * (1.0 + d));
      }
    }
  }
}

TEST(KernelObstacleEdge, WallSegmentShowsOneEdgeToEachSide) {
  // A two-vertex obstacle has an edge each way; an agent on either side sees exactly one.
  Scene scene;
  scene.addPolygon({Vec2(-5.0f, 3.0f), Vec2(5.0f, 3.0f)});
  ASSERT_EQ(scene.edges.size(), 2u);
  EXPECT_TRUE(scene.edges[0].isConvex);
  EXPECT_TRUE(scene.edges[1].isConvex);
  EXPECT_EQ(scene.edges[0].next, 1);
  EXPECT_EQ(scene.edges[0].prev, 1);
  EXPECT_EQ(scene.edges[1].next, 0);

  const float below = crowd::visibleEdgeDistSq(scene.edges.data(), 0, Vec2(0.0f, 0.0f));
  EXPECT_FLOAT_EQ(below, 9.0f);
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 1, Vec2(0.0f, 0.0f)), 0.0f);

  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 0, Vec2(7.0f, 7.0f)), 0.0f);
  EXPECT_FLOAT_EQ(crowd::visibleEdgeDistSq(scene.edges.data(), 1, Vec2(7.0f, 7.0f)), 20.0f);

  // On the wall's line (beyond its end): neither edge.
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 0, Vec2(8.0f, 3.0f)), 0.0f);
  EXPECT_LT(crowd::visibleEdgeDistSq(scene.edges.data(), 1, Vec2(8.0f, 3.0f)), 0.0f);

  EXPECT_EQ(scene.visibleEdges(Vec2(0.0f, 0.0f), 100.0f), std::vector<int>{0});
  EXPECT_EQ(scene.visibleEdges(Vec2(1.0f, 4.0f), 100.0f), std::vector<int>{1});
}

TEST(KernelObstacleEdge, ObstacleRangeIsHowFarTheAgentCanReach) {
  // Moving at maxSpeed for timeHorizonObst, plus its own radius.
  EXPECT_FLOAT_EQ(crowd::obstacleRange(2.0f, 1.5f, 0.5f), 3.5f);
  EXPECT_FLOAT_EQ(crowd::obstacleRange(5.0f, 2.0f, 0.25f), 10.25f);
  EXPECT_FLOAT_EQ(crowd::obstacleRange(0.0f, 2.0f, 0.5f), 0.5f);
}

TEST(KernelObstacleEdge, PolygonHelperMarksConcaveVertices) {
  // The helper mirrors RVO2's rule; check it on an L shape before relying on it.
  Scene scene;
  scene.addPolygon({Vec2(0.0f, 0.0f), Vec2(4.0f, 0.0f), Vec2(4.0f, 1.0f), Vec2(1.0f, 1.0f), Vec2(1.0f, 4.0f),
                    Vec2(0.0f, 4.0f)});
  for (int i = 0; i < 6; ++i) EXPECT_EQ(scene.edges[i].isConvex != 0, i != 3) << "vertex " << i;
  EXPECT_FLOAT_EQ(scene.edges[2].unitDir.x, -1.0f);
  EXPECT_FLOAT_EQ(scene.edges[3].unitDir.y, 1.0f);
}

// --- Lines from an edge in front of the agent ---------------------------------------------------

// A wall along y = 3 from x = -5 to 5, seen from below; agent radius 0.5, horizon 2.
Scene wallScene() {
  Scene scene;
  scene.addPolygon({Vec2(-5.0f, 3.0f), Vec2(5.0f, 3.0f)});
  return scene;
}

TEST(KernelObstacleOrca, HeadOnWallForbidsTheVelocity) {
  const Scene scene = wallScene();
  const Agent agent{Vec2(0.0f, 0.0f), Vec2(0.0f, 2.0f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, std::vector<int>{0});
  ASSERT_TRUE(currentVelocityCollides(scene, 0, agent));
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_GT(violation(lines[0], toD(agent.velocity)), 0.0);
  // Straight at the wall the limit is (3 - 0.5) / 2 = 1.25: the line is y = 1.25.
  EXPECT_NEAR(violation(lines[0], D2{0.0, 1.25}), 0.0, 1e-6);
  EXPECT_NEAR(violation(lines[0], D2{1.0, 1.25}), 0.0, 1e-6);
  EXPECT_LT(violation(lines[0], D2{0.0, 1.2}), 0.0);
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
  EXPECT_NEAR(closestVelocityObstacleGap(scene, 0, agent, lines[0]), 0.0, 0.02);
}

TEST(KernelObstacleOrca, ParallelFarFromAWallKeepsTheVelocity) {
  const Scene scene = wallScene();
  const Agent agent{Vec2(0.0f, 0.0f), Vec2(2.0f, 0.0f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_FALSE(currentVelocityCollides(scene, 0, agent));
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_LT(violation(lines[0], toD(agent.velocity)), 0.0);
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
  EXPECT_NEAR(closestVelocityObstacleGap(scene, 0, agent, lines[0]), 0.0, 0.02);
}

TEST(KernelObstacleOrca, RandomVelocitiesNearAWall) {
  // For any velocity, the line forbids the whole VO of the edge and permits the velocity
  // exactly when it does not collide within the horizon.
  const Scene scene = wallScene();
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> speed(-3.0f, 3.0f);
  std::uniform_real_distribution<float> place(-7.0f, 7.0f);
  int collisions = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Agent agent{Vec2(place(rng), 3.0f - 0.6f - 2.0f * std::fabs(speed(rng))),
                      Vec2(speed(rng), speed(rng)), 0.5f, 2.0f};
    const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
    ASSERT_EQ(neighbours, std::vector<int>{0});
    const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
    ASSERT_EQ(lines.size(), 1u);
    SCOPED_TRACE(testing::Message() << "trial " << trial << ": position (" << agent.position.x << ", "
                                    << agent.position.y << "), velocity (" << agent.velocity.x << ", "
                                    << agent.velocity.y << ")");
    const bool collides = currentVelocityCollides(scene, 0, agent);
    collisions += collides;
    const double v = violation(lines[0], toD(agent.velocity));
    if (std::fabs(v) > 1e-4) {
      EXPECT_EQ(v > 0.0, collides);
    }
    expectVelocityObstaclesForbidden(scene, neighbours, agent, lines, 4.0, 0.05);
  }
  EXPECT_GT(collisions, 5);
  EXPECT_LT(collisions, 35);
}

// --- Already colliding ----------------------------------------------------------------------

TEST(KernelObstacleOrca, CollidingWithAnEdgeMeansMovingAway) {
  const Scene scene = wallScene();
  const Agent agent{Vec2(0.0f, 2.7f), Vec2(0.3f, 0.4f), 0.5f, 2.0f};  // 0.3 from the wall.
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, std::vector<int>{0});
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  ASSERT_EQ(lines.size(), 1u);
  // No time horizon: the line is the edge's direction reversed, through the origin.
  EXPECT_EQ(lines[0].point.x, 0.0f);
  EXPECT_EQ(lines[0].point.y, 0.0f);
  EXPECT_FLOAT_EQ(lines[0].direction.x, -scene.edges[0].unitDir.x);
  EXPECT_FLOAT_EQ(lines[0].direction.y, -scene.edges[0].unitDir.y);
  EXPECT_GT(violation(lines[0], D2{0.0, 0.1}), 0.0);          // Towards the wall.
  EXPECT_LT(violation(lines[0], D2{2.0, -0.1}), 0.0);         // Away from it.
  EXPECT_NEAR(violation(lines[0], D2{5.0, 0.0}), 0.0, 1e-9);  // Along it.
}

TEST(KernelObstacleOrca, CollidingWithAConvexCornerMeansMovingAwayFromIt) {
  Scene scene;
  scene.addPolygon({Vec2(0.0f, 0.0f), Vec2(2.0f, 0.0f), Vec2(2.0f, 2.0f), Vec2(0.0f, 2.0f)});
  const Agent agent{Vec2(2.3f, 2.2f), Vec2(-0.5f, -0.5f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  // The two edges at the corner, at the same distance, in both orders.
  ASSERT_EQ(neighbours.size(), 2u);
  for (const std::vector<int>& order : {neighbours, std::vector<int>{neighbours[1], neighbours[0]}}) {
    const std::vector<OrcaLine> lines = obstacleLines(scene, order, agent);
    ASSERT_EQ(lines.size(), 1u) << "edge order " << order[0] << ", " << order[1];
    EXPECT_EQ(lines[0].point.x, 0.0f);
    EXPECT_EQ(lines[0].point.y, 0.0f);
    // The line is perpendicular to the direction to the corner; moving at it is forbidden.
    const D2 toCorner = D2{2.0, 2.0} - toD(agent.position);
    EXPECT_NEAR(dotD(toD(lines[0].direction), toCorner), 0.0, 1e-6);
    EXPECT_GT(violation(lines[0], 0.5 * toCorner), 0.0);
    EXPECT_LT(violation(lines[0], -0.5 * toCorner), 0.0);
  }
}

TEST(KernelObstacleOrca, CollidingWithTheFarEndOfAWall) {
  // Just past the wall's right end, below it: the edge's second vertex is hit; the reverse edge
  // cannot see the agent, so this edge must supply the line.
  const Scene scene = wallScene();
  const Agent agent{Vec2(5.3f, 2.8f), Vec2(-1.0f, 0.5f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, std::vector<int>{0});
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].point.x, 0.0f);
  EXPECT_EQ(lines[0].point.y, 0.0f);
  const D2 toEnd = D2{5.0, 3.0} - toD(agent.position);
  EXPECT_NEAR(dotD(toD(lines[0].direction), toEnd), 0.0, 1e-6);
  EXPECT_GT(violation(lines[0], toEnd), 0.0);
  EXPECT_LT(violation(lines[0], -1.0 * toEnd), 0.0);
}

// --- Edges seen end-on ----------------------------------------------------------------------

TEST(KernelObstacleOrca, EdgeSeenObliquelyPastItsFirstVertex) {
  // A wall along y = 0 from x = 2 to 5; the agent at (0, -0.3) lies within its radius of the
  // wall's line but before the wall: only the vertex (2, 0) shapes the VO.
  Scene scene;
  scene.addPolygon({Vec2(2.0f, 0.0f), Vec2(5.0f, 0.0f)});
  for (const Vec2 velocity :
       {Vec2(1.0f, 0.0f), Vec2(0.0f, -1.0f), Vec2(1.0f, 1.0f), Vec2(0.9f, -0.6f), Vec2(-1.0f, 0.0f)}) {
    const Agent agent{Vec2(0.0f, -0.3f), velocity, 0.5f, 2.0f};
    const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
    ASSERT_EQ(neighbours, std::vector<int>{0});
    const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
    ASSERT_EQ(lines.size(), 1u);
    SCOPED_TRACE(testing::Message() << "velocity (" << velocity.x << ", " << velocity.y << ")");
    const bool collides = currentVelocityCollides(scene, 0, agent);
    EXPECT_EQ(violation(lines[0], toD(velocity)) > 0.0, collides);
    EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
    EXPECT_NEAR(closestVelocityObstacleGap(scene, 0, agent, lines[0]), 0.0, 0.02);
  }
}

TEST(KernelObstacleOrca, EdgeSeenObliquelyPastItsSecondVertex) {
  // The same wall from above and to its left: the agent sees the reverse edge (5,0) -> (2,0)
  // and is beyond that edge's second vertex.
  Scene scene;
  scene.addPolygon({Vec2(2.0f, 0.0f), Vec2(5.0f, 0.0f)});
  for (const Vec2 velocity : {Vec2(1.0f, 0.0f), Vec2(0.0f, 1.0f), Vec2(1.0f, -0.4f)}) {
    const Agent agent{Vec2(0.0f, 0.3f), velocity, 0.5f, 2.0f};
    const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
    ASSERT_EQ(neighbours, std::vector<int>{1});
    const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
    ASSERT_EQ(lines.size(), 1u);
    SCOPED_TRACE(testing::Message() << "velocity (" << velocity.x << ", " << velocity.y << ")");
    const bool collides = currentVelocityCollides(scene, 1, agent);
    EXPECT_EQ(violation(lines[0], toD(velocity)) > 0.0, collides);
    EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
    EXPECT_NEAR(closestVelocityObstacleGap(scene, 1, agent, lines[0]), 0.0, 0.02);
  }
}

}  // namespace
