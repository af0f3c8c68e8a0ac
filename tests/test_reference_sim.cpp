// Tests of the reference simulator itself, against situations whose answers follow from the
// geometry (worked out by hand in the comments) rather than from the reference's own output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "reference/reference_sim.hpp"

namespace {

using crowd_reference::RefAgent;
using crowd_reference::RefLine;
using crowd_reference::RefWorld;
using crowd_reference::V2;

RefAgent makeAgent(V2 position, V2 velocity, V2 prefVelocity) {
  RefAgent agent;
  agent.position = position;
  agent.velocity = velocity;
  agent.prefVelocity = prefVelocity;
  agent.radius = 0.5;
  agent.maxSpeed = 2.0;
  agent.prefSpeed = 1.0;
  agent.neighborDist = 15.0;
  agent.maxNeighbors = 10;
  agent.timeHorizon = 2.0;
  agent.timeHorizonObst = 2.0;
  return agent;
}

double distance(V2 a, V2 b) { return crowd_reference::length(a - b); }

// Closest approach, over t in [0, horizon], of two discs whose centres are relativePosition
// apart and whose relative velocity (self - other) is relativeVelocity.
double closestApproach(V2 relativePosition, V2 relativeVelocity, double horizon) {
  const double speedSq = crowd_reference::absSq(relativeVelocity);
  double t = speedSq > 0.0 ? crowd_reference::dot(relativePosition, relativeVelocity) / speedSq
                           : 0.0;
  t = std::clamp(t, 0.0, horizon);
  return crowd_reference::length(relativePosition - t * relativeVelocity);
}

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

// Brute force: the smallest change of relative velocity, among grid points within
// searchRadius, after which discs of combined radius 1 stay apart for the horizon.
double smallestEscape(V2 relativePosition, V2 relativeVelocity, double horizon,
                      double searchRadius, double spacing) {
  double best = INFINITY;
  const int steps = static_cast<int>(std::ceil(searchRadius / spacing));
  for (int ix = -steps; ix <= steps; ++ix) {
    for (int iy = -steps; iy <= steps; ++iy) {
      const V2 change{ix * spacing, iy * spacing};
      if (closestApproach(relativePosition, relativeVelocity + change, horizon) >= 1.0)
        best = std::min(best, crowd_reference::length(change));
    }
  }
  return best;
}

double maxViolation(const std::vector<RefLine>& lines, std::size_t from, V2 v) {
  double worst = -INFINITY;
  for (std::size_t k = from; k < lines.size(); ++k)
    worst = std::max(worst, crowd_reference::violation(lines[k], v));
  return worst;
}

// Brute force over a fine grid in the speed disc: the smallest largest-violation of the agent
// lines among velocities that satisfy every obstacle line.
double gridBestMaxViolation(const std::vector<RefLine>& lines, std::size_t numObstacleLines,
                            double maxSpeed, double spacing) {
  double best = INFINITY;
  const int steps = static_cast<int>(std::ceil(maxSpeed / spacing));
  for (int ix = -steps; ix <= steps; ++ix) {
    for (int iy = -steps; iy <= steps; ++iy) {
      const V2 v{ix * spacing, iy * spacing};
      if (crowd_reference::absSq(v) > maxSpeed * maxSpeed) continue;
      bool obstaclesOk = true;
      for (std::size_t k = 0; k < numObstacleLines; ++k)
        obstaclesOk = obstaclesOk && crowd_reference::violation(lines[k], v) <= 0.0;
      if (obstaclesOk) best = std::min(best, maxViolation(lines, numObstacleLines, v));
    }
  }
  return best;
}

void expectNear(V2 actual, V2 expected, double tolerance) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
}

}  // namespace

// --- single agents and preferred velocities ------------------------------------------------

TEST(ReferenceSim, LoneAgentGetsPreferredVelocityClippedToMaxSpeed) {
  RefWorld world;
  world.agents.push_back(makeAgent({0, 0}, {0, 0}, {3, 4}));     // |pref| = 5 > maxSpeed 2
  world.agents.push_back(makeAgent({100, 0}, {0, 0}, {0.3, -0.4}));  // inside the disc
  const auto v = crowd_reference::computeNewVelocities(world);
  expectNear(v[0], {1.2, 1.6}, 1e-12);  // (3,4) scaled to length 2
  expectNear(v[1], {0.3, -0.4}, 1e-15);
}

TEST(ReferenceSim, GoalSeekingPreferredVelocity) {
  RefAgent far = makeAgent({1, 1}, {0, 0}, {0, 0});
  far.hasGoal = true;
  far.goal = {1, 11};
  far.prefSpeed = 1.5;
  expectNear(crowd_reference::preferredVelocity(far), {0, 1.5}, 1e-15);

  // Within prefSpeed of the goal the preferred velocity is the displacement itself, so a lone
  // agent closes the gap by the factor (1 - timeStep) each step.
  RefWorld world;
  world.timeStep = 0.25;
  RefAgent near = makeAgent({0, 0}, {0, 0}, {0, 0});
  near.hasGoal = true;
  near.goal = {0.3, -0.4};
  world.agents.push_back(near);
  crowd_reference::step(world);
  expectNear(world.agents[0].prefVelocity, {0.3, -0.4}, 1e-15);
  expectNear(world.agents[0].velocity, {0.3, -0.4}, 1e-15);
  expectNear(world.agents[0].goal - world.agents[0].position, {0.225, -0.3}, 1e-15);
}

TEST(ReferenceSim, StepCommitsVelocitiesFromOldState) {
  RefWorld world;
  world.timeStep = 0.1;
  world.agents.push_back(makeAgent({0, 0}, {1, 0}, {1, 0}));
  world.agents.push_back(makeAgent({3, 0.2}, {-1, 0}, {-1, 0}));
  world.agents.push_back(makeAgent({1.5, 2}, {0, -1}, {0, -1}));
  const RefWorld before = world;
  const auto newVelocities = crowd_reference::computeNewVelocities(world);
  crowd_reference::step(world);
  for (std::size_t i = 0; i < world.agents.size(); ++i) {
    expectNear(world.agents[i].velocity, newVelocities[i], 0.0);
    expectNear(world.agents[i].position,
               before.agents[i].position + world.timeStep * newVelocities[i], 1e-15);
  }
}

TEST(ReferenceSim, ResultsDoNotDependOnAgentOrder) {
  RefWorld world;
  world.agents.push_back(makeAgent({0, 0}, {1, 0.1}, {1, 0}));
  world.agents.push_back(makeAgent({2.7, 0.3}, {-1, 0}, {-1, 0.2}));
  world.agents.push_back(makeAgent({1.1, 1.9}, {0.2, -1}, {0, -1}));
  world.agents.push_back(makeAgent({1.4, -2.3}, {0, 0.9}, {0.1, 1}));
  RefWorld reversed = world;
  std::reverse(reversed.agents.begin(), reversed.agents.end());
  const auto forward = crowd_reference::computeNewVelocities(world);
  const auto backward = crowd_reference::computeNewVelocities(reversed);
  for (std::size_t i = 0; i < forward.size(); ++i)
    expectNear(forward[i], backward[forward.size() - 1 - i], 1e-13);
}

// --- agent-agent avoidance -----------------------------------------------------------------

TEST(ReferenceSim, HeadOnBeyondHorizonNeedsNoChange) {
  // 10 apart, combined radius 1, closing at 2: first contact at t = 4.5 > timeHorizon 2.
  RefWorld world;
  world.agents.push_back(makeAgent({-5, 0}, {1, 0}, {1, 0}));
  world.agents.push_back(makeAgent({5, 0}, {-1, 0}, {-1, 0}));
  const auto v = crowd_reference::computeNewVelocities(world);
  expectNear(v[0], -1.0 * v[1], 1e-12);
  expectNear(v[0], {1, 0}, 1e-12);
  EXPECT_GE(closestApproach(world.agents[1].position - world.agents[0].position, v[0] - v[1],
                            2.0),
            1.0 - 1e-9);
}

TEST(ReferenceSim, HeadOnWithinHorizonIsSymmetricAndResolved) {
  RefWorld world;
  world.agents.push_back(makeAgent({-5, 0}, {1, 0}, {1, 0}));
  world.agents.push_back(makeAgent({5, 0}, {-1, 0}, {-1, 0}));
  for (auto& agent : world.agents) agent.timeHorizon = 10.0;  // contact at 4.5 is now inside
  const auto v = crowd_reference::computeNewVelocities(world);
  expectNear(v[0], -1.0 * v[1], 1e-12);
  EXPECT_GT(std::fabs(v[0].y), 1e-3);  // they had to swerve
  for (const V2 vel : v) EXPECT_LE(crowd_reference::length(vel), 2.0 + 1e-12);
  EXPECT_GE(closestApproach(world.agents[1].position - world.agents[0].position, v[0] - v[1],
                            10.0),
            1.0 - 1e-9);
}

TEST(ReferenceSim, FeasiblePairsLeaveTheTruncatedVelocityObstacle) {
  // Whenever both agents can satisfy their own half-plane, the reciprocal halves add up to a
  // relative velocity that is collision free for timeHorizon, and (each agent keeping its old
  // velocity as preferred) the change of relative velocity is the smallest one that leaves
  // the truncated velocity obstacle. Covers leg and cut-off cases.
  struct Case {
    V2 pa, va, pb, vb;
  };
  const Case cases[] = {
      {{0, 0}, {1, 0}, {4, 0.3}, {-1, 0}},      // nearly head-on, leg projection
      {{0, 0}, {0.4, 0}, {1.6, 0}, {0, 0}},     // slow approach, cut-off circle projection
      {{0, 0}, {1, 1}, {3, 0}, {-1, 1}},        // crossing paths
      {{0, 0}, {1, 0}, {2, 1.2}, {0.2, -0.3}},  // overtaking at an angle
      {{0, 0}, {0, 0}, {1.2, 0.1}, {-0.5, 0}},  // one standing still
  };
  for (const Case& c : cases) {
    RefWorld world;
    world.agents.push_back(makeAgent(c.pa, c.va, c.va));
    world.agents.push_back(makeAgent(c.pb, c.vb, c.vb));
    const auto v = crowd_reference::computeNewVelocities(world);
    for (int i = 0; i < 2; ++i) {
      const auto lines = crowd_reference::orcaLines(world, i);
      ASSERT_EQ(lines.size(), 1u);
      ASSERT_LE(crowd_reference::violation(lines[0], v[i]), 1e-12);  // feasible case
    }
    EXPECT_GE(closestApproach(c.pb - c.pa, v[0] - v[1], 2.0), 1.0 - 1e-9);
    ASSERT_LT(closestApproach(c.pb - c.pa, c.va - c.vb, 2.0), 1.0);  // a change was needed
    const double change = crowd_reference::length((v[0] - v[1]) - (c.va - c.vb));
    const double escape = smallestEscape(c.pb - c.pa, c.va - c.vb, 2.0, change + 0.05, 0.002);
    EXPECT_NEAR(change, escape, 0.003);
  }
  // B is slightly above A's path: the smaller change has A pass below and B above.
  RefWorld world;
  world.agents = {makeAgent({0, 0}, {1, 0}, {1, 0}), makeAgent({4, 0.3}, {-1, 0}, {-1, 0})};
  const auto v = crowd_reference::computeNewVelocities(world);
  EXPECT_LT(v[0].y, 0.0);
  EXPECT_GT(v[1].y, 0.0);
}

TEST(ReferenceSim, OverlappingAgentsSeparateWithinOneStep) {
  // Overlap of 0.5 at rest: each must move 0.25 apart in one step of 0.25 s, i.e. at speed 1.
  RefWorld world;
  world.timeStep = 0.25;
  world.agents.push_back(makeAgent({0, 0}, {0, 0}, {0, 0}));
  world.agents.push_back(makeAgent({0.5, 0}, {0, 0}, {0, 0}));
  const auto v = crowd_reference::computeNewVelocities(world);
  expectNear(v[0], {-1, 0}, 1e-12);
  expectNear(v[1], {1, 0}, 1e-12);
  crowd_reference::step(world);
  EXPECT_GE(distance(world.agents[0].position, world.agents[1].position), 1.0 - 1e-9);

  // Rushing in at exactly relativePosition / timeStep puts the relative velocity at the
  // centre of the cut-off circle (w = 0); they must still come apart.
  world.agents = {makeAgent({0, 0}, {2, 0}, {2, 0}), makeAgent({0.5, 0}, {0, 0}, {0, 0})};
  for (auto& agent : world.agents) agent.maxSpeed = 3.0;
  crowd_reference::step(world);
  EXPECT_GE(distance(world.agents[0].position, world.agents[1].position), 1.0 - 1e-9);
}

TEST(ReferenceSim, CoincidentAgentsSeparateDeterministically) {
  // w = 0: the lower index is pushed along -x, the other along +x, each by half of
  // combinedRadius / timeStep = 4 relative to its velocity (0.5, 0).
  RefWorld world;
  world.timeStep = 0.25;
  world.agents.push_back(makeAgent({2, 3}, {0.5, 0}, {0.5, 0}));
  world.agents.push_back(makeAgent({2, 3}, {0.5, 0}, {0.5, 0}));
  for (auto& agent : world.agents) agent.maxSpeed = 3.0;
  const auto v = crowd_reference::computeNewVelocities(world);
  expectNear(v[0], {-1.5, 0}, 1e-12);
  expectNear(v[1], {2.5, 0}, 1e-12);
  crowd_reference::step(world);
  EXPECT_GE(distance(world.agents[0].position, world.agents[1].position), 1.0 - 1e-9);
}

TEST(ReferenceSim, InfeasibleBoxedInMinimisesLargestViolation) {
  RefWorld world;
  RefAgent centre = makeAgent({0, 0}, {0.3, 0.1}, {1, 0});
  centre.maxSpeed = 1.0;
  world.agents.push_back(centre);
  world.agents.push_back(makeAgent({1.3, 0}, {-1, 0}, {-1, 0}));
  world.agents.push_back(makeAgent({-1.2, 0.1}, {1, 0}, {1, 0}));
  world.agents.push_back(makeAgent({0.1, 1.25}, {0, -1}, {0, -1}));
  world.agents.push_back(makeAgent({0, -1.4}, {0.1, 1}, {0.1, 1}));
  const auto lines = crowd_reference::orcaLines(world, 0);
  ASSERT_EQ(lines.size(), 4u);
  ASSERT_EQ(crowd_reference::obstacleLineCount(world, 0), 0u);

  const double gridBest = gridBestMaxViolation(lines, 0, 1.0, 0.002);
  ASSERT_GT(gridBest, 0.01);  // no velocity in the disc satisfies every line

  const V2 v = crowd_reference::computeNewVelocities(world)[0];
  EXPECT_LE(crowd_reference::length(v), 1.0 + 1e-9);
  EXPECT_LE(maxViolation(lines, 0, v), gridBest + 1e-9);
  // The grid is 1-Lipschitz-close to the optimum, so the two must also be near each other.
  EXPECT_GE(maxViolation(lines, 0, v), gridBest - 0.002);
}

TEST(ReferenceSim, InfeasibleKeepsObstacleLinesHard) {
  // Touching a wall above (no velocity with y > 0 allowed) while an agent closes in from
  // below: the agent line cannot be met, the wall line must still hold.
  RefWorld world;
  world.obstacles.push_back({{-10, 2}, {10, 2}});
  RefAgent self = makeAgent({0, 1.6}, {0, 0}, {0, 0});
  self.maxSpeed = 1.0;
  world.agents.push_back(self);
  world.agents.push_back(makeAgent({0.1, 0.7}, {0, 2}, {0, 2}));
  const auto lines = crowd_reference::orcaLines(world, 0);
  const std::size_t numObstacleLines = crowd_reference::obstacleLineCount(world, 0);
  ASSERT_EQ(numObstacleLines, 1u);
  ASSERT_EQ(lines.size(), 2u);

  const double gridBest = gridBestMaxViolation(lines, numObstacleLines, 1.0, 0.002);
  ASSERT_GT(gridBest, 0.01);

  const V2 v = crowd_reference::computeNewVelocities(world)[0];
  EXPECT_LE(v.y, 1e-12);  // the wall line: no motion towards the wall
  EXPECT_LE(crowd_reference::length(v), 1.0 + 1e-9);
  EXPECT_LE(maxViolation(lines, numObstacleLines, v), gridBest + 1e-9);
}

// --- agent neighbours ----------------------------------------------------------------------

TEST(ReferenceSim, NeighbourTiesBrokenByIndex) {
  RefWorld world;
  world.agents.push_back(makeAgent({0, 0}, {0, 0}, {0, 0}));
  world.agents.push_back(makeAgent({0, 2}, {0, 0}, {0, 0}));   // distSq 4
  world.agents.push_back(makeAgent({1, 0}, {0, 0}, {0, 0}));   // distSq 1
  world.agents.push_back(makeAgent({-1, 0}, {0, 0}, {0, 0}));  // distSq 1
  world.agents.push_back(makeAgent({0, 1}, {0, 0}, {0, 0}));   // distSq 1
  world.agents.push_back(makeAgent({0.5, 0}, {0, 0}, {0, 0}));  // distSq 0.25
  EXPECT_EQ(crowd_reference::agentNeighbours(world, 0), (std::vector<int>{5, 2, 3, 4, 1}));
  world.agents[0].maxNeighbors = 3;
  EXPECT_EQ(crowd_reference::agentNeighbours(world, 0), (std::vector<int>{5, 2, 3}));
  world.agents[0].maxNeighbors = 2;
  EXPECT_EQ(crowd_reference::agentNeighbours(world, 0), (std::vector<int>{5, 2}));
}

TEST(ReferenceSim, MaxNeighboursZeroIgnoresOthers) {
  RefWorld world;
  world.agents.push_back(makeAgent({0, 0}, {0, 0}, {1, 0}));
  world.agents.push_back(makeAgent({0.5, 0}, {0, 0}, {0, 0}));  // overlapping, dead ahead
  world.agents[0].maxNeighbors = 0;
  EXPECT_TRUE(crowd_reference::agentNeighbours(world, 0).empty());
  EXPECT_TRUE(crowd_reference::orcaLines(world, 0).empty());
  expectNear(crowd_reference::computeNewVelocities(world)[0], {1, 0}, 0.0);
}

TEST(ReferenceSim, NeighbourRangeIsStrict) {
  RefWorld world;
  world.agents.push_back(makeAgent({0, 0}, {0, 0}, {0, 0}));
  world.agents.push_back(makeAgent({2, 0}, {0, 0}, {0, 0}));  // exactly neighborDist away
  world.agents.push_back(makeAgent({0, -1.999}, {0, 0}, {0, 0}));
  world.agents[0].neighborDist = 2.0;
  EXPECT_EQ(crowd_reference::agentNeighbours(world, 0), (std::vector<int>{2}));
}

// --- obstacles -----------------------------------------------------------------------------

TEST(ReferenceSim, VertexConvexity) {
  RefWorld world;
  world.obstacles.push_back({{0, 0}, {1, 0}, {1, 1}, {0, 1}});          // CCW square
  world.obstacles.push_back({{5, 0}, {5, 1}, {6, 1}, {6, 0}});          // CW square
  world.obstacles.push_back({{8, 0}, {9, 0}});                          // wall
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
    const double rayDistance = std::fabs(crowd_reference::det(toVertex, v)) /
                               crowd_reference::length(v);
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
      {{{1, 1}, {3, 1}}, {0, 0}, {0.45, 0.45}, {1, 1}},  // left end of a wall seen face-on
      {{{1, 1}, {3, 1}}, {0, 0}, {1.51, 0.4}, {3, 1}},   // right end
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

TEST(ReferenceSim, LinearProgramOnHandMadeLines) {
  // {point (c, 0), direction (0, 1)} allows v.x <= c; direction (0, -1) allows v.x >= c.
  const auto atMostX = [](double c) { return RefLine{{c, 0}, {0, 1}}; };
  const auto atLeastX = [](double c) { return RefLine{{c, 0}, {0, -1}}; };
  const RefLine atMostY{{0, 0.25}, {-1, 0}};
  using crowd_reference::solveVelocity;
  // Feasible: parallel duplicates, and a corner.
  expectNear(solveVelocity({atMostX(0.5), atMostX(0.5)}, 0, 2.0, {1, 0}), {0.5, 0}, 1e-12);
  expectNear(solveVelocity({atMostX(0.8), atMostY, atMostX(0.5)}, 0, 2.0, {1, 1}), {0.5, 0.25},
             1e-12);
  // Opposite parallel lines 1 apart: the least largest violation (0.5) is on x = 0.
  const V2 middle = solveVelocity({atMostX(-0.5), atLeastX(0.5)}, 0, 1.0, {1, 0});
  EXPECT_NEAR(middle.x, 0.0, 1e-12);
  EXPECT_LE(crowd_reference::length(middle), 1.0 + 1e-12);
  // Both beyond the speed disc on the same side: get as close as possible to both.
  expectNear(solveVelocity({atLeastX(2), atLeastX(3)}, 0, 1.0, {0, 0}), {1, 0}, 1e-12);
  // An obstacle line stays hard even when that makes the agent line worse.
  const V2 held = solveVelocity({atMostX(0.2), atLeastX(3)}, 1, 1.0, {0, 0});
  EXPECT_NEAR(held.x, 0.2, 1e-12);
  EXPECT_LE(crowd_reference::length(held), 1.0 + 1e-12);
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
    EXPECT_GE(clearanceFromObstacles(world, {0, 0}, v, 2.0), 0.5 - 1e-9)
        << heading.x << "," << heading.y;
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
    EXPECT_GE(clearanceFromObstacles(world, start, v, 2.0), 0.5 - 1e-9)
        << start.x << "," << start.y;
  }
}

TEST(ReferenceSim, RejectsDegeneratePolygon) {
  RefWorld world;
  world.obstacles.push_back({{0, 0}});
  EXPECT_THROW(crowd_reference::obstacleVertices(world), std::invalid_argument);
}
