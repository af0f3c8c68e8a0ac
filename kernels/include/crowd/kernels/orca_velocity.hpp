// One agent's new velocity: RVO2's computeNewVelocity over the step's view.
#pragma once

#include <cmath>
#include <cstdint>

#include "config.hpp"
#include "deadlock.hpp"
#include "k_nearest.hpp"
#include "linear_program.hpp"
#include "obstacle_query.hpp"
#include "orca_agents.hpp"
#include "orca_obstacles.hpp"
#include "step_view.hpp"
#include "vec2.hpp"

namespace crowd {

/// Pulls a velocity that rounding or the LP's infeasible fallback left outside the maxSpeed disc
/// back onto it. Returns whether it had to.
template <class Vector>
CROWD_HD inline bool clampToSpeed(Vector& v, float maxSpeed) {
  const float speedSq = absSq(v);
  if (!(speedSq > maxSpeed * maxSpeed)) return false;
  v = v * (maxSpeed / std::sqrt(speedSq));
  // The scaling rounds; step down by an ulp at a time until inside (once at most, in practice).
  while (absSq(v) > maxSpeed * maxSpeed) v = v * 0.99999994f;
  return true;
}

struct OrcaResult {
  Vec2 velocity;
  int lines;  ///< Half-planes built (obstacle and agent lines), a cost figure.
};

/// Obstacle lines first (nearest edge first), then one line per agent neighbour in neighbour
/// order, then the LP (lp2, falling back to lp3): the order that decides RVO2's results. The LP
/// optimises for orcaPrefVelocity (deadlock.hpp).
CROWD_HD inline OrcaResult orcaVelocity(const StepView& view, int self, Vec2 desired) {
  const AgentArrays& agents = view.agents;
  const ProfileTerms& t = view.terms[agents.profile[self]];
  const Vec2 p = agents.position[self];
  const Vec2 v = agents.velocity[self];
  OrcaLine lines[kMaxOrcaLines];
  int lineCount = 0;
  if (view.obstacles.edgeCount > 0) {
    ObstacleNeighbours nearEdges;
    findNearestEdges(view.obstacles, p, t.obstacleRange, nearEdges);
    if (nearEdges.count > 0) {
      int edgeList[kMaxObstacleNeighbors];
      for (int m = 0; m < nearEdges.count; ++m) edgeList[m] = nearEdges.index(m);
      lineCount = obstacleOrcaLines(view.obstacles.edges, edgeList, nearEdges.count, p, v, t.radius,
                                    t.invTimeHorizonObst, view.repairRvo2, lines);
    }
  }
  const int obstacleLineCount = lineCount;
  const int neighbours = view.neighbours.count[self];
  const unsigned selfId = agents.id[self].index;
  for (int m = 0; m < neighbours; ++m) {
    const int other = view.neighbours.at(self, m);
    lines[lineCount++] =
        agentOrcaLine(p, v, t.radius, neighbourPosition(view, self, other), agents.velocity[other],
                      view.terms[agents.profile[other]].radius, t.invTimeHorizon, view.invTimeStep,
                      coincidentSeparationHint(selfId, agents.id[other].index));
  }
  return OrcaResult{solveOrcaProgram(lines, lineCount, obstacleLineCount, t.maxSpeed,
                                     orcaPrefVelocity(view, self, t.maxSpeed, desired)),
                    lineCount};
}

}  // namespace crowd
