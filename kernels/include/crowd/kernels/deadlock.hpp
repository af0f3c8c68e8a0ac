// Deadlock breaking: the preferred velocity ORCA optimises for when an agent is stuck. A crowd in
// a standoff is a stable equilibrium of ORCA (agents on a circle meeting in the middle, two
// agents or groups head-on from rest), since ORCA lets a hemmed-in agent only back away. The
// same rules serve a planar and a 3D world (templates over the view and the vector); only what
// "to the right" means (sidestep) and whether there are walls differ.
#pragma once

#include <cmath>
#include <cstdint>

#include "config.hpp"
#include "counter_random.hpp"
#include "obstacle_query.hpp"
#include "step_view.hpp"
#include "vec2.hpp"
#include "vec3.hpp"

namespace crowd {

/// Stream of counterRandom used by the deadlock jitter.
inline constexpr std::uint32_t kJitterStream = 1;

/// Below this fraction of its preferred speed an agent counts as stuck.
inline constexpr float kStuckSpeedFraction = 0.1f;

/// Whether `offset` (from the agent to something) lies within 45 degrees of `direction`.
template <class Vector>
CROWD_HD inline bool ahead(Vector offset, Vector direction) {
  const float along = dot(offset, direction);
  return along > 0.0f && 2.0f * along * along > absSq(offset) * absSq(direction);
}

/// `pref` turned a right angle to the right, as long as `pref`. In 3D "right" is seen from
/// above (+z up): pref x z, or pref x x for a vertical pref. Either way opposite preferences
/// sidestep opposite ways, so two agents head-on pass each other.
CROWD_HD inline Vec2 sidestep(Vec2 pref) {
  return Vec2(pref.y, -pref.x);
}
CROWD_HD inline Vec3 sidestep(Vec3 pref) {
  Vec3 side = cross(pref, Vec3(0.0f, 0.0f, 1.0f));
  if (!(absSq(side) > 1e-6f * absSq(pref))) side = cross(pref, Vec3(1.0f, 0.0f, 0.0f));
  return normalize(side) * length(pref);
}

/// A random vector of up to `amplitude` per coordinate from one draw.
CROWD_HD inline Vec2 jitterOf(std::uint64_t bits, float amplitude, Vec2) {
  return amplitude * Vec2(signedUnit(bits), signedUnit(bits << 24));
}
CROWD_HD inline Vec3 jitterOf(std::uint64_t bits, float amplitude, Vec3) {
  return amplitude * Vec3(signedUnit(bits), signedUnit(bits << 20), signedUnit(bits << 40));
}

/// Whether a wall nearly touching the agent lies within 45 degrees of `pref`.
CROWD_HD inline bool wallAhead(const StepView& view, Vec2 p, float radius, Vec2 pref) {
  if (view.obstacles.edgeCount == 0) return false;
  ObstacleNeighbours walls;
  findNearestEdges(view.obstacles, p, 1.5f * radius, walls);
  for (int m = 0; m < walls.count; ++m) {
    const ObstacleEdge& edge = view.obstacles.edges[walls.index(m)];
    const Vec2 b = view.obstacles.edges[edge.next].point;
    // The edge's nearest point to the agent.
    const Vec2 ab = b - edge.point;
    float t = dot(p - edge.point, ab) / absSq(ab);
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    if (ahead(edge.point + t * ab - p, pref)) return true;
  }
  return false;
}
// No walls in 3D.
CROWD_HD inline bool wallAhead(const StepView3&, Vec3, float, Vec3) {
  return false;
}

/// Whether an agent that is stuck is in a standoff rather than a queue: some neighbour wants
/// to go against it (head-on), or nothing stands in its way (agents pressing in from the sides
/// hold each other, as in a circle of agents meeting in the middle). An agent or a wall stands
/// in the way when it is within 45 degrees of the preferred direction and nearly touching.
template <class View, class Vector>
CROWD_HD inline bool inStandoff(const View& view, int self, Vector pref) {
  const auto& a = view.agents;
  const Vector p = a.position[self];
  const float radius = view.terms[a.profile[self]].radius;
  bool blocked = false;
  for (int m = 0; m < view.neighbours.count[self]; ++m) {
    const int other = view.neighbours.at(self, m);
    if (dot(pref, a.prefVelocity[other]) < 0.0f) return true;
    const Vector toOther = neighbourPosition(view, self, other) - p;
    const float reach = 1.5f * (radius + view.terms[a.profile[other]].radius);
    blocked = blocked || (absSq(toOther) < reach * reach && ahead(toOther, pref));
  }
  return !blocked && !wallAhead(view, p, radius, pref);
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
template <class View, class Vector>
CROWD_HD CROWD_NOINLINE inline Vector stuckPrefVelocity(const View& view, int self, Vector pref,
                                                        float speedFraction, float maxSpeed) {
  if (inStandoff(view, self, pref)) {
    const float slowness = 1.0f - speedFraction;  // 1 at a standstill; the turn keeps the speed.
    pref = normalize((1.0f - slowness) * pref + slowness * sidestep(pref)) * length(pref);
  }
  const std::uint64_t bits = counterRandom(view.seed, view.agents.id[self].index, view.step, kJitterStream);
  return pref + jitterOf(bits, view.jitter * maxSpeed, pref);
}

/// The preferred velocity ORCA optimises for: the agent's own (`pref`, as the model phase has it),
/// unless it is stuck (below
/// kStuckSpeedFraction of its preferred speed) among agent neighbours; then stuckPrefVelocity.
/// An agent alone cannot be caught in a deadlock, and a moving one is not in one, so both keep
/// exactly RVO2's objective. With jitter 0 (exact RVO2 results) nothing changes.
template <class View, class Vector>
CROWD_HD inline Vector orcaPrefVelocity(const View& view, int self, float maxSpeed, Vector pref) {
  const auto& a = view.agents;
  if (!(view.jitter > 0.0f) || view.neighbours.count[self] == 0) return pref;
  const float prefSpeedSq = absSq(pref);
  const float speedSq = absSq(a.velocity[self]);
  const float stuckSpeedSq = kStuckSpeedFraction * kStuckSpeedFraction * prefSpeedSq;
  if (!(speedSq < stuckSpeedSq)) return pref;  // Moving: exactly RVO2's objective.
  return stuckPrefVelocity(view, self, pref, std::sqrt(speedSq / stuckSpeedSq), maxSpeed);
}

}  // namespace crowd
