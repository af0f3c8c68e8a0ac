// The walls a pedestrian model pushes an agent away from: the nearest point of each obstacle edge
// within range, as a distance and the unit direction from the wall to the agent.
#pragma once

#include <cmath>

#include "config.hpp"
#include "k_nearest.hpp"
#include "obstacle_edge.hpp"
#include "obstacle_query.hpp"
#include "vec2.hpp"

namespace crowd {

/// The point of segment a-b nearest to c.
CROWD_HD inline Vec2 nearestPointOnSegment(Vec2 a, Vec2 b, Vec2 c) {
  const Vec2 ab = b - a;
  const float r = dot(c - a, ab) / absSq(ab);
  if (r <= 0.0f) return a;
  if (r >= 1.0f) return b;
  return a + r * ab;
}

/// Calls visit(distance, away) for each obstacle edge that `p` sees within `range` (the edges
/// whose outer side faces it, nearest first: RVO2's rule, so an agent is pushed by the face of a
/// wall it stands before and not by the far face of the same wall). `away` is the unit vector
/// from the edge's nearest point to `p`. A point on an edge (distance 0) has no direction and is
/// skipped.
template <class Visit>
CROWD_HD inline void forEachNearWall(const ObstacleView& obstacles, Vec2 p, float range, Visit&& visit) {
  if (obstacles.edgeCount == 0) return;
  ObstacleNeighbours nearEdges;
  findNearestEdges(obstacles, p, range, nearEdges);
  for (int m = 0; m < nearEdges.count; ++m) {
    const int e = nearEdges.index(m);
    const Vec2 a = obstacles.edges[e].point;
    const Vec2 b = obstacles.edges[obstacles.edges[e].next].point;
    const Vec2 offset = p - nearestPointOnSegment(a, b, p);
    const float distance = length(offset);
    if (distance > 0.0f) visit(distance, offset * (1.0f / distance));
  }
}

}  // namespace crowd
