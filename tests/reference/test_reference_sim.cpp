// Tests of the reference simulator itself, against situations whose answers follow from the
// geometry (worked out by hand in the comments) rather than from the reference's own output:
// single agents, agent-agent avoidance, agent neighbours and the linear program. Obstacle cases
// are in test_reference_obstacles.cpp.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "reference/reference_sim.hpp"
#include "reference_test_helpers.hpp"

namespace {

using crowd_reference::RefAgent;
using crowd_reference::RefLine;
using crowd_reference::RefWorld;
using crowd_reference::V2;
using reference_test::expectNear;
using reference_test::makeAgent;

double distance(V2 a, V2 b) {
  return crowd_reference::length(a - b);
}

// Closest approach, over t in [0, horizon], of two discs whose centres are relativePosition
// apart and whose relative velocity (self - other) is relativeVelocity.
double closestApproach(V2 relativePosition, V2 relativeVelocity, double horizon) {
  const double speedSq = crowd_reference::absSq(relativeVelocity);
  double t = speedSq > 0.0 ? crowd_reference::dot(relativePosition, relativeVelocity) / speedSq : 0.0;
  t = std::clamp(t, 0.0, horizon);
  return crowd_reference::length(relativePosition - t * relativeVelocity);
}

// Brute force: the smallest change of relative velocity, among grid points within
// searchRadius, after which discs of combined radius 1 stay apart for the horizon.
double smallestEscape(V2 relativePosition, V2 relativeVelocity, double horizon, double searchRadius,
                      double spacing) {
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
double gridBestMaxViolation(const std::vector<RefLine>& lines, std::size_t numObstacleLines, double maxSpeed,
                            double spacing) {
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

}  // namespace

// --- single agents and preferred velocities ------------------------------------------------

TEST(ReferenceSim, LoneAgentGetsPreferredVelocityClippedToMaxSpeed) {
  RefWorld world;
  world.agents.push_back(makeAgent({0, 0}, {0, 0}, {3, 4}));         // |pref| = 5 > maxSpeed 2
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
    expectNear(world.agents[i].position, before.agents[i].position + world.timeStep * newVelocities[i],
               1e-15);
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
  EXPECT_GE(closestApproach(world.agents[1].position - world.agents[0].position, v[0] - v[1], 2.0),
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
  EXPECT_GE(closestApproach(world.agents[1].position - world.agents[0].position, v[0] - v[1], 10.0),
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
  world.agents.push_back(makeAgent({0, 2}, {0, 0}, {0, 0}));    // distSq 4
  world.agents.push_back(makeAgent({1, 0}, {0, 0}, {0, 0}));    // distSq 1
  world.agents.push_back(makeAgent({-1, 0}, {0, 0}, {0, 0}));   // distSq 1
  world.agents.push_back(makeAgent({0, 1}, {0, 0}, {0, 0}));    // distSq 1
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

// --- linear program ----------------------------------------------------------------------------

TEST(ReferenceSim, LinearProgramOnHandMadeLines) {
  // {point (c, 0), direction (0, 1)} allows v.x <= c; direction (0, -1) allows v.x >= c.
  const auto atMostX = [](double c) { return RefLine{{c, 0}, {0, 1}}; };
  const auto atLeastX = [](double c) { return RefLine{{c, 0}, {0, -1}}; };
  const RefLine atMostY{{0, 0.25}, {-1, 0}};
  using crowd_reference::solveVelocity;
  // Feasible: parallel duplicates, and a corner.
  expectNear(solveVelocity({atMostX(0.5), atMostX(0.5)}, 0, 2.0, {1, 0}), {0.5, 0}, 1e-12);
  expectNear(solveVelocity({atMostX(0.8), atMostY, atMostX(0.5)}, 0, 2.0, {1, 1}), {0.5, 0.25}, 1e-12);
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
