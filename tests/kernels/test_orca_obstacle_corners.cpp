// Unit tests for crowd/kernels/orca_obstacles.hpp on polygons: the lines around an L shape's
// concave corner, and edges that add no line because a line already given covers them. Edge
// visibility and single walls are in test_orca_obstacles.cpp; the velocity-obstacle checks both
// files use are in obstacle_scene.hpp.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/obstacle_scene.hpp"

namespace {

using namespace obstacle_test;

// --- Polygons -------------------------------------------------------------------------------

Scene lShapeScene() {
  // Counter-clockwise L: the vertex (1, 1) is concave.
  Scene scene;
  scene.addPolygon({Vec2(0.0f, 0.0f), Vec2(4.0f, 0.0f), Vec2(4.0f, 1.0f), Vec2(1.0f, 1.0f), Vec2(1.0f, 4.0f),
                    Vec2(0.0f, 4.0f)});
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
        scene.visibleEdges(agent.position, crowd::sqr(crowd::obstacleRange(2.0f, 2.0f, 0.5f)));
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
    SCOPED_TRACE(testing::Message() << "trial " << trial << ": position (" << p.x << ", " << p.y
                                    << "), velocity (" << agent.velocity.x << ", " << agent.velocity.y
                                    << ")");
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
  for (const Vec2 position : {Vec2(1.3f, 1.3f), Vec2(1.0f, 1.0f), Vec2(1.2f, 1.45f), Vec2(1.49f, 1.0f)}) {
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

// --- A vertex touched just past the end of an edge ----------------------------------------------

/// The polygon drawn round a circular post, as ObstacleSet::addCircle draws it: 16 sides whose
/// edges touch the circle, counter-clockwise from the vertex on the +x axis.
Scene postScene(float radius) {
  constexpr int kSides = 16;
  const double reach = radius / std::cos(std::numbers::pi / kSides);
  std::vector<Vec2> vertices;
  for (int i = 0; i < kSides; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / kSides;
    vertices.emplace_back(static_cast<float>(reach * std::cos(angle)),
                          static_cast<float>(reach * std::sin(angle)));
  }
  Scene scene;
  scene.addPolygon(vertices);
  return scene;
}

/// Agents touching each vertex of a post from just past the end of the edge before it, with a
/// few small velocities of their own. Counts those for which no line forbids heading straight
/// into the vertex at 0.2 m/s. Past the edge's end the vertex alone faces the agent (the edge is
/// seen end-on) once the agent is within the radius of the edge's line: at a gap g beyond the
/// radius from the vertex, that is from beta = acos(1 / (1 + g)) past the edge's normal on. The
/// agents sit around that angle, where in exact arithmetic the vertex's left leg runs along the
/// edge, and rounding decides whether it points into it.
int agentsFreeToWalkIntoAVertex(bool endOnOwnLeg, int& tried) {
  constexpr float kRadius = 1.5f;  // Post and agents as in the mix built-in (RVO2's default radius).
  const Scene scene = postScene(kRadius);
  const int sides = static_cast<int>(scene.edges.size());
  int free = 0;
  tried = 0;
  for (int v = 0; v < sides; ++v) {
    const D2 vertex = scene.start(v);
    const double edgeNormal = (v - 0.5) / sides * 2.0 * std::numbers::pi;  // Of the edge ending at v.
    for (const double gap : {1e-6, 3e-6, 1e-5}) {
      const double beta = std::acos(1.0 / (1.0 + gap));
      for (int j = -30; j <= 30; ++j) {
        const double angle = edgeNormal + beta + j * 2e-6;
        const D2 out{std::cos(angle), std::sin(angle)};
        const D2 position = vertex + (kRadius * (1.0 + gap)) * out;
        for (const Vec2 velocity : {Vec2(0.0f, 0.0f), Vec2(0.01f, 0.01f), Vec2(-0.01f, 0.01f),
                                    Vec2(0.01f, -0.01f), Vec2(-0.01f, -0.01f)}) {
          const Agent agent{Vec2(static_cast<float>(position.x), static_cast<float>(position.y)), velocity,
                            kRadius, 10.0f};
          const std::vector<int> neighbours = scene.visibleEdges(agent.position, 21.5f * 21.5f);
          const std::vector<OrcaLine> lines = obstacleLines(scene, neighbours, agent, endOnOwnLeg);
          double worst = -INFINITY;
          for (const OrcaLine& line : lines) worst = std::fmax(worst, violation(line, -0.2 * out));
          ++tried;
          if (!(worst > 0.0)) ++free;
        }
      }
    }
  }
  return free;
}

TEST(KernelObstacleOrca, AVertexTouchedPastAnEdgesEndLeavesAGapByRvo2sRules) {
  // The edge ending at the vertex sees the agent end-on; where the vertex's left leg rounds to
  // pointing into that edge it counts as foreign, and the edge adds no line. The next edge also
  // sees the agent end-on, past its first vertex, and leaves that leg to the first edge.
  int tried = 0;
  const int free = agentsFreeToWalkIntoAVertex(false, tried);
  EXPECT_EQ(tried, 16 * 3 * 61 * 5);
  EXPECT_GT(free, 100) << "RVO2's rules now forbid every straight walk into the vertex";
}

TEST(KernelObstacleOrca, AVertexTouchedPastAnEdgesEndIsClosedWithTheEdgesOwnLeg) {
  int tried = 0;
  EXPECT_EQ(agentsFreeToWalkIntoAVertex(true, tried), 0);
  EXPECT_EQ(tried, 16 * 3 * 61 * 5);
}

}  // namespace
