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

/// Whether `offset` (from the agent to something) lies within 45 degrees of `direction`.
CROWD_HD inline bool ahead(Vec2 offset, Vec2 direction) {
  const float along = dot(offset, direction);
  return along > 0.0f && 2.0f * along * along > absSq(offset) * absSq(direction);
}

/// Whether an agent that is stuck is in a standoff rather than a queue: some neighbour wants
/// to go against it (head-on), or nothing stands in its way (agents pressing in from the sides
/// hold each other, as in a circle of agents meeting in the middle). An agent or a wall stands
/// in the way when it is within 45 degrees of the preferred direction and nearly touching.
CROWD_HD inline bool inStandoff(const StepView& view, int self, Vec2 pref) {
  const AgentArrays& a = view.agents;
  const Vec2 p = a.position[self];
  const float radius = view.terms[a.profile[self]].radius;
  bool blocked = false;
  for (int m = 0; m < view.neighbours.count[self]; ++m) {
    const int other = view.neighbours.at(self, m);
    if (dot(pref, a.prefVelocity[other]) < 0.0f) return true;
    const Vec2 toOther = a.position[other] - p;
    const float reach = 1.5f * (radius + view.terms[a.profile[other]].radius);
    blocked = blocked || (absSq(toOther) < reach * reach && ahead(toOther, pref));
  }
  if (blocked || view.obstacles.edgeCount == 0) return !blocked;
  ObstacleNeighbours walls;
  findNearestEdges(view.obstacles, p, 1.5f * radius, walls);
  for (int m = 0; m < walls.count && !blocked; ++m) {
    const ObstacleEdge& edge = view.obstacles.edges[walls.index(m)];
    const Vec2 b = view.obstacles.edges[edge.next].point;
    // The edge's nearest point to the agent.
    const Vec2 ab = b - edge.point;
    float t = dot(p - edge.point, ab) / absSq(ab);
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    blocked = ahead(edge.point + t * ab - p, pref);
  }
  return !blocked;
}

/// The preferred velocity of a stuck agent (moving at `speedFraction` of the stuck speed), with
/// two ways out of a deadlock:
/// - in a standoff (inStandoff), a turn to the right that grows as it slows, up to a right
///   angle at a standstill: a standoff is a stable equilibrium that random nudges do not
///   leave, since ORCA lets a hemmed-in agent only back away; a shared sense of turning makes
///   everyone sidestep the same way, backing off a little, until there is room to slip past
///   each other. Agents queueing behind others going their way are left to wait.
/// - a random vector of up to jitter * maxSpeed per coordinate, drawn per agent and step: it
///   breaks exact symmetries (agents on one point, mirror images).
/// Out of line: only stuck agents pay for it.
CROWD_HD CROWD_NOINLINE inline Vec2 stuckPrefVelocity(const StepView& view, int self, Vec2 pref, float speedFraction,
                                                     float maxSpeed) {
  if (inStandoff(view, self, pref)) {
    const float slowness = 1.0f - speedFraction;  // 1 at a standstill; the turn keeps the speed.
    pref = normalize((1.0f - slowness) * pref + slowness * Vec2(pref.y, -pref.x)) * length(pref);
  }
  const std::uint64_t bits = counterRandom(view.seed, view.agents.id[self].index, view.step, kJitterStream);
  const float amplitude = view.jitter * maxSpeed;
  return pref + amplitude * Vec2(signedUnit(bits), signedUnit(bits << 24));
}

/// The preferred velocity ORCA optimises for: the agent's own, unless it is stuck (below
/// kStuckSpeedFraction of its preferred speed) among agent neighbours; then stuckPrefVelocity.
/// An agent alone cannot be caught in a deadlock, and a moving one is not in one, so both keep
/// exactly RVO2's objective. With jitter 0 (exact RVO2 results) nothing changes.
CROWD_HD inline Vec2 orcaPrefVelocity(const StepView& view, int self, float maxSpeed) {
  const AgentArrays& a = view.agents;
  const Vec2 pref = a.prefVelocity[self];
  if (!(view.jitter > 0.0f) || view.neighbours.count[self] == 0) return pref;
  const float prefSpeedSq = absSq(pref);
  const float speedSq = absSq(a.velocity[self]);
  const float stuckSpeedSq = kStuckSpeedFraction * kStuckSpeedFraction * prefSpeedSq;
  if (!(speedSq < stuckSpeedSq)) return pref;  // Moving: exactly RVO2's objective.
  return stuckPrefVelocity(view, self, pref, std::sqrt(speedSq / stuckSpeedSq), maxSpeed);
}

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

/// Obstacle lines first (nearest edge first), then one line per agent neighbour in neighbour
/// order, then the LP (lp2, falling back to lp3): the order that decides RVO2's results.
struct OrcaResult {
  Vec2 velocity;
  int lines;  ///< Half-planes built (obstacle and agent lines), a cost figure.
};

CROWD_HD inline OrcaResult orcaVelocity(const StepView& view, int self) {
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
  return OrcaResult{solveOrcaProgram(lines, lineCount, obstacleLineCount, t.maxSpeed, orcaPrefVelocity(view, self, t.maxSpeed)),
                    lineCount};
}

}  // namespace crowd
