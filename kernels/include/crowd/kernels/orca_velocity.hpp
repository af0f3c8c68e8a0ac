// One agent's new velocity: RVO2's computeNewVelocity over the step's view.
#pragma once

#include "config.hpp"
#include "k_nearest.hpp"
#include "linear_program.hpp"
#include "obstacle_query.hpp"
#include "orca_agents.hpp"
#include "orca_obstacles.hpp"
#include "step_view.hpp"
#include "vec2.hpp"

namespace crowd {

/// Obstacle lines first (nearest edge first), then one line per agent neighbour in neighbour
/// order, then the LP (lp2, falling back to lp3): the order that decides RVO2's results.
/// `lineCount`, when given, receives the number of half-planes.
CROWD_HD inline Vec2 orcaVelocity(const StepView& view, int self, int* lineCountOut = nullptr) {
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
                                    t.invTimeHorizonObst, lines);
    }
  }
  const int obstacleLineCount = lineCount;
  const int neighbours = view.neighbours.count[self];
  const unsigned selfId = agents.id[self].index;
  for (int m = 0; m < neighbours; ++m) {
    const int other = view.neighbours.at(self, m);
    lines[lineCount++] = agentOrcaLine(p, v, t.radius, agents.position[other], agents.velocity[other],
                                       view.terms[agents.profile[other]].radius, t.invTimeHorizon,
                                       view.invTimeStep, coincidentSeparationHint(selfId, agents.id[other].index));
  }
  if (lineCountOut != nullptr) *lineCountOut = lineCount;
  return solveOrcaProgram(lines, lineCount, obstacleLineCount, t.maxSpeed, agents.prefVelocity[self]);
}

}  // namespace crowd
