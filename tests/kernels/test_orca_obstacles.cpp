// Unit tests for crowd/kernels/obstacle_edge.hpp and orca_obstacles.hpp: which edges an agent
// sees, and the ORCA lines static edges impose.
//
// Expectations come from the definition of an obstacle's velocity obstacle: a velocity v is in
// the VO of segment [a, b] when the agent's disc, moving at v from its position, comes closer
// than its radius to the segment within timeHorizonObst. That is checked in double precision by
// a segment-to-segment distance, independent of the kernel. An obstacle does not move, so its
// line must keep all of its VO forbidden; when the current velocity is outside the VO, it must
// stay permitted (the line is a tangent of the convex VO at the velocity's projection).
//
// A line's permitted side is its left: v violates it by det(direction, point - v), as in the LP.
#include <gtest/gtest.h>

#include "kernels/double_vec.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "crowd/kernels/orca_obstacles.hpp"

namespace {

using crowd::ObstacleEdge;
using crowd::OrcaLine;
using crowd::Vec2;

using namespace kernel_test;

/// Builds obstacle polygons the way RVO2's addObstacle does: each vertex starts the edge to the
/// next; a vertex is convex when the polygon turns left (or goes straight) there; the two
/// vertices of a wall segment are both convex.
struct Scene {
  std::vector<ObstacleEdge> edges;

  int addPolygon(const std::vector<Vec2>& vertices) {
    const int first = static_cast<int>(edges.size());
    const int n = static_cast<int>(vertices.size());
    for (int i = 0; i < n; ++i) {
      const int next = (i + 1) % n;
      const int prev = (i + n - 1) % n;
      ObstacleEdge edge;
      edge.point = vertices[i];
      edge.unitDir = crowd::normalize(vertices[next] - vertices[i]);
      edge.next = first + next;
      edge.prev = first + prev;
      edge.isConvex = n == 2 || crowd::leftOf(vertices[prev], vertices[i], vertices[next]) >= 0.0f;
      edges.push_back(edge);
    }
    return first;
  }

  D2 start(int e) const { return toD(edges[e].point); }
  D2 end(int e) const { return toD(edges[edges[e].next].point); }

  /// The edges the agent sees within range, nearest first (ties by index), as the simulator's
  /// neighbour search gives them.
  std::vector<int> visibleEdges(Vec2 position, float rangeSq) const {
    std::vector<std::pair<float, int>> found;
    for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
      const float d = crowd::visibleEdgeDistSq(edges.data(), e, position);
      if (d >= 0.0f && d < rangeSq) found.emplace_back(d, e);
    }
    std::sort(found.begin(), found.end());
    std::vector<int> result;
    for (const auto& f : found) result.push_back(f.second);
    return result;
  }
};

double distSqPointSegmentD(D2 p, D2 a, D2 b) {
  const D2 ab = b - a;
  const double len = dotD(ab, ab);
  double t = len > 0.0 ? dotD(p - a, ab) / len : 0.0;
  t = std::fmin(std::fmax(t, 0.0), 1.0);
  const D2 gap = p - (a + t * ab);
  return dotD(gap, gap);
}

/// Squared distance between segments [p0, p1] and [a, b].
double distSqSegments(D2 p0, D2 p1, D2 a, D2 b) {
  const double o1 = detD(b - a, p0 - a);
  const double o2 = detD(b - a, p1 - a);
  const double o3 = detD(p1 - p0, a - p0);
  const double o4 = detD(p1 - p0, b - p0);
  const bool collinear = o1 == 0.0 && o2 == 0.0;
  if (!collinear && o1 * o2 <= 0.0 && o3 * o4 <= 0.0) return 0.0;  // They cross.
  return std::fmin(std::fmin(distSqPointSegmentD(p0, a, b), distSqPointSegmentD(p1, a, b)),
                   std::fmin(distSqPointSegmentD(a, p0, p1), distSqPointSegmentD(b, p0, p1)));
}

/// Whether moving at v from `position` brings the agent closer than `radius` to [a, b] within
/// `tau`: the definition of the edge's velocity obstacle.
bool collidesWithEdge(D2 position, D2 v, D2 a, D2 b, double radius, double tau) {
  return distSqSegments(position, position + tau * v, a, b) < radius * radius;
}

struct Agent {
  Vec2 position;
  Vec2 velocity;
  float radius;
  float tau;
};

std::vector<OrcaLine> obstacleLines(const Scene& scene, const std::vector<int>& neighbours,
                                    const Agent& agent) {
  std::vector<OrcaLine> lines(crowd::kMaxOrcaLines);
  const int count = crowd::obstacleOrcaLines(
      scene.edges.data(), neighbours.data(), static_cast<int>(neighbours.size()), agent.position,
      agent.velocity, agent.radius, 1.0f / agent.tau, lines.data());
  lines.resize(count);
  for (const OrcaLine& line : lines) {
    EXPECT_TRUE(std::isfinite(line.point.x) && std::isfinite(line.point.y));
    EXPECT_NEAR(crowd::length(line.direction), 1.0f, 1e-5f);
  }
  return lines;
}

/// Over a grid of velocities, every one in the VO of any of `edges` must violate some line
/// (to rounding). Returns how many VO velocities were found, so callers can tell it was tested.
int expectVelocityObstaclesForbidden(const Scene& scene, const std::vector<int>& edges,
                                     const Agent& agent, const std::vector<OrcaLine>& lines,
                                     double speedRange = 4.0, double step = 0.02) {
  int inside = 0;
  int reported = 0;
  const int n = static_cast<int>(speedRange / step);
  for (int i = -n; i <= n; ++i) {
    for (int j = -n; j <= n; ++j) {
      const D2 v{i * step, j * step};
      bool collides = false;
      for (const int e : edges) {
        collides = collides || collidesWithEdge(toD(agent.position), v, scene.start(e),
                                                scene.end(e), agent.radius, agent.tau);
      }
      if (!collides) continue;
      ++inside;
      double worst = -INFINITY;
      for (const OrcaLine& line : lines) worst = std::fmax(worst, violation(line, v));
      if (worst < -1e-4 && reported++ < 5) {
        ADD_FAILURE() << "velocity (" << v.x << ", " << v.y << ") collides within the horizon "
                      << "but every line permits it (best violation " << worst << ")";
      }
    }
  }
  return inside;
}

/// The smallest violation of `line` over the VO velocities of edge `e` on the grid: about zero
/// when the line touches the VO rather than cutting away more than it needs to.
double closestVelocityObstacleGap(const Scene& scene, int e, const Agent& agent,
                                  const OrcaLine& line, double speedRange = 4.0,
                                  double step = 0.01) {
  double best = INFINITY;
  const int n = static_cast<int>(speedRange / step);
  for (int i = -n; i <= n; ++i) {
    for (int j = -n; j <= n; ++j) {
      const D2 v{i * step, j * step};
      if (!collidesWithEdge(toD(agent.position), v, scene.start(e), scene.end(e), agent.radius,
                            agent.tau)) {
        continue;
      }
      best = std::fmin(best, violation(line, v));
    }
  }
  return best;
}

bool currentVelocityCollides(const Scene& scene, int e, const Agent& agent) {
  return collidesWithEdge(toD(agent.position), toD(agent.velocity), scene.start(e), scene.end(e),
                          agent.radius, agent.tau);
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
  EXPECT_FLOAT_EQ(crowd::obstacleRangeSq(2.0f, 1.5f, 0.5f), 12.25f);
  EXPECT_FLOAT_EQ(crowd::obstacleRangeSq(5.0f, 2.0f, 0.25f), 105.0625f);
  EXPECT_FLOAT_EQ(crowd::obstacleRangeSq(0.0f, 2.0f, 0.5f), 0.25f);
}

TEST(KernelObstacleEdge, PolygonHelperMarksConcaveVertices) {
  // The helper mirrors RVO2's rule; check it on an L shape before relying on it.
  Scene scene;
  scene.addPolygon({Vec2(0.0f, 0.0f), Vec2(4.0f, 0.0f), Vec2(4.0f, 1.0f), Vec2(1.0f, 1.0f),
                    Vec2(1.0f, 4.0f), Vec2(0.0f, 4.0f)});
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
    SCOPED_TRACE(testing::Message() << "trial " << trial << ": position (" << agent.position.x
                                    << ", " << agent.position.y << "), velocity ("
                                    << agent.velocity.x << ", " << agent.velocity.y << ")");
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
  for (const std::vector<int>& order :
       {neighbours, std::vector<int>{neighbours[1], neighbours[0]}}) {
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
  for (const Vec2 velocity : {Vec2(1.0f, 0.0f), Vec2(0.0f, -1.0f), Vec2(1.0f, 1.0f),
                              Vec2(0.9f, -0.6f), Vec2(-1.0f, 0.0f)}) {
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

// --- Polygons -------------------------------------------------------------------------------

Scene lShapeScene() {
  // Counter-clockwise L: the vertex (1, 1) is concave.
  Scene scene;
  scene.addPolygon({Vec2(0.0f, 0.0f), Vec2(4.0f, 0.0f), Vec2(4.0f, 1.0f), Vec2(1.0f, 1.0f),
                    Vec2(1.0f, 4.0f), Vec2(0.0f, 4.0f)});
  return scene;
}

TEST(KernelObstacleOrca, ConcaveCornerOfAnLShape) {
  const Scene scene = lShapeScene();
  // In the notch, one unit from both edges that meet at the concave vertex, heading into it.
  const Agent agent{Vec2(2.0f, 2.0f), Vec2(-1.0f, -1.0f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, (std::vector<int>{2, 3}));
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  ASSERT_GE(lines.size(), 1u);
  ASSERT_LE(lines.size(), 2u);
  // Heading into the corner collides within the horizon and must be forbidden.
  ASSERT_TRUE(currentVelocityCollides(scene, 2, agent));
  double worst = -INFINITY;
  for (const OrcaLine& line : lines) worst = std::fmax(worst, violation(line, toD(agent.velocity)));
  EXPECT_GT(worst, 0.0);
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
  // Moving out of the notch, away from both edges, stays possible.
  for (const OrcaLine& line : lines) EXPECT_LT(violation(line, D2{0.5, 0.5}), 0.0);
}

TEST(KernelObstacleOrca, LShapeSweepGivesFiniteSafeLines) {
  // Agents all around the L, at many velocities: lines are finite and unit (checked in
  // obstacleLines), never more than the visible edges, and together they forbid every velocity
  // that would hit any visible edge within the horizon.
  const Scene scene = lShapeScene();
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> coord(-2.5f, 6.5f);
  std::uniform_real_distribution<float> speed(-2.0f, 2.0f);
  int tested = 0;
  for (int trial = 0; trial < 400 && tested < 60; ++trial) {
    const Agent agent{Vec2(coord(rng), coord(rng)), Vec2(speed(rng), speed(rng)), 0.5f, 2.0f};
    const std::vector<int> neighbours =
        scene.visibleEdges(agent.position, crowd::obstacleRangeSq(2.0f, 2.0f, 0.5f));
    // Skip agents overlapping the polygon or inside it: their lines only say "move away".
    bool overlapping = false;
    for (int e = 0; e < 6; ++e) {
      if (distSqPointSegmentD(toD(agent.position), scene.start(e), scene.end(e)) <= 0.25) {
        overlapping = true;
      }
    }
    const D2 p = toD(agent.position);
    const bool insideSolid = (p.x > 0.0 && p.x < 4.0 && p.y > 0.0 && p.y < 1.0) ||
                             (p.x > 0.0 && p.x < 1.0 && p.y > 0.0 && p.y < 4.0);
    if (overlapping || insideSolid) continue;
    ++tested;
    SCOPED_TRACE(testing::Message()
                 << "trial " << trial << ": position (" << p.x << ", " << p.y << "), velocity ("
                 << agent.velocity.x << ", " << agent.velocity.y << ")");
    const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
    EXPECT_LE(lines.size(), neighbours.size());
    expectVelocityObstaclesForbidden(scene, neighbours, agent, lines, 2.5, 0.05);
  }
  EXPECT_GE(tested, 40);
}

TEST(KernelObstacleOrca, CollidingNearTheConcaveVertexIsFinite) {
  // Overlapping both edges at the concave vertex, or exactly on it: no NaN, and moving out of
  // the notch is allowed.
  const Scene scene = lShapeScene();
  for (const Vec2 position :
       {Vec2(1.3f, 1.3f), Vec2(1.0f, 1.0f), Vec2(1.2f, 1.45f), Vec2(1.49f, 1.0f)}) {
    const Agent agent{position, Vec2(-1.0f, -1.0f), 0.5f, 2.0f};
    std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
    // Include both edges at the vertex even when the agent sits on one's line.
    for (const int e : {2, 3}) {
      if (std::find(neighbours.begin(), neighbours.end(), e) == neighbours.end()) {
        neighbours.push_back(e);
      }
    }
    SCOPED_TRACE(testing::Message() << "position (" << position.x << ", " << position.y << ")");
    const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
    EXPECT_LE(lines.size(), 2u);
    for (const OrcaLine& line : lines) EXPECT_LE(violation(line, D2{1.0, 1.0}), 1e-6);
  }
}

// --- Skipping edges already covered ---------------------------------------------------------

TEST(KernelObstacleOrca, EdgeBehindACoveringLineAddsNoLine) {
  // Walls on y = 3: W1 from x = -1 to 1 in front of the agent, W2 continuing it from 1 to 5;
  // W3 on y = 5 right behind W1. Heading at W1, its cut-off line y <= 1.25 already keeps the
  // agent off W2 and W3, so they add nothing.
  Scene scene;
  const int w1 = scene.addPolygon({Vec2(-1.0f, 3.0f), Vec2(1.0f, 3.0f)});
  const int w2 = scene.addPolygon({Vec2(1.0f, 3.0f), Vec2(5.0f, 3.0f)});
  const int w3 = scene.addPolygon({Vec2(-1.0f, 5.0f), Vec2(1.0f, 5.0f)});
  const Agent agent{Vec2(0.0f, 0.0f), Vec2(0.0f, 2.0f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, (std::vector<int>{w1, w2, w3}));

  const std::vector<OrcaLine> all = obstacleLines(scene, neighbours, agent);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_NEAR(violation(all[0], D2{0.0, 1.25}), 0.0, 1e-6);
  // Skipping them is safe: their VOs are forbidden by W1's line.
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, {w2, w3}, agent, all), 100);
  // Alone, each of them does produce a line: the skip is what removed it.
  EXPECT_EQ(obstacleLines(scene, {w2}, agent).size(), 1u);
  EXPECT_EQ(obstacleLines(scene, {w3}, agent).size(), 1u);
}

TEST(KernelObstacleOrca, EdgeSlightlyInFrontOfTheLineIsNotCovered) {
  // W4 continues W1 but 0.1 lower: its end discs poke 0.05 (in velocity) past W1's line, more
  // than the epsilon of the "covered" test, so it needs a line of its own.
  Scene scene;
  const int w1 = scene.addPolygon({Vec2(-1.0f, 3.0f), Vec2(1.0f, 3.0f)});
  const int w4 = scene.addPolygon({Vec2(1.0f, 2.9f), Vec2(5.0f, 2.9f)});
  const Agent agent{Vec2(0.0f, 0.0f), Vec2(0.0f, 2.0f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, (std::vector<int>{w1, w4}));
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  EXPECT_EQ(lines.size(), 2u);
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
}

TEST(KernelObstacleOrca, VelocityNearestAForeignLegAddsNoLine) {
  // Square [0,2]^2, agent at (3, -1), below and right of the corner (2, 0). Edge 1 (the right
  // side) has its left leg at that corner pointing into edge 0 (the bottom), so the leg is
  // replaced by edge 0's direction. A velocity nearest that leg belongs to edge 0's VO: edge 1
  // alone adds nothing, and edge 0 supplies the line.
  Scene scene;
  scene.addPolygon({Vec2(0.0f, 0.0f), Vec2(2.0f, 0.0f), Vec2(2.0f, 2.0f), Vec2(0.0f, 2.0f)});
  const Agent agent{Vec2(3.0f, -1.0f), Vec2(-2.0f, 0.7f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, (std::vector<int>{0, 1}));
  // The path passes 1.3/sqrt(4.49) = 0.61 from the corner: it misses edge 1 but hits edge 0.
  EXPECT_FALSE(currentVelocityCollides(scene, 1, agent));
  EXPECT_TRUE(currentVelocityCollides(scene, 0, agent));
  EXPECT_EQ(obstacleLines(scene, {1}, agent).size(), 0u);
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_GT(violation(lines[0], toD(agent.velocity)), 0.0);
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
}

TEST(KernelObstacleOrca, VelocityNearestAForeignRightLegAddsNoLine) {
  // The mirror case: for edge 0 (the bottom) the right leg at (2, 0) points into edge 1, and a
  // velocity heading up past the corner belongs to edge 1's VO.
  Scene scene;
  scene.addPolygon({Vec2(0.0f, 0.0f), Vec2(2.0f, 0.0f), Vec2(2.0f, 2.0f), Vec2(0.0f, 2.0f)});
  const Agent agent{Vec2(3.0f, -1.0f), Vec2(-0.7f, 2.0f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, (std::vector<int>{0, 1}));
  EXPECT_FALSE(currentVelocityCollides(scene, 0, agent));
  EXPECT_TRUE(currentVelocityCollides(scene, 1, agent));
  EXPECT_EQ(obstacleLines(scene, {0}, agent).size(), 0u);
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_GT(violation(lines[0], toD(agent.velocity)), 0.0);
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
}

TEST(KernelObstacleOrca, EdgeSeenPastAConcaveVertexAddsNoLine) {
  // Below the L, at (1.2, -1): edge 3 (x = 1, from y = 1 up) is on the agent's right and in
  // range, but seen end-on through the solid past the concave vertex (1, 1). The bottom edge
  // shields it, so edge 3 adds nothing and the bottom edge's line keeps both VOs forbidden.
  const Scene scene = lShapeScene();
  const Agent agent{Vec2(1.2f, -1.0f), Vec2(0.1f, 1.5f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, (std::vector<int>{0, 3}));
  EXPECT_EQ(obstacleLines(scene, {3}, agent).size(), 0u);
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_GT(violation(lines[0], toD(agent.velocity)), 0.0);
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
}

TEST(KernelObstacleOrca, EdgeSeenPastAConcaveSecondVertexAddsNoLine) {
  // Left of the L, at (-1, 1.2): edge 2 (y = 1, from x = 4 back to 1) is seen end-on through
  // the vertical arm, past its concave second vertex (1, 1). The left side shields it.
  const Scene scene = lShapeScene();
  const Agent agent{Vec2(-1.0f, 1.2f), Vec2(1.5f, 0.1f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, (std::vector<int>{5, 2}));
  EXPECT_EQ(obstacleLines(scene, {2}, agent).size(), 0u);
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_GT(violation(lines[0], toD(agent.velocity)), 0.0);
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
}

TEST(KernelObstacleOrca, EdgeNotBehindTheLineStillGetsOne) {
  // A wall off to the side, crossing the first line: not covered, so it adds its own line.
  Scene scene;
  const int w1 = scene.addPolygon({Vec2(-1.0f, 3.0f), Vec2(1.0f, 3.0f)});
  const int side = scene.addPolygon({Vec2(3.0f, -2.0f), Vec2(3.0f, 2.0f)});
  const Agent agent{Vec2(0.0f, 0.0f), Vec2(0.0f, 2.0f), 0.5f, 2.0f};
  const std::vector<int> neighbours = scene.visibleEdges(agent.position, 100.0f);
  ASSERT_EQ(neighbours, (std::vector<int>{w1 + 0, side + 1}));
  const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent);
  EXPECT_EQ(lines.size(), 2u);
  EXPECT_GT(expectVelocityObstaclesForbidden(scene, neighbours, agent, lines), 100);
}

}  // namespace
