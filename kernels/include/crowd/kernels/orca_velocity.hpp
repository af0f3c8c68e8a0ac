// One agent's new velocity: RVO2's computeNewVelocity over the step's view.
#pragma once

#include <cmath>
#include <cstdint>

#include "config.hpp"
#include "counter_random.hpp"
#include "k_nearest.hpp"
#include "linear_program.hpp"
#include "obstacle_query.hpp"
#include "orca_agents.hpp"
#include "orca_obstacles.hpp"
#include "step_view.hpp"
#include "vec2.hpp"

namespace crowd {

/// Stream of counterRandom used by the deadlock jitter.
inline constexpr std::uint32_t kJitterStream = 1;

/// Below this fraction of its preferred speed an agent counts as stuck.
inline constexpr float kStuckSpeedFraction = 0.1f;

/// The preferred velocity ORCA optimises for, with two ways out of a deadlock, both only for
/// agents that have agent neighbours (an agent alone cannot be caught in one, so it keeps
/// exactly the velocity it was given):
/// - a random vector of up to jitter * maxSpeed per coordinate, drawn per agent and step: it
///   breaks exact symmetries (agents on one point, mirror images);
/// - a turn to the right, growing as an agent that wants to move stands still, up to a right
///   angle: a crowd in a symmetric standoff (a circle of agents meeting in the middle) is a
///   stable equilibrium that random nudges do not leave, since ORCA lets a hemmed-in agent only
///   back away; a shared sense of turning makes everyone sidestep the same way, backing off a
///   little, until there is room to slip past each other.
/// With jitter 0 (exact RVO2 results) neither applies.
CROWD_HD inline Vec2 orcaPrefVelocity(const StepView& view, int self, float maxSpeed) {
  Vec2 pref = view.agents.prefVelocity[self];
  if (!(view.jitter > 0.0f) || view.neighbours.count[self] == 0) return pref;
  const float prefSpeedSq = absSq(pref);
  const float speedSq = absSq(view.agents.velocity[self]);
  const float stuckSpeedSq = kStuckSpeedFraction * kStuckSpeedFraction * prefSpeedSq;
  if (speedSq < stuckSpeedSq) {
    // Slowness 1 at a standstill, 0 at the stuck speed; the turn keeps the preferred speed.
    const float slowness = 1.0f - std::sqrt(speedSq / stuckSpeedSq);
    pref = normalize((1.0f - slowness) * pref + slowness * Vec2(pref.y, -pref.x)) * std::sqrt(prefSpeedSq);
  }
  const std::uint64_t bits = counterRandom(view.seed, view.agents.id[self].index, view.step, kJitterStream);
  const float amplitude = view.jitter * maxSpeed;
  return pref + amplitude * Vec2(signedUnit(bits), signedUnit(bits << 24));
}

/// Pulls a velocity that rounding or the LP's infeasible fallback left outside the maxSpeed disc
/// back onto it. Returns whether it had to.
CROWD_HD inline bool clampToSpeed(Vec2& v, float maxSpeed) {
  const float speedSq = absSq(v);
  if (!(speedSq > maxSpeed * maxSpeed)) return false;
  v = v * (maxSpeed / std::sqrt(speedSq));
  // The scaling rounds; step down by an ulp at a time until inside (once at most, in practice).
  while (absSq(v) > maxSpeed * maxSpeed) v = v * 0.99999994f;
  return true;
}

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
  return solveOrcaProgram(lines, lineCount, obstacleLineCount, t.maxSpeed, orcaPrefVelocity(view, self, t.maxSpeed));
}

}  // namespace crowd
