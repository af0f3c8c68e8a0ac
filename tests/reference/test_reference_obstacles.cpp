// Tests of the reference simulator's obstacle handling, against situations whose answers follow
// from the geometry (worked out by hand in the comments) rather than from the reference's own
// output. Agents, neighbours and the linear program are in test_reference_sim.cpp.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "reference/reference_sim.hpp"
#include "reference_test_helpers.hpp"

namespace {

using crowd_reference::RefAgent;
using crowd_reference::RefWorld;
using crowd_reference::V2;
using reference_test::expectNear;
using reference_test::makeAgent;

// Distance between segments a0-a1 and b0-b1 (non-crossing segments attain it at an endpoint).
double segmentDistance(V2 a0, V2 a1, V2 b0, V2 b1) {
  using crowd_reference::det;
  const auto crosses = [](V2 p0, V2 p1, V2 q0, V2 q1) {
    const double d1 = det(p1 - p0, q0 - p0);
    const double d2 = det(p1 - p0, q1 - p0);
    const double d3 = det(q1 - q0, p0 - q0);
    const double d4 = det(q1 - q0, p1 - q0);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0)) && d1 != 0 && d3 != 0;
  };
  if (crosses(a0, a1, b0, b1)) return 0.0;
  using crowd_reference::distSqPointSegment;
  const double best = std::min({distSqPointSegment(b0, b1, a0), distSqPointSegment(b0, b1, a1),
                                distSqPointSegment(a0, a1, b0), distSqPointSegment(a0, a1, b1)});
  return std::sqrt(best);
}

// Smallest distance from the agent's centre, moving with `velocity` for `horizon`, to any edge
// of any obstacle polygon.
double clearanceFromObstacles(const RefWorld& world, V2 position, V2 velocity, double horizon) {
  double best = INFINITY;
  const V2 end = position + horizon * velocity;
  for (const auto& polygon : world.obstacles) {
    for (std::size_t k = 0; k < polygon.size(); ++k) {
      const V2 a = polygon[k];
      const V2 b = polygon[(k + 1) % polygon.size()];
      best = std::min(best, segmentDistance(position, end, a, b));
    }
  }
  return best;
}

}  // namespace

// --- obstacles -----------------------------------------------------------------------------

TEST(ReferenceSim, VertexConvexity) {
  RefWorld world;
  world.obstacles.push_back({{0, 0}, {1, 0}, {1, 1}, {0, 1}});                  // CCW square
  world.obstacles.push_back({{5, 0}, {5, 1}, {6, 1}, {6, 0}});                  // CW square
  world.obstacles.push_back({{8, 0}, {9, 0}});                                  // wall
  world.obstacles.push_back({{0, 5}, {2, 5}, {2, 6}, {1, 6}, {1, 7}, {0, 7}});  // CCW L-shape
  const auto vertices = crowd_reference::obstacleVertices(world);
  ASSERT_EQ(vertices.size(), 16u);
  for (int k = 0; k < 4; ++k) EXPECT_TRUE(vertices[k].convex) << k;
  for (int k = 4; k < 8; ++k) EXPECT_FALSE(vertices[k].convex) << k;
  EXPECT_TRUE(vertices[8].convex);
  EXPECT_TRUE(vertices[9].convex);
  for (int k = 10; k < 16; ++k) EXPECT_EQ(vertices[k].convex, k != 13) << k;  // (1,6) reflex
  // Links wrap within each polygon, and the wall has one edge each way.
  EXPECT_EQ(vertices[3].next, 0);
  EXPECT_EQ(vertices[0].prev, 3);
  EXPECT_EQ(vertices[8].next, 9);
  EXPECT_EQ(vertices[9].next, 8);
  expectNear(vertices[8].unitDir, {1, 0}, 0.0);
  expectNear(vertices[9].unitDir, {-1, 0}, 0.0);
}

TEST(ReferenceSim, ObstacleNeighboursAreVisibleEdgesInRange) {
  RefWorld world;
  world.obstacles.push_back({{1, -1}, {3, -1}, {3, 1}, {1, 1}});  // CCW square right of agent
  world.agents.push_back(makeAgent({0, 0}, {0, 0}, {0, 0}));
  world.agents[0].timeHorizonObst = 5.0;  // range 10.5: every edge is within range
  // Only the left face (edge 3, from (1,1) down to (1,-1)) has the agent on its outer side.
  EXPECT_EQ(crowd_reference::obstacleNeighbourEdges(world, 0), (std::vector<int>{3}));
  // Exactly on an edge's supporting line is not strictly on its right: a wall seen end-on.
  world.obstacles = {{{1, 0}, {3, 0}}};
  EXPECT_TRUE(crowd_reference::obstacleNeighbourEdges(world, 0).empty());

  // Inside a clockwise boundary every edge faces the agent; order by distance, then index.
  RefWorld room;
  room.obstacles.push_back({{0, 0}, {0, 10}, {10, 10}, {10, 0}});
  room.agents.push_back(makeAgent({1, 2}, {0, 0}, {0, 0}));
  room.agents[0].timeHorizonObst = 10.0;  // range 20.5
  // Distances: edge 0 (x=0) 1, edge 1 (y=10) 8, edge 2 (x=10) 9, edge 3 (y=0) 2.
  EXPECT_EQ(crowd_reference::obstacleNeighbourEdges(room, 0), (std::vector<int>{0, 3, 1, 2}));
  room.agents[0].position = {2, 2};  // edges 0 and 3 now tie
  EXPECT_EQ(crowd_reference::obstacleNeighbourEdges(room, 0), (std::vector<int>{0, 3, 1, 2}));
}

TEST(ReferenceSim, ObstacleRangeIsStrict) {
  // Range = timeHorizonObst * maxSpeed + radius = 2 * 1 + 0.5 = 2.5.
  RefWorld world;
  world.obstacles.push_back({{-10, 2.5}, {10, 2.5}});
  world.agents.push_back(makeAgent({0, 0}, {0, 0}, {0, 0}));
  world.agents[0].maxSpeed = 1.0;
  EXPECT_TRUE(crowd_reference::obstacleNeighbourEdges(world, 0).empty());
  world.obstacles[0] = {{-10, 2.4999}, {10, 2.4999}};
  EXPECT_EQ(crowd_reference::obstacleNeighbourEdges(world, 0), (std::vector<int>{0}));
}

TEST(ReferenceSim, AgentTowardsWallIsSlowed) {
  // Wall 2 ahead, radius 0.5, timeHorizonObst 2: reaching it within the horizon needs
  // v_y > (2 - 0.5) / 2 = 0.75, so the closest allowed velocity to (0, 1) is (0, 0.75).
  RefWorld world;
  world.obstacles.push_back({{-10, 2}, {10, 2}});
  RefAgent agent = makeAgent({0, 0}, {0, 1}, {0, 1});
  agent.maxSpeed = 1.0;
  world.agents.push_back(agent);
  EXPECT_EQ(crowd_reference::obstacleNeighbourEdges(world, 0), (std::vector<int>{0}));
  const V2 v = crowd_reference::computeNewVelocities(world)[0];
  expectNear(v, {0, 0.75}, 1e-12);
  EXPECT_GE(clearanceFromObstacles(world, agent.position, v, 2.0), 0.5 - 1e-9);
}

TEST(ReferenceSim, AgentAlongWallIsUnaffected) {
  RefWorld world;
  world.obstacles.push_back({{-10, 1}, {10, 1}});
  RefAgent agent = makeAgent({0, 0}, {1, 0}, {1, 0});
  agent.maxSpeed = 1.0;
  world.agents.push_back(agent);
  ASSERT_EQ(crowd_reference::orcaLines(world, 0).size(), 1u);  // the wall is considered
  expectNear(crowd_reference::computeNewVelocities(world)[0], {1, 0}, 1e-15);
}

TEST(ReferenceSim, AgentTouchingWallCannotMoveTowardsIt) {
  // 0.3 from the wall with radius 0.5: the allowed velocities are those with v_y <= 0, and
  // the closest one to (0.5, 1) is (0.5, 0).
  RefWorld world;
  world.obstacles.push_back({{-10, 2}, {10, 2}});
  world.agents.push_back(makeAgent({0, 1.7}, {0, 0}, {0.5, 1}));
  expectNear(crowd_reference::computeNewVelocities(world)[0], {0.5, 0}, 1e-12);
}

TEST(ReferenceSim, CollinearEdgeAlreadyCoveredAddsNoLine) {
  // A straight bottom face split at (0, 2). Agent at (0.5, 0): edge 1 (distSq 4) comes before
  // edge 0 (distSq 4.25). Edge 1 gives the cut-off line v_y <= 0.75, which keeps the agent
  // radius / tau clear of both ends of edge 0 as well, so edge 0 is skipped.
  RefWorld world;
  world.obstacles.push_back({{-10, 2}, {0, 2}, {10, 2}, {10, 3}, {-10, 3}});
  RefAgent agent = makeAgent({0.5, 0}, {0, 1}, {0, 1});
  agent.maxSpeed = 1.0;
  world.agents.push_back(agent);
  EXPECT_EQ(crowd_reference::obstacleNeighbourEdges(world, 0), (std::vector<int>{1, 0}));
  const auto lines = crowd_reference::orcaLines(world, 0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NEAR(crowd_reference::violation(lines[0], {3, 0.75}), 0.0, 1e-12);
  EXPECT_LT(crowd_reference::violation(lines[0], {3, 0.7}), 0.0);
  expectNear(crowd_reference::computeNewVelocities(world)[0], {0, 0.75}, 1e-12);
}

TEST(ReferenceSim, TouchingVerticesForbidsMovingTowardsThem) {
  // Overlapping the corner (1,1) of a square: no velocity component towards it, so (1, 0.5)
  // projects onto v.x + v.y <= 0 as (0.25, -0.25). Edge 3 ends at the same corner and leaves
  // it to edge 0 (the agent is not on edge 3's side of the corner).
  RefWorld world;
  world.obstacles.push_back({{1, 1}, {3, 1}, {3, 3}, {1, 3}});
  world.agents.push_back(makeAgent({0.7, 0.7}, {0, 0}, {1, 0.5}));
  EXPECT_EQ(crowd_reference::obstacleNeighbourEdges(world, 0), (std::vector<int>{0, 3}));
  EXPECT_EQ(crowd_reference::orcaLines(world, 0).size(), 1u);
  expectNear(crowd_reference::computeNewVelocities(world)[0], {0.25, -0.25}, 1e-12);

  // Past the end (0,0) of a wall, overlapping it: the pref's component towards the end goes.
  world.obstacles = {{{-2, 0}, {0, 0}}};
  world.agents = {makeAgent({0.3, -0.2}, {0, 0}, {-1, 0})};
  const V2 toEnd{-0.3, 0.2};
  const V2 pref{-1, 0};
  const V2 expected = pref - (crowd_reference::dot(pref, toEnd) / 0.13) * toEnd;
  expectNear(crowd_reference::computeNewVelocities(world)[0], expected, 1e-12);
}

TEST(ReferenceSim, WallSeenEndOnIsPassedTangentially) {
  // Heading along a wall's line towards one of its ends, 0.3 off its axis (radius 0.5): only
  // that end vertex matters. The new velocity is the least change of (±1, 0) whose ray just
  // grazes the disc of radius 0.5 around the vertex.
  struct Case {
    std::vector<V2> wall;
    V2 pref;
  };
  const Case cases[] = {{{{1, 0}, {3, 0}}, {1, 0}}, {{{-3, 0}, {-1, 0}}, {-1, 0}}};
  for (const Case& c : cases) {
    RefWorld world;
    world.obstacles.push_back(c.wall);
    world.agents.push_back(makeAgent({0, -0.3}, c.pref, c.pref));
    const V2 v = crowd_reference::computeNewVelocities(world)[0];
    const V2 vertex = c.pref.x > 0 ? c.wall[0] : c.wall[1];
    const V2 toVertex = vertex - world.agents[0].position;
    const double rayDistance = std::fabs(crowd_reference::det(toVertex, v)) / crowd_reference::length(v);
    EXPECT_NEAR(rayDistance, 0.5, 1e-12);
    EXPECT_NEAR(crowd_reference::dot(v, c.pref - v), 0.0, 1e-12);  // projection of pref
    EXPECT_GE(clearanceFromObstacles(world, world.agents[0].position, v, 2.0), 0.5 - 1e-9);
  }
}

TEST(ReferenceSim, SlowApproachProjectsOntoCutoffCircle) {
  // A velocity inside the cut-off disc around vertex/tau (radius 0.5/2) moves radially out to
  // its edge: the position after tau then just touches the vertex's disc.
  struct Case {
    std::vector<V2> wall;
    V2 position, velocity, vertex;
  };
  const Case cases[] = {
      {{{1, 1}, {3, 1}}, {0, 0}, {0.45, 0.45}, {1, 1}},   // left end of a wall seen face-on
      {{{1, 1}, {3, 1}}, {0, 0}, {1.51, 0.4}, {3, 1}},    // right end
      {{{1, 0}, {3, 0}}, {0, -0.3}, {0.4, 0.1}, {1, 0}},  // wall seen end-on
  };
  for (const Case& c : cases) {
    RefWorld world;
    world.obstacles.push_back(c.wall);
    world.agents.push_back(makeAgent(c.position, c.velocity, c.velocity));
    const V2 centre = 0.5 * (c.vertex - c.position);  // relative vertex / timeHorizonObst
    const V2 expected = centre + 0.25 * crowd_reference::normalize(c.velocity - centre);
    expectNear(crowd_reference::computeNewVelocities(world)[0], expected, 1e-12);
  }
}

TEST(ReferenceSim, WallBehindAnotherWallAddsNoLine) {
  // Walls 2 and 3 ahead (range 2 * 2 + 0.5 reaches both). The near one gives v_y <= 0.75,
  // which already keeps the agent radius / tau clear of the far one: no second line.
  RefWorld world;
  world.obstacles.push_back({{-10, 2}, {10, 2}});
  world.obstacles.push_back({{-10, 3}, {10, 3}});
  world.agents.push_back(makeAgent({0, 0}, {0, 1}, {0, 1}));
  EXPECT_EQ(crowd_reference::obstacleNeighbourEdges(world, 0), (std::vector<int>{0, 2}));
  EXPECT_EQ(crowd_reference::orcaLines(world, 0).size(), 1u);
  expectNear(crowd_reference::computeNewVelocities(world)[0], {0, 0.75}, 1e-12);
}

TEST(ReferenceSim, ConcaveCornerUsesBothWallsCutoffLines) {
  // In a room's lower-left corner at (2, 1): the floor allows v_y >= -(1 - 0.5) / 2 and the
  // left wall v_x >= -(2 - 0.5) / 2; heading past the corner, the leg at the concave vertex
  // just extends these lines, so (-1.5, -0.6) becomes (-0.75, -0.25).
  RefWorld world;
  world.obstacles.push_back({{0, 0}, {0, 10}, {10, 10}, {10, 0}});
  world.agents.push_back(makeAgent({2, 1}, {-1.5, -0.6}, {-1.5, -0.6}));
  EXPECT_EQ(crowd_reference::orcaLines(world, 0).size(), 2u);
  expectNear(crowd_reference::computeNewVelocities(world)[0], {-0.75, -0.25}, 1e-12);
}

TEST(ReferenceSim, LegIntoNeighbouringEdgeDefersToThatEdge) {
  // Square [1,3]^2 seen from the origin: both the bottom and left faces are visible. Moving
  // at (0.6, 0.9), the binding face is the left one, x = 1: v_x <= (1 - 0.5) / 2 = 0.25.
  // The bottom face's leg at (1,1) would point into the left face, so it adds nothing.
  RefWorld world;
  world.obstacles.push_back({{1, 1}, {3, 1}, {3, 3}, {1, 3}});
  world.agents.push_back(makeAgent({0, 0}, {0.6, 0.9}, {0.6, 0.9}));
  EXPECT_EQ(crowd_reference::orcaLines(world, 0).size(), 1u);
  expectNear(crowd_reference::computeNewVelocities(world)[0], {0.25, 0.9}, 1e-12);
}

TEST(ReferenceSim, ConvexCornerIsNotHitWithinHorizon) {
  RefWorld world;
  world.obstacles.push_back({{1, 1}, {3, 1}, {3, 3}, {1, 3}});
  const V2 headings[] = {{0.75, 0.65}, {0.65, 0.75}, {0.9, 0.3}, {0.2, 0.95}};
  for (const V2 heading : headings) {
    world.agents = {makeAgent({0, 0}, heading, heading)};
    world.agents[0].maxSpeed = 1.0;
    const V2 v = crowd_reference::computeNewVelocities(world)[0];
    EXPECT_GE(clearanceFromObstacles(world, {0, 0}, v, 2.0), 0.5 - 1e-9) << heading.x << "," << heading.y;
    EXPECT_GT(crowd_reference::length(v), 0.1);  // it still makes progress
  }
}

TEST(ReferenceSim, ConcaveCornerIsNotHitWithinHorizon) {
  // Inside a clockwise room, heading into its lower-left corner.
  RefWorld world;
  world.obstacles.push_back({{0, 0}, {0, 10}, {10, 10}, {10, 0}});
  const V2 starts[] = {{1, 1.2}, {0.8, 2}, {1.5, 0.7}};
  for (const V2 start : starts) {
    world.agents = {makeAgent(start, {-0.6, -0.7}, {-0.6, -0.7})};
    world.agents[0].maxSpeed = 1.0;
    const V2 v = crowd_reference::computeNewVelocities(world)[0];
    EXPECT_GE(clearanceFromObstacles(world, start, v, 2.0), 0.5 - 1e-9) << start.x << "," << start.y;
  }
}

TEST(ReferenceSim, RejectsDegeneratePolygon) {
  RefWorld world;
  world.obstacles.push_back({{0, 0}});
  EXPECT_THROW(crowd_reference::obstacleVertices(world), std::invalid_argument);
}
